import ChatModel
import ChatSearch
import Foundation

/// The JSON documents of the CLI's `--json` and of the web app's API, written in one place so
/// that both answer the same document for the same request.
package enum ArchiveJSON {
    /// The chat list: `{"chats": [...]}`.
    package static func chats(_ rows: [ChatRow]) -> String {
        var o = JSONBytes(capacity: 512 * rows.count + 16)
        o.raw("{\"chats\":")
        o.array(rows) { $1.write(to: &$0) }
        o.raw("}")
        return o.text
    }

    /// A page of the chat list: `{"chats": [...], "nextCursor": ...}`.
    package static func chats(_ page: ChatListPage) -> String { bytes(page, capacity: 512 * page.rows.count) }

    /// The chat-list tabs' counts.
    package static func chatCounts(_ counts: ChatFilterCounts) -> String { text(counts) }

    /// A page of search hits: `{"hits": [...], "nextCursor": ...}`.
    package static func search(_ page: SearchPage) -> String { bytes(page, capacity: 768 * page.hits.count) }

    /// A page of search hits with how many items match in all (`search --count`):
    /// `{"hits": [...], "nextCursor": ..., "count": {"total", "exact"}}`.
    package static func search(_ page: SearchPage, count: SearchCount) -> String {
        String(search(page).dropLast()) + ",\"count\":" + text(count) + "}"
    }

    /// A search's matches per period: `{"period", "timeZone", "exact", "total", "estimate", "buckets"}`.
    package static func histogram(_ h: SearchHistogram) -> String { bytes(h, capacity: 96 * h.buckets.count) }

    /// A window of items: `{"items": [...], "navInfo": ...}`.
    package static func items(_ window: ItemWindow) -> String { bytes(window, capacity: 768 * window.items.count) }

    /// A page of a chat's shared media: `{"items": [...], "nextCursor": ...}`.
    package static func media(_ page: MediaPage) -> String { bytes(page, capacity: 768 * page.items.count) }

    /// Mention autocomplete: `{"members": [...]}`.
    package static func members(_ members: [ChatMember]) -> String {
        struct Document: Encodable { var members: [ChatMember] }
        return text(Document(members: members))
    }

    /// `from:` autocomplete across chats: `{"names": [...]}`.
    package static func memberNames(_ names: [MemberName]) -> String {
        struct Document: Encodable { var names: [MemberName] }
        return text(Document(names: names))
    }

    /// Counts, sizes, sources and index health.
    package static func stats(_ s: ArchiveStats) -> String { text(s) }

    /// What an ingest did.
    package static func ingest(_ report: IngestReport) -> String { text(report) }

    /// The JSON of one of the documents written most, by hand (the same bytes as `text`).
    private static func bytes(_ value: some JSONBytesWritable, capacity: Int) -> String {
        var o = JSONBytes(capacity: capacity + 64)
        value.write(to: &o)
        return o.text
    }

    /// The JSON of `value` from its `Encodable` conformance. Our conformances encode strings,
    /// numbers and containers only, which cannot fail; a failure would be a programming error in
    /// a conformance, reported as an error document rather than a crash.
    private static func text(_ value: some Encodable) -> String {
        do {
            return try JSONStreamEncoder.string(value)
        } catch {
            return Self.error(code: "internal", message: "cannot encode the answer: \(error)")
        }
    }

    /// An error document: `{"error": {"code": ..., "message": ...}}`.
    package static func error(code: String, message: String) -> String {
        let o = JSONOut()
        o.object {
            o.field(
                "error",
                object: {
                    o.field("code", code)
                    o.field("message", message)
                })
        }
        return o.text
    }
}
