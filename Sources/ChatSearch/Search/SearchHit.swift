/// One found item with the places that matched.
public struct SearchHit: Sendable, Hashable {
    /// The found item.
    public var item: ArchivedItem
    /// UTF-16 `[start, end)` ranges of every matched occurrence in `item.text`.
    public var ranges: [Range<Int>]
    /// An excerpt around the first match, matches in brackets.
    public var snippet: String

    /// Creates a hit (for previews and tests of apps that embed the library).
    public init(item: ArchivedItem, ranges: [Range<Int>], snippet: String) {
        self.item = item
        self.ranges = ranges
        self.snippet = snippet
    }
}

extension SearchHit: Identifiable {
    /// The found item's archive id.
    public var id: Int64 { item.id }
}

/// A page of hits and the cursor of the next one (`nil` at the end).
public struct SearchPage: Sendable, Hashable {
    /// The hits of this page, in the requested order.
    public var hits: [SearchHit]
    /// Pass as ``SearchOptions/cursor`` to get the next page; `nil` on the last page.
    public var nextCursor: String?

    /// A page of hits.
    package init(hits: [SearchHit], nextCursor: String?) {
        self.hits = hits
        self.nextCursor = nextCursor
    }
}

/// How many items a search matches, and where one of them stands among them: an in-chat
/// search's "k of N".
public struct SearchCount: Sendable, Hashable {
    /// The items that match (N); when ``isExact`` is false, more than this match.
    public var total: Int
    /// The given item's place among them, newest first from 1 (k), as `SearchOrder/newest`
    /// pages list them; `nil` when no item was given, it does not match, or its place lies
    /// beyond the count's limit.
    public var position: Int?
    /// Whether ``total`` is every match: false when counting stopped at its limit (an app
    /// shows "1,000+").
    public var isExact: Bool

    /// The most matches a count walks unless asked for more: what a screen shows as "k of N"
    /// within the in-chat budget (ServingPerformance.md in ChatArchive.docc).
    public static let defaultLimit = 1_000

    /// A count of `total` matches, the given one at `position`.
    public init(total: Int, position: Int?, isExact: Bool = true) {
        self.total = total
        self.position = position
        self.isExact = isExact
    }
}
