/// Result order of a message search.
public enum SearchOrder: String, Sendable, Hashable, CaseIterable {
    /// Newest first by `(ts, id)`: by archive id, which follows time to the second.
    case newest
    /// BM25 blended with recency.
    case relevance
}

/// Options of a message search.
public struct SearchOptions: Sendable, Hashable {
    /// Restrict to one chat (its source id).
    public var chat: String?
    /// Restrict to one content kind (`--content`).
    public var content: ContentFilter?
    /// Hits per page (clamped to 1…10 000).
    public var limit: Int
    /// The `nextCursor` of the previous page.
    public var cursor: String?
    /// Newest first or by relevance.
    public var order: SearchOrder
    /// Include deleted items (excluded by default).
    public var includeDeleted: Bool
    /// Chats up to this many items are walked oldest first (tests set it to cover both ways).
    var ascendingWalkMaxItems = MessageSearch.ascendingWalkMaxItems
    /// The newest items of a chat walked oldest first that are walked first (tests lower it).
    var recentWindowItems = MessageSearch.recentWindowItems
    /// The newest matches a histogram counts one by one before it estimates (tests lower it,
    /// the bench varies it).
    package var histogramCountedMatches = MessageSearch.histogramCountedMatches
    /// The most matches a histogram reads in one sampled span.
    package var histogramMatchesPerSpan = MessageSearch.histogramMatchesPerSpan
    /// The most spans a histogram samples its older periods in.
    package var histogramSpans = MessageSearch.histogramSpans
    /// Whether a search in one chat uses the chat-keyed index when the chat has its keys
    /// (tests turn it off to compare with the items' index).
    var usesChatKeys = true

    /// Makes options: all chats, newest first, 50 hits, deleted items excluded.
    public init(
        chat: String? = nil, content: ContentFilter? = nil, limit: Int = 50, cursor: String? = nil,
        order: SearchOrder = .newest, includeDeleted: Bool = false
    ) {
        self.chat = chat
        self.content = content
        self.limit = limit
        self.cursor = cursor
        self.order = order
        self.includeDeleted = includeDeleted
    }
}
