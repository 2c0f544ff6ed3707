import ChatModel

/// The filter tokens stored in the FTS `tags` column of every item, so that chat, content,
/// sender, mention and state filters are answered by the full-text index itself (no
/// post-filtering, no join on a global posting list).
///
/// Every token is ASCII letters and digits, which the tokenizer keeps whole.
public enum IndexTerms {
    /// Present on every item: lets a query made only of exclusions or filters run.
    public static let all = "all"
    /// The item is deleted.
    public static let deleted = "xdel"
    /// The item is unread.
    public static let unread = "xunread"
    /// The item is pinned.
    public static let pinned = "xpin"
    /// The item has a link (a link span or a preview card).
    public static let link = "xlink"
    /// The item mentions the archive's owner.
    public static let mentionsMe = "mnme"
    /// The item was sent by the archive's owner.
    public static let fromMe = "frme"

    public static func chat(_ id: Int64) -> String { "c\(id)" }
    public static func content(_ t: ContentType) -> String { "t" + t.rawValue.lowercased() }
    public static func from(member id: Int64) -> String { "fr\(id)" }
    public static func mentions(member id: Int64) -> String { "mn\(id)" }
}

/// Bits of `item.flags`.
public struct ItemFlags: OptionSet, Sendable, Hashable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static let edited = ItemFlags(rawValue: 1)
    public static let deleted = ItemFlags(rawValue: 2)
    public static let unread = ItemFlags(rawValue: 4)
    public static let pinned = ItemFlags(rawValue: 8)
    public static let hasLink = ItemFlags(rawValue: 16)
    public static let mentionsUser = ItemFlags(rawValue: 32)
    /// The time was a zone-less wall clock placed in the zone chosen at import.
    public static let floatingTime = ItemFlags(rawValue: 64)
    /// The source's time was missing or unreadable (the previous item's time is used).
    public static let timeUnknown = ItemFlags(rawValue: 128)
}

extension ItemDirection {
    /// Compact storage code.
    public var code: Int64 {
        switch self {
        case .snd: 0
        case .rcv: 1
        case .event: 2
        }
    }
    public init(code: Int64) {
        switch code {
        case 0: self = .snd
        case 2: self = .event
        default: self = .rcv
        }
    }
}

extension ContentType {
    /// Compact storage code.
    public var code: Int64 { Int64(ContentType.allCases.firstIndex(of: self) ?? 0) }
    public init(code: Int64) {
        let all = ContentType.allCases
        self = code >= 0 && code < all.count ? all[Int(code)] : .unknown
    }
}
