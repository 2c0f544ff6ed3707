import ChatModel
import ChatSearch

/// How a door names a request's parameters in its error messages: `--include-deleted` on the
/// command line, `includeDeleted` in the web API.
package enum ParameterSpelling: Sendable {
    /// `chat-archive search --include-deleted`: options in kebab case after `--`; the query is
    /// the command's argument ("a query").
    case commandLine
    /// `/api/search?includeDeleted=`: the query parameters' own names; the query is `q`.
    case api

    /// The name of a media page's kind: `--media` on the command line, `kind` in the web API.
    package var mediaKind: String { self == .api ? "kind" : "media" }

    /// The parameter named `name` (in camel case, as ``RequestParameters`` names it) as this
    /// door spells it.
    package func callName(_ name: String) -> String {
        switch self {
        case .api: return name == "query" ? "q" : name
        case .commandLine:
            if name == "query" { return "a query" }
            var out = "--"
            for c in name {
                if c.isUppercase {
                    out += "-" + c.lowercased()
                } else {
                    out.append(c)
                }
            }
            return out
        }
    }
}

/// A parameter given wrong, in one sentence that names it as the user wrote it.
package struct ParameterError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    /// The message.
    package var description: String { message }
}

/// The read requests' parameters (`search`, `chats` and `items` on the command line, `/api/search`,
/// `/api/chats` and `/api/items` in the web app) turned into the façade's requests: the one
/// place that says what each parameter means, what it defaults to and how a wrong one is
/// reported. Each door reads its own syntax (ArgumentParser or the quick table, a URL query)
/// into plain values and calls these; a new option is a parameter here and a field in
/// `SearchOptions` (or the window or chat-list request), then a line in each door's syntax.
package enum RequestParameters {
    /// The default hits per page of a search.
    package static let searchLimit = 50
    /// The default order of a search: newest first.
    package static let searchOrder = SearchOrder.newest
    /// The default rows per page of the chat list.
    package static let chatListLimit = 100
    /// The default items before and after a window's anchor.
    package static let windowCount = 25

    // MARK: Search

    /// A search's options: `content` by name, `order` `newest` (the default, also for `nil`) or
    /// `relevance`, a positive `limit`.
    package static func search(
        chat: String?, content: String?, limit: Int, cursor: String?, order: String?, includeDeleted: Bool,
        spelling: ParameterSpelling
    ) throws -> SearchOptions {
        let content = try self.content(content, spelling: spelling)
        let order = try self.order(order, spelling: spelling)
        let limit = try positive(limit, "limit", spelling: spelling)
        return SearchOptions(
            chat: chat, content: content, limit: limit, cursor: cursor, order: order, includeDeleted: includeDeleted)
    }

    /// The period named `name` of a histogram (`--histogram` on the command line, `period` in
    /// the web API): `month` or `week`.
    package static func histogramPeriod(_ name: String, spelling: ParameterSpelling) throws -> HistogramPeriod {
        guard let period = HistogramPeriod(rawValue: name) else {
            throw ParameterError(message: "\(spelling.callName(histogramPeriodName(spelling))) must be month or week")
        }
        return period
    }

    /// What each door calls a histogram's period.
    private static func histogramPeriodName(_ spelling: ParameterSpelling) -> String {
        switch spelling {
        case .commandLine: return "histogram"
        case .api: return "period"
        }
    }

    /// The order named `name`: ``searchOrder`` (newest first) when `nil`.
    package static func order(_ name: String?, spelling: ParameterSpelling) throws -> SearchOrder {
        guard let name else { return searchOrder }
        guard let order = SearchOrder(rawValue: name) else {
            throw ParameterError(message: "\(spelling.callName("order")) must be newest or relevance")
        }
        return order
    }

    /// The content filter named `name` (`nil`: none).
    package static func content(_ name: String?, spelling: ParameterSpelling) throws -> ContentFilter? {
        guard let name else { return nil }
        guard let content = ContentFilter(rawValue: name) else {
            throw ParameterError(message: "unknown \(spelling.callName("content")) \(name)")
        }
        return content
    }

    /// `n`, which must be above zero.
    package static func positive(_ n: Int, _ name: String, spelling: ParameterSpelling) throws -> Int {
        guard n > 0 else { throw ParameterError(message: "\(spelling.callName(name)) must be positive") }
        return n
    }

    // MARK: Windows

    /// Which window of a chat: the item named by its source id (a quote's), resolved with the
    /// archive open, or a request ready to run.
    package enum Window: Sendable, Hashable {
        /// A request ready to run.
        case request(WindowRequest)
        /// `count` items before and after the item with this source id.
        case aroundSource(String, count: Int)
    }

    /// The window one of `last`, `before`, `after`, `around`, `aroundSource`, `initial` or `at`
    /// (a date, 2024-05-01, or an RFC 3339 time) asks for, with `count` items before and after
    /// an anchor; `last(count)` when none is given. More than one is an error.
    package static func window(
        last: Int?, before: Int64?, after: Int64?, around: Int64?, aroundSource: String?, initial: Int?, at: String?,
        count: Int, spelling: ParameterSpelling
    ) throws -> Window {
        var modes: [Window] = []
        if let last { modes.append(.request(.last(last))) }
        if let before { modes.append(.request(.before(before, count: count))) }
        if let after { modes.append(.request(.after(after, count: count))) }
        if let around { modes.append(.request(.around(around, count: count))) }
        if let aroundSource { modes.append(.aroundSource(aroundSource, count: count)) }
        if let initial { modes.append(.request(.initial(initial))) }
        if let at {
            guard let time = Timestamp.parse(at) else {
                throw ParameterError(
                    message: "\(spelling.callName("at")) must be a date (2024-05-01) or an RFC 3339 time")
            }
            modes.append(.request(.at(time, count: count)))
        }
        guard modes.count <= 1 else {
            let names = ["last", "before", "after", "around", "aroundSource", "initial", "at"]
            throw ParameterError(message: "give one of \(names.map(spelling.callName).joined(separator: ", "))")
        }
        return modes.first ?? .request(.last(count))
    }

    /// A window's parameters checked whole: the window, the content filter, counts that are
    /// not negative.
    package static func items(
        last: Int?, before: Int64?, after: Int64?, around: Int64?, aroundSource: String?, initial: Int?, at: String?,
        count: Int, content: String?, spelling: ParameterSpelling
    ) throws -> (window: Window, content: ContentFilter?) {
        let window = try self.window(
            last: last, before: before, after: after, around: around, aroundSource: aroundSource, initial: initial,
            at: at, count: count, spelling: spelling)
        let content = try self.content(content, spelling: spelling)
        guard count >= 0, (last ?? 0) >= 0, (initial ?? 0) >= 0 else {
            throw ParameterError(message: "counts must not be negative")
        }
        return (window, content)
    }

    // MARK: Members

    /// The default rows of member autocomplete.
    package static let membersLimit = 10

    // MARK: Shared media

    /// The default items per page of a chat's shared media.
    package static let mediaLimit = 50

    /// A media page's kind (by name: `image`, `video`, `file`, `link` or `voice`) and a
    /// positive `limit`.
    package static func media(kind name: String?, limit: Int, spelling: ParameterSpelling) throws -> (
        kind: MediaKind, limit: Int
    ) {
        let names = MediaKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let name else {
            throw ParameterError(message: "\(spelling.callName(spelling.mediaKind)) is missing (\(names))")
        }
        guard let kind = MediaKind(rawValue: name) else {
            throw ParameterError(
                message: "unknown \(spelling.callName(spelling.mediaKind)) \(name) (expected \(names))")
        }
        return (kind, try positive(limit, "limit", spelling: spelling))
    }

    // MARK: Chat list

    /// What a chat-list request asks for.
    package enum ChatListRequest: Sendable, Hashable {
        /// A page of the list: name search and/or a filter tab, after the cursor of the previous page.
        case page(query: String?, filter: ChatFilter, limit: Int, cursor: String?)
        /// The rows of these chats, in this order.
        case ids([String])
        /// How many chats each filter tab lists.
        case counts
    }

    /// The chat-list request of `filter` (by name; `all` when `nil`), `limit`, `cursor`, `ids`
    /// (a list: see `ChatList/lookupIds(_:)`), a name `query` and `counts`; `counts` is `nil`
    /// where a door has no such parameter.
    package static func chatList(
        query: String?, filter: String?, limit: Int, cursor: String?, ids: String?, counts: Bool?,
        spelling: ParameterSpelling
    ) throws -> ChatListRequest {
        let filterName = filter ?? "all"
        guard let chatFilter = ChatFilter(filterName) else {
            throw ParameterError(message: "unknown \(spelling.callName("filter")) \(filterName)")
        }
        let limit = try positive(limit, "limit", spelling: spelling)
        if let cursor, ChatListCursor(cursor) == nil {
            throw ParameterError(message: "\(spelling.callName("cursor")) must be the nextCursor of a previous page")
        }
        if let ids {
            guard query == nil, cursor == nil, filterName == "all", counts != true else {
                var others = ["query", "filter", "cursor"]
                if counts != nil { others.append("counts") }
                let names = others.map(spelling.callName)
                throw ParameterError(
                    message:
                        "\(spelling.callName("ids")) cannot be combined with \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")"
                )
            }
            let list = ChatList.lookupIds(ids)
            guard list.count <= ChatList.maxLookupIds else {
                throw ParameterError(message: "\(spelling.callName("ids")) takes at most \(ChatList.maxLookupIds) ids")
            }
            return .ids(list)
        }
        if counts == true { return .counts }
        return .page(query: query, filter: chatFilter, limit: limit, cursor: cursor)
    }
}
