import ChatArchiveCommandLine

/// The read commands (`search`, `chats`, `items`, `stats`) parsed without ArgumentParser.
///
/// ArgumentParser learns a command's options by reflecting on its properties, and each type it
/// meets that way costs the Swift runtime a scan of every protocol conformance record in the
/// binary, a large share of a whole `chat-archive search` process (see ServingPerformance.md in
/// ChatArchive.docc). The read
/// commands are what scripts call over and over, so their plain forms are parsed here, from a
/// table of each command's options, into the same request values the commands build. Anything
/// this parser does not take for certain (`--help`, an unknown or repeated option, a value that
/// looks like an option or is not a number where one is expected, `--`, a short option, a
/// request its command would reject) goes to ArgumentParser, which parses it or reports it as
/// always. A test checks both parsers give equal requests.
enum QuickCommandLine {
    /// A command line the quick path understood.
    enum Command: Equatable {
        case search(SearchRequest)
        case chats(ChatsRequest)
        case items(ItemsRequest)
        case stats(StatsRequest)

        func validate() throws {
            switch self {
            case .search(let r): try r.validate()
            case .chats(let r): try r.validate()
            case .items(let r): try r.validate()
            case .stats(let r): try r.validate()
            }
        }

        func run() throws {
            switch self {
            case .search(let r): try r.run()
            case .chats(let r): try r.run()
            case .items(let r): try r.run()
            case .stats(let r): try r.run()
            }
        }
    }

    /// The command `arguments` (without the program's name) ask for, or nil when ArgumentParser
    /// must parse them.
    static func parse(_ arguments: [String]) -> Command? {
        guard let name = arguments.first else { return nil }
        let rest = arguments.dropFirst()
        let command: Command?
        switch name {
        case "search":
            guard
                let a = Arguments(
                    rest, options: ["chat", "content", "limit", "cursor", "order", "histogram"], numbers: ["limit"],
                    flags: ["include-deleted", "exact", "count"], positionals: 1...1)
            else { return nil }
            let d = SearchRequest.defaults
            command = .search(
                SearchRequest(
                    global: a.global, chat: a["chat"], content: a["content"], limit: a.int("limit") ?? d.limit,
                    cursor: a["cursor"], order: a["order"] ?? d.order, includeDeleted: a.has("include-deleted"),
                    histogram: a["histogram"], exact: a.has("exact"), count: a.has("count"),
                    query: a.positionals[0]))
        case "chats":
            guard
                let a = Arguments(
                    rest, options: ["filter", "limit", "cursor", "ids"], numbers: ["limit"], flags: ["counts"],
                    positionals: 0...1)
            else { return nil }
            let d = ChatsRequest.defaults
            command = .chats(
                ChatsRequest(
                    global: a.global, filter: a["filter"] ?? d.filter, limit: a.int("limit") ?? d.limit,
                    cursor: a["cursor"], ids: a["ids"], query: a.positionals.first, counts: a.has("counts")))
        case "items":
            let numbers = ["last", "before", "after", "around", "initial", "count"]
            guard
                let a = Arguments(
                    rest,
                    options: numbers + [
                        "chat", "around-source", "at", "content", "search", "media", "limit", "cursor",
                    ],
                    numbers: numbers + ["limit"],
                    flags: [], positionals: 0...0),
                let chat = a["chat"]
            else { return nil }
            command = .items(
                ItemsRequest(
                    global: a.global, chat: chat, last: a.int("last"), before: a.int("before").map(Int64.init),
                    after: a.int("after").map(Int64.init), around: a.int("around").map(Int64.init),
                    aroundSource: a["around-source"], initial: a.int("initial"), at: a["at"],
                    count: a.int("count") ?? ItemsRequest.defaults.count, content: a["content"], search: a["search"],
                    media: a["media"], limit: a.int("limit"), cursor: a["cursor"]))
        case "stats":
            guard let a = Arguments(rest, options: [], numbers: [], flags: [], positionals: 0...0) else { return nil }
            command = .stats(StatsRequest(global: a.global))
        default:
            return nil
        }
        // A request its command rejects goes to ArgumentParser, which says why as always.
        guard let command, (try? command.validate()) != nil else { return nil }
        return command
    }

    /// One command line split by a command's table: `--name value` and `--name=value` for the
    /// options, `--name` for the flags, the rest positional; nil for anything else.
    struct Arguments {
        private(set) var values: [String: String] = [:]
        private(set) var flags: [String] = []
        private(set) var positionals: [String] = []

        init?(
            _ arguments: ArraySlice<String>, options: [String], numbers: [String], flags flagNames: [String],
            positionals count: ClosedRange<Int>
        ) {
            let options = options + ["archive"]
            let flagNames = flagNames + ["json"]
            var i = arguments.startIndex
            while i < arguments.endIndex {
                let token = arguments[i]
                i += 1
                guard token.hasPrefix("-") else {
                    positionals.append(token)
                    continue
                }
                // Long options only; `--` and short options (`-h`) are ArgumentParser's.
                guard token.hasPrefix("--"), token.count > 2 else { return nil }
                let body = token.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    let name = String(body[..<eq])
                    let value = String(body[body.index(after: eq)...])
                    guard options.contains(name), values[name] == nil, !value.isEmpty else { return nil }
                    values[name] = value
                } else if flagNames.contains(String(body)) {
                    guard !flags.contains(String(body)) else { return nil }
                    flags.append(String(body))
                } else {
                    let name = String(body)
                    guard options.contains(name), values[name] == nil, i < arguments.endIndex,
                        !arguments[i].hasPrefix("-"), !arguments[i].isEmpty
                    else { return nil }
                    values[name] = arguments[i]
                    i += 1
                }
            }
            guard count.contains(positionals.count) else { return nil }
            for name in numbers {
                if let v = values[name], Int(v) == nil { return nil }
            }
        }

        subscript(name: String) -> String? { values[name] }

        /// A number option's value (checked to be one when parsed).
        func int(_ name: String) -> Int? { values[name].flatMap { Int($0) } }

        func has(_ flag: String) -> Bool { flags.contains(flag) }

        var global: GlobalValues { GlobalValues(archive: values["archive"], json: has("json")) }
    }
}
