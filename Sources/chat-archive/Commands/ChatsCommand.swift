import ArgumentParser
import ChatArchive
import Foundation

struct ChatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chats", abstract: "The chat list: search chat names and filter by tab, newest activity first.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "all, unread, favorites, contacts, groups, business, notes, reports or tag:NAME.")
    var filter = "all"

    @Option(help: "At most this many chats.")
    var limit = 100

    @Argument(help: "Part of a chat's name, alias or full name.")
    var query: String?

    func validate() throws {
        guard ChatFilter(filter) != nil else { throw ValidationError("unknown --filter \(filter)") }
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
    }

    func run() async throws {
        try await reportingErrors(json: global.json) {
            let archive = try global.open(.readOnly)
            let rows = try await archive.chats(matching: query, filter: ChatFilter(filter) ?? .all, limit: limit)
            if global.json {
                let o = JSONOut()
                o.object {
                    o.field("chats", array: {
                        for r in rows { o.chatRow(r) }
                    })
                }
                print(o.text)
                return
            }
            if rows.isEmpty { print("no chats") }
            for r in rows { print(HumanFormat.chatRow(r)) }
        }
    }
}

extension JSONOut {
    func chatRow(_ r: ChatRow) {
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
            field("preview", object: {
                self.field("kind", r.preview.kind.rawValue)
                self.field("sender", r.preview.sender)
                self.field("contentType", r.preview.contentType?.rawValue)
                self.field("text", r.preview.text)
            })
        }
    }
}
