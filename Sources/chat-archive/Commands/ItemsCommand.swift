import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import Foundation

struct ItemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "items",
        abstract: "Show a window of a chat's items (oldest first), or its shared media by kind (newest first).",
        discussion: """
            With --media KIND, lists the chat's items that carry an image, a video, a file, a link or a
            voice message, newest first, a page of --limit items at a time; --cursor takes the
            nextCursor of the previous page (printed last, or in the JSON document).
            """)

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
    @Option(help: "The chat's shared media of this kind, newest first: image, video, file, link, voice.") var media:
        String?
    @Option(help: "Items per page of --media.") var limit: Int?
    @Option(help: "With --media: the nextCursor of the previous page.") var cursor: String?

    var request: ItemsRequest {
        ItemsRequest(
            global: global.values, chat: chat, last: last, before: before, after: after, around: around,
            aroundSource: aroundSource, initial: initial, at: at, count: count, content: content, search: search,
            media: media, limit: limit, cursor: cursor)
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
    var media: String?
    var limit: Int?
    var cursor: String?

    /// The window and content filter asked for (``RequestParameters/items(last:before:after:around:aroundSource:initial:at:count:content:spelling:)``).
    func parameters() throws -> (window: RequestParameters.Window, content: ContentFilter?) {
        try usage {
            try RequestParameters.items(
                last: last, before: before, after: after, around: around, aroundSource: aroundSource, initial: initial,
                at: at, count: count, content: content, spelling: .commandLine)
        }
    }

    /// The kind and page size of `--media`, or nil for a window; `--media` with a window's
    /// options, or `--limit`/`--cursor` without it, is a usage error.
    func mediaParameters() throws -> (kind: MediaKind, limit: Int)? {
        try usage {
            guard media != nil else {
                guard limit == nil, cursor == nil else {
                    throw ValidationError("--limit and --cursor page --media; a window takes --count")
                }
                return nil
            }
            let window: [Any?] = [last, before, after, around, aroundSource, initial, at, content, search]
            guard window.allSatisfy({ $0 == nil }) else {
                throw ValidationError(
                    "--media lists a kind of item newest first: it takes --limit and --cursor, not a window's options")
            }
            return try RequestParameters.media(
                kind: media, limit: limit ?? RequestParameters.mediaLimit, spelling: .commandLine)
        }
    }

    func validate() throws {
        if try mediaParameters() == nil { _ = try parameters() }
    }

    func run() throws {
        try reportingErrors(json: global.json) {
            let archive = try global.open(.readOnly).blocking
            if let media = try mediaParameters() {
                let page = try archive.media(in: chat, kind: media.kind, limit: media.limit, after: cursor)
                if global.json {
                    print(ArchiveJSON.media(page))
                    return
                }
                for i in page.items { print(HumanFormat.item(i, isAnchor: false)) }
                if let next = page.nextCursor { print(Terminal.dim("more: --cursor \(next)")) }
                return
            }
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
