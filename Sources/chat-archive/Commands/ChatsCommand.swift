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

    @Flag(help: "Print how many chats each filter tab lists instead of the chats.")
    var counts = false

    func validate() throws {
        guard ChatFilter(filter) != nil else { throw ValidationError("unknown --filter \(filter)") }
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
    }

    func run() async throws {
        try await reportingErrors(json: global.json) {
            let archive = try global.open(.readOnly)
            if counts {
                let c = try await archive.chatFilterCounts()
                if global.json {
                    print(ArchiveJSON.chatCounts(c))
                    return
                }
                let tabs: [(String, ChatFilter)] = [
                    ("all", .all), ("unread", .unread), ("favorites", .favorites), ("contacts", .contacts),
                    ("groups", .groups), ("business", .business), ("notes", .notes), ("reports", .reports),
                ]
                for (name, filter) in tabs { print("\(name)\t\(c.count(filter))") }
                for (tag, n) in c.tags.sorted(by: { $0.key < $1.key }) { print("tag:\(tag)\t\(n)") }
                return
            }
            let rows = try await archive.chats(matching: query, filter: ChatFilter(filter) ?? .all, limit: limit)
            if global.json {
                print(ArchiveJSON.chats(rows))
                return
            }
            if rows.isEmpty { print("no chats") }
            for r in rows { print(HumanFormat.chatRow(r)) }
        }
    }
}
