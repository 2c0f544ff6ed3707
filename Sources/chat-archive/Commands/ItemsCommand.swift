import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import Foundation

struct ItemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "items", abstract: "Show a window of a chat's items (oldest first).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The chat's id (from `chats`).")
    var chat: String

    @Option(help: "The newest N items.") var last: Int?
    @Option(help: "Items before this item id (with --count).") var before: Int64?
    @Option(help: "Items after this item id (with --count).") var after: Int64?
    @Option(help: "Items around this item id (with --count); the item itself is always included.") var around: Int64?
    @Option(help: "Items around the item with this source id (a quote's id; with --count).") var aroundSource: String?
    @Option(help: "N items around the oldest unread item (or the newest N).") var initial: Int?
    @Option(help: "Items around the first item at or after this date (2024-05-01 or RFC 3339; with --count).") var at:
        String?
    @Option(help: "How many items before/after the anchor.") var count = ItemsRequest.defaults.count
    @Option(help: "Only items of this content: text, link, image, video, voice, file, report.") var content: String?
    @Option(help: "Only items matching this search.") var search: String?

    var request: ItemsRequest {
        ItemsRequest(
            global: global.values, chat: chat, last: last, before: before, after: after, around: around,
            aroundSource: aroundSource, initial: initial, at: at, count: count, content: content, search: search)
    }

    func validate() throws { try request.validate() }

    func run() throws { try request.run() }
}

/// `items`'s arguments as plain values, from ``ItemsCommand`` or the quick path
/// (``QuickCommandLine``), and what the command does with them.
struct ItemsRequest: Equatable {
    static let defaults = ItemsRequest()

    var global = GlobalValues()
    var chat = ""
    var last: Int?
    var before: Int64?
    var after: Int64?
    var around: Int64?
    var aroundSource: String?
    var initial: Int?
    var at: String?
    var count = 25
    var content: String?
    var search: String?

    func window() throws -> WindowRequest {
        var modes: [WindowRequest] = []
        if let last { modes.append(.last(last)) }
        if let before { modes.append(.before(before, count: count)) }
        if let after { modes.append(.after(after, count: count)) }
        if let around { modes.append(.around(around, count: count)) }
        // Resolved to an item id when the archive is open (`run`); the id here only counts the modes.
        if aroundSource != nil { modes.append(.around(0, count: count)) }
        if let initial { modes.append(.initial(initial)) }
        if let at {
            guard let time = Timestamp.parse(at) else {
                throw ValidationError("--at must be a date (2024-05-01) or an RFC 3339 time")
            }
            modes.append(.at(time, count: count))
        }
        guard modes.count <= 1 else {
            throw ValidationError("give one of --last, --before, --after, --around, --around-source, --initial, --at")
        }
        return modes.first ?? .last(count)
    }

    func validate() throws {
        _ = try window()
        if let content, ContentFilter(rawValue: content) == nil {
            throw ValidationError("unknown --content \(content)")
        }
        guard count >= 0, (last ?? 0) >= 0, (initial ?? 0) >= 0 else {
            throw ValidationError("counts must not be negative")
        }
    }

    func run() throws {
        try reportingErrors(json: global.json) {
            let archive = try global.open(.readOnly).blocking
            var request = try window()
            var anchor = around
            if let aroundSource {
                guard let id = try archive.itemId(chat: chat, sourceId: aroundSource) else {
                    throw ArchiveError(.unknownItem, "no item with source id \"\(aroundSource)\" in chat \"\(chat)\"")
                }
                request = .around(id, count: count)
                anchor = id
            }
            let window = try archive.items(
                chat: chat, request, content: content.flatMap(ContentFilter.init(rawValue:)), search: search)
            if global.json {
                print(ArchiveJSON.items(window))
                return
            }
            for i in window.items { print(HumanFormat.item(i, isAnchor: i.id == anchor)) }
            if let n = window.navInfo { print(Terminal.dim("\(n.afterTotal) newer items, \(n.afterUnread) unread")) }
        }
    }
}
