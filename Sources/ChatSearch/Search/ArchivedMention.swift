import ChatModel

/// A mention in an item's display text: where it stands and whom it names.
public struct ArchivedMention: Sendable, Hashable {
    /// The name as written after `@` (the key of the item's `mentions` map).
    public var name: String
    /// Where the mention stands, in UTF-16 code units of ``ArchivedItem/text`` (as search ranges).
    public var range: Range<Int>
    /// The mentioned member's source id, when the export named one.
    public var memberSourceId: String?
    /// The mention names the archive's owner.
    public var isUserMention: Bool

    /// Creates a mention (for previews and tests of apps that embed the library).
    public init(name: String, range: Range<Int>, memberSourceId: String? = nil, isUserMention: Bool = false) {
        self.name = name
        self.range = range
        self.memberSourceId = memberSourceId
        self.isUserMention = isUserMention
    }
}
