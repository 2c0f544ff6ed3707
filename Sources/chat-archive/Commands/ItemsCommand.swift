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
    var count = RequestParameters.windowCount
    var content: String?
    var search: String?

    /// The window and content filter asked for (``RequestParameters/items(last:before:after:around:aroundSource:initial:at:count:content:spelling:)``).
    func parameters() throws -> (window: RequestParameters.Window, content: ContentFilter?) {
        try usage {
            try RequestParameters.items(
                last: last, before: before, after: after, around: around, aroundSource: aroundSource, initial: initial,
                at: at, count: count, content: content, spelling: .commandLine)
        }
    }

    func validate() throws { _ = try parameters() }

    func run() throws {
        try reportingErrors(json: global.json) {
            let archive = try global.open(.readOnly).blocking
            let parameters = try parameters()
            let request: WindowRequest
            var anchor = around
            switch parameters.window {
            case .request(let r): request = r
            case .aroundSource(let source, let count):
                guard let id = try archive.itemId(chat: chat, sourceId: source) else {
                    throw ArchiveError.unknownItem(sourceId: source, chat: chat)
                }
                request = .around(id, count: count)
                anchor = id
            }
            let window = try archive.items(chat: chat, request, content: parameters.content, search: search)
            if global.json {
                print(ArchiveJSON.items(window))
                return
            }
            for i in window.items { print(HumanFormat.item(i, isAnchor: i.id == anchor)) }
            if let n = window.navInfo { print(Terminal.dim("\(n.afterTotal) newer items, \(n.afterUnread) unread")) }
        }
    }
}
