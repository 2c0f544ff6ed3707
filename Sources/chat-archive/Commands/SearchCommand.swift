import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search messages in all chats or one.",
        discussion: """
            Words must all match (the last also as a prefix); "exact phrase"; -exclude; a OR b;
            from:NAME  in:CHAT  has:link|image|video|voice|file  mentions:NAME|me
            before:2024-05-01  after:2024-05  is:unread  is:pinned
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Search in this chat only (its id from `chats`).")
    var chat: String?

    @Option(help: "text, link, image, video, voice, file or report.")
    var content: String?

    @Option(help: "Hits per page.")
    var limit = SearchRequest.defaults.limit

    @Option(help: "The nextCursor of the previous page.")
    var cursor: String?

    @Option(help: "newest or relevance.")
    var order = SearchRequest.defaults.order

    @Flag(help: "Include deleted items.")
    var includeDeleted = false

    @Option(help: "Count the matches per month or week (UTC) instead of listing them.")
    var histogram: String?

    @Flag(help: "With --histogram: count every match, even where an estimate would be quicker.")
    var exact = false

    @Flag(help: "Also say how many items match in all (up to 1,000, then \"1000+\").")
    var count = false

    @Argument(help: "What to search for.")
    var query: String

    var request: SearchRequest {
        SearchRequest(
            global: global.values, chat: chat, content: content, limit: limit, cursor: cursor, order: order,
            includeDeleted: includeDeleted, histogram: histogram, exact: exact, count: count,
            query: query)
    }

    func validate() throws { try request.validate() }

    func run() throws { try request.run() }
}

/// `search`'s arguments as plain values, from ``SearchCommand`` or the quick path
/// (``QuickCommandLine``), and what the command does with them.
struct SearchRequest: Equatable {
    static let defaults = SearchRequest()

    var global = GlobalValues()
    var chat: String?
    var content: String?
    var limit = RequestParameters.searchLimit
    var cursor: String?
    var order = RequestParameters.searchOrder.rawValue
    var includeDeleted = false
    var histogram: String?
    var exact = false
    var count = false
    var query = ""

    /// The search's options (``RequestParameters/search(chat:content:limit:cursor:order:includeDeleted:spelling:)``).
    func options() throws -> SearchOptions {
        try usage {
            try RequestParameters.search(
                chat: chat, content: content, limit: limit, cursor: cursor, order: order,
                includeDeleted: includeDeleted,
                spelling: .commandLine)
        }
    }

    /// The histogram's period, when `--histogram` asks for one.
    func period() throws -> HistogramPeriod? {
        guard let histogram else {
            if exact { throw ValidationError("--exact applies to --histogram only") }
            return nil
        }
        if count { throw ValidationError("--count lists hits; --histogram counts them per period: choose one") }
        return try usage { try RequestParameters.histogramPeriod(histogram, spelling: .commandLine) }
    }

    func validate() throws {
        _ = try options()
        _ = try period()
    }

    func run() throws {
        try reportingErrors(json: global.json) {
            let archive = try global.open(.readOnly).blocking
            if let period = try period() {
                let histogram = try archive.histogram(query, by: period, options: try options(), exact: exact)
                print(global.json ? ArchiveJSON.histogram(histogram) : HumanFormat.histogram(histogram))
                return
            }
            let options = try options()
            let page = try archive.search(query, options: options)
            let total = count ? try archive.searchCount(query, options: options) : nil
            if global.json {
                print(total.map { ArchiveJSON.search(page, count: $0) } ?? ArchiveJSON.search(page))
                return
            }
            if let total { print(HumanFormat.count(total)) } else if page.hits.isEmpty { print("no matches") }
            let chatIds = Array(Set(page.hits.map(\.item.chatId)))
            let rows = chatIds.isEmpty ? [] : try archive.chats(ids: chatIds)
            let names = Dictionary(rows.map { ($0.chatId, $0.displayName) }, uniquingKeysWith: { a, _ in a })
            for h in page.hits { print(HumanFormat.hit(h, chatNames: names)) }
            if let next = page.nextCursor { print(Terminal.dim("more: --cursor \(next)")) }
        }
    }
}
