import ChatModel
import ChatSearch
import Foundation

/// The JSON documents of the CLI's `--json` and of the web app's API, written in one place so
/// that both answer the same document for the same request.
package enum ArchiveJSON {
    /// The chat list: `{"chats": [...]}`.
    package static func chats(_ rows: [ChatRow]) -> String {
        let o = JSONOut()
        o.object {
            o.field("chats", array: { for r in rows { o.chatRow(r) } })
        }
        return o.text
    }

    /// A page of search hits: `{"hits": [...], "nextCursor": ...}`.
    package static func search(_ page: SearchPage) -> String {
        let o = JSONOut()
        o.object {
            o.field(
                "hits",
                array: {
                    for h in page.hits { o.item(h.item, ranges: h.ranges, snippet: h.snippet) }
                })
            o.field("nextCursor", page.nextCursor)
        }
        return o.text
    }

    /// A window of items: `{"items": [...], "navInfo": ...}`.
    package static func items(_ window: ItemWindow) -> String {
        let o = JSONOut()
        o.object {
            o.field("items", array: { for i in window.items { o.item(i, spans: window.spans[i.id]) } })
            if let n = window.navInfo {
                o.field(
                    "navInfo",
                    object: {
                        o.field("afterTotal", n.afterTotal)
                        o.field("afterUnread", n.afterUnread)
                    })
            } else {
                o.key("navInfo")
                o.raw("null")
            }
        }
        return o.text
    }

    /// Mention autocomplete: `{"members": [...]}`.
    package static func members(_ members: [ChatMember]) -> String {
        struct Document: Encodable { var members: [ChatMember] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Document(members: members)) else { return #"{"members":[]}"# }
        return String(decoding: data, as: UTF8.self)
    }

    /// Counts, sizes, sources and index health.
    package static func stats(_ s: ArchiveStats) -> String {
        let o = JSONOut()
        o.object {
            o.field("chats", s.chats)
            o.field("members", s.members)
            o.field("items", s.items)
            o.field("deletedItems", s.deletedItems)
            o.field("unreadItems", s.unreadItems)
            o.field("spans", s.spans)
            o.field("mentions", s.mentions)
            o.field("vocabularyTerms", s.vocabularyTerms)
            o.field("textBytes", s.textBytes)
            o.field("fileBytes", s.fileBytes)
            o.field("analyzerVersion", s.analyzerVersion)
            o.field("indexHealthy", !s.indexIsStale)
            o.field(
                "itemsBySource",
                object: {
                    for (k, v) in s.itemsBySource.sorted(by: { $0.key < $1.key }) { o.field(k, v) }
                })
            o.field(
                "ingests",
                array: {
                    for i in s.ingests {
                        o.object {
                            o.field("path", i.path)
                            o.field("format", i.format)
                            o.field("at", Timestamp(milliseconds: i.at).rfc3339)
                        }
                    }
                })
        }
        return o.text
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

extension JSONOut {
    /// A chat-list row.
    package func chatRow(_ r: ChatRow) {
        object {
            field("chatId", r.chatId)
            field("type", r.type.rawValue)
            field("business", r.business?.rawValue)
            field("displayName", r.displayName)
            field("fullName", r.fullName)
            field("localAlias", r.localAlias)
            field("favorite", r.isFavorite)
            field("muted", r.isMuted)
            field("unreadCount", r.unreadCount)
            field("unreadMentions", r.unreadMentions)
            field("tags", array: { for t in r.tags { self.value(t) } })
            field("lastActivity", r.lastActivity?.rfc3339)
            field("itemCount", r.itemCount)
            field(
                "preview",
                object: {
                    self.field("kind", r.preview.kind.rawValue)
                    self.field("sender", r.preview.sender)
                    self.field("contentType", r.preview.contentType?.rawValue)
                    self.field("text", r.preview.text)
                })
        }
    }
}
