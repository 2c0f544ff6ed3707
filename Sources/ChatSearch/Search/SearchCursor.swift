/// Where a page of a message search starts: what a page's `nextCursor` says.
///
/// Newest-first pages continue below the oldest item they returned (`n<id>`); relevance pages
/// continue at an offset among the ranked candidates (`r<offset>`), then newest first below the
/// oldest candidate. Any other text, like none, starts at the first page of the search's order:
/// a search never fails for its cursor.
enum SearchCursor: Equatable {
    /// Newest first, the matches strictly below this archive id (`nil`: from the newest).
    case newest(below: Int64?)
    /// Relevance order, from this offset among the ranked candidates.
    case relevance(offset: Int)

    /// The cursor `text` stands for, or the first page of `order` for no text or not a cursor.
    init(_ text: String?, order: SearchOrder) {
        var text = text ?? ""
        if order == .relevance, text.isEmpty { text = "r0" }
        if text.hasPrefix("r"), let offset = Int(text.dropFirst()), offset >= 0 {
            self = .relevance(offset: offset)
        } else if text.hasPrefix("n"), let id = Int64(text.dropFirst()) {
            self = .newest(below: id)
        } else {
            self = .newest(below: nil)
        }
    }

    /// The cursor as a page's `nextCursor`.
    var text: String {
        switch self {
        case .newest(let below): "n\(below ?? .max)"
        case .relevance(let offset): "r\(offset)"
        }
    }
}
