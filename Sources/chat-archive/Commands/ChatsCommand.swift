import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import Foundation

struct ChatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chats", abstract: "The chat list: search chat names and filter by tab, newest activity first.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "all, unread, favorites, contacts, groups, business, notes, reports or tag:NAME.")
    var filter = ChatsRequest.defaults.filter

    @Option(help: "At most this many chats (a page).")
    var limit = ChatsRequest.defaults.limit

    @Option(help: "The nextCursor of the previous page (same query and --filter).")
    var cursor: String?

    @Option(
        help: ArgumentHelp(
            "Only the chats with these ids, in this order (unknown ids skipped).",
            discussion: "Ids separated by commas; write a comma inside an id as \\, and a backslash as \\\\.",
            valueName: "id,id,..."))
    var ids: String?

    @Argument(help: "Part of a chat's name, alias or full name.")
    var query: String?

    @Flag(help: "Print how many chats each filter tab lists instead of the chats.")
    var counts = false

    var request: ChatsRequest {
        ChatsRequest(
            global: global.values, filter: filter, limit: limit, cursor: cursor, ids: ids, query: query, counts: counts)
    }

    func validate() throws { try request.validate() }

    func run() throws { try request.run() }
}

/// `chats`'s arguments as plain values, from ``ChatsCommand`` or the quick path
/// (``QuickCommandLine``), and what the command does with them.
struct ChatsRequest: Equatable {
    static let defaults = ChatsRequest()

    var global = GlobalValues()
    var filter = "all"
    var limit = RequestParameters.chatListLimit
    var cursor: String?
    var ids: String?
    var query: String?
    var counts = false

    /// What the command asks for (``RequestParameters/chatList(query:filter:limit:cursor:ids:counts:spelling:)``).
    func chatList() throws -> RequestParameters.ChatListRequest {
        try usage {
            try RequestParameters.chatList(
                query: query, filter: filter, limit: limit, cursor: cursor, ids: ids, counts: counts,
                spelling: .commandLine)
        }
    }

    func validate() throws { _ = try chatList() }

    func run() throws {
        try reportingErrors(json: global.json) {
            let archive = try global.open(.readOnly).blocking
            let page: ChatListPage
            switch try chatList() {
            case .counts:
                let c = try archive.chatFilterCounts()
                if global.json {
                    print(ArchiveJSON.chatCounts(c))
                    return
                }
                let tabs: [(String, ChatFilter)] = [
                    ("all", .all), ("unread", .unread), ("favorites", .favorites), ("contacts", .contacts),
                    ("groups", .groups), ("business", .business), ("notes", .notes), ("reports", .reports),
                ]
                for (name, filter) in tabs { print("\(name)\t\(c.count(filter))") }
                for (tag, n) in c.tags.sorted(by: { $0.key < $1.key }) {
                    print(Terminal.visible("tag:\(tag)", singleLine: true) + "\t\(n)")
                }
                return
            case .ids(let ids):
                page = ChatListPage(rows: try archive.chats(ids: ids), nextCursor: nil)
            case .page(let query, let filter, let limit, let cursor):
                page = try archive.chats(matching: query, filter: filter, limit: limit, after: cursor)
            }
            if global.json {
                print(ArchiveJSON.chats(page))
                return
            }
            if page.rows.isEmpty { print("no chats") }
            for r in page.rows { print(HumanFormat.chatRow(r)) }
            if let next = page.nextCursor { print(Terminal.dim("more: --cursor \(next)")) }
        }
    }
}
