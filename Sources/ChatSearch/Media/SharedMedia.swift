import ChatIndex
import GRDB

/// The kinds of a chat's shared media (the "Media" view of Telegram, Signal and WhatsApp).
public enum MediaKind: String, Sendable, Hashable, CaseIterable {
    case image, video, file, link, voice

    /// The content filter that finds this kind in the full-text index.
    var content: ContentFilter {
        switch self {
        case .image: .image
        case .video: .video
        case .file: .file
        case .link: .link
        case .voice: .voice
        }
    }
}

/// A page of a chat's shared media, newest first, and the cursor of the next one.
public struct MediaPage: Sendable, Hashable {
    /// The items of this page, newest first.
    public var items: [ArchivedItem]
    /// The markdown spans of the page's items, by item id (items without any are absent): a
    /// link's target when its text hides it.
    public var spans: [Int64: [StoredSpan]]
    /// Pass as the cursor of the next request; `nil` on the last page.
    public var nextCursor: String?

    /// A page of media items.
    package init(items: [ArchivedItem], spans: [Int64: [StoredSpan]] = [:], nextCursor: String?) {
        self.items = items
        self.spans = spans
        self.nextCursor = nextCursor
    }
}

/// A chat's shared media by kind: its items that carry an image, a video, a file, a link or a
/// voice message, newest first.
package enum SharedMedia {
    /// One page of `chat`'s items of `kind` (deleted ones left out), below the cursor of the
    /// previous page (from the newest when `nil`).
    ///
    /// It is a message search with no words, scoped to the chat and the kind: the kind is a
    /// token of every item in the full-text index (`IndexTerms`), so a page reads the chat's
    /// entries of that token only, in the chat-keyed index when the chat has its keys.
    ///
    /// - Throws: `ArchiveError` `.unknownChat` for an unknown chat, `.invalidCursor` for a
    ///   cursor no page returned.
    /// - Complexity: O(`limit`) index entries and rows, whatever the chat's size.
    package static func page(chat: String, kind: MediaKind, limit: Int, cursor: String?, in db: Database) throws
        -> MediaPage
    {
        if let cursor {
            guard cursor.hasPrefix("n"), SearchCursor(cursor, order: .newest).text == cursor else {
                throw ArchiveError(
                    .invalidCursor,
                    "\"\(cursor.prefix(80))\" is not a cursor of this list: pass the nextCursor of the previous page")
            }
        }
        let options = SearchOptions(chat: chat, content: kind.content, limit: limit, cursor: cursor)
        let found = try MessageSearch.search("", options: options, in: db)
        let items = found.hits.map(\.item)
        return MediaPage(
            items: items, spans: try ItemWindows.spans(of: items.map(\.id), db), nextCursor: found.nextCursor)
    }
}
