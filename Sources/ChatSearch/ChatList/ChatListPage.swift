/// A page of the chat list and the cursor of the next one (`nil` at the end).
public struct ChatListPage: Sendable, Hashable {
    /// The rows of this page, in the list's order.
    public var rows: [ChatRow]
    /// Pass as `after:` to get the next page; `nil` on the last page.
    public var nextCursor: String?

    /// Creates a page (for previews and tests of apps that embed the library).
    public init(rows: [ChatRow], nextCursor: String?) {
        self.rows = rows
        self.nextCursor = nextCursor
    }
}
