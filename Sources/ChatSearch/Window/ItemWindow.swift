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

/// Where a window lies in its chat: how many of the chat's items come before its oldest item
/// and after its newest, ignoring search and filters (a scrollbar's size and position).
public struct WindowCounts: Sendable, Hashable {
    /// The chat's items before the window's oldest item by `(ts, id)`.
    public var before: Int
    /// The chat's items after the window's newest item.
    public var after: Int

    /// Counts of `before` and `after` items.
    public init(before: Int, after: Int) {
        self.before = before
        self.after = after
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
    /// The chat's items before and after the window, for every request; `nil` for an empty
    /// window.
    ///
    /// - Complexity: O(log n): read from the items' stored positions in their chat.
    public var counts: WindowCounts?

    /// Creates a window.
    public init(items: [ArchivedItem], navInfo: NavigationInfo?) {
        self.items = items
        self.navInfo = navInfo
    }
}
