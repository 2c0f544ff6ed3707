/// Navigation info relative to the newest returned item, ignoring search and filters.
public struct NavigationInfo: Sendable, Hashable {
    /// Items after the newest returned item in the chat.
    public var afterTotal: Int
    /// Unread items among those, marked-deleted ones included (as SimpleX counts them).
    public var afterUnread: Int
    /// Makes navigation info from its two counts.
    public init(afterTotal: Int, afterUnread: Int) {
        self.afterTotal = afterTotal
        self.afterUnread = afterUnread
    }
}

/// A window of items and, for `around` and `initial`, navigation info.
public struct ItemWindow: Sendable, Hashable {
    /// The window's items, oldest first.
    public var items: [ArchivedItem]
    /// Counts after the window, for `around`, `initial` and `at`; `nil` otherwise.
    public var navInfo: NavigationInfo?
    /// The markdown spans of the window's items, by item id (items without any are absent).
    public var spans: [Int64: [StoredSpan]] = [:]

    /// Creates a window.
    public init(items: [ArchivedItem], navInfo: NavigationInfo?) {
        self.items = items
        self.navInfo = navInfo
    }
}
