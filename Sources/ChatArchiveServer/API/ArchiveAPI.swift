import ChatArchive
import Foundation

/// A JSON answer of the API, before HTTP: status and body.
package struct APIResponse: Sendable {
    /// The HTTP status code.
    package var status: Int
    /// One JSON document.
    package var body: String

    /// An answer with its status and document.
    package init(status: Int, body: String) {
        self.status = status
        self.body = body
    }

    static func error(_ status: Int, _ code: String, _ message: String) -> APIResponse {
        APIResponse(status: status, body: ArchiveJSON.error(code: code, message: message))
    }
}

/// The JSON API over the archive, independent of HTTP: a request's path and query parameters
/// in, the same document as the CLI's `--json` out (both write it with ``ArchiveJSON``).
package struct ArchiveAPI: Sendable {
    /// The archive read by every request.
    package let archive: Archive

    /// Makes the API over an archive opened for reading.
    package init(archive: Archive) { self.archive = archive }

    /// Answers `GET /api/<route>` with the decoded query parameters.
    package func respond(route: String, query: [String: String]) async -> APIResponse {
        await answering {
            switch route {
            case "chats": return try await chats(query)
            case "counts":
                return APIResponse(status: 200, body: ArchiveJSON.chatCounts(try await archive.chatFilterCounts()))
            case "search": return try await search(query)
            case "histogram": return try await histogram(query)
            case "items": return try await items(query)
            case "members": return try await members(query)
            case "stats": return APIResponse(status: 200, body: ArchiveJSON.stats(try await archive.stats()))
            default: return .error(404, "notFound", "no API route /api/\(route)")
            }
        }
    }

    /// Answers `GET /api/chats/CHAT/media?kind=&limit=&cursor=`: `chat-archive items --chat CHAT
    /// --media KIND --limit N --cursor C --json`.
    package func media(chat: String, query q: [String: String]) async -> APIResponse {
        await answering {
            let parameters = try RequestParameters.media(
                kind: nonEmpty(q["kind"]), limit: try number(q, "limit", default: RequestParameters.mediaLimit),
                spelling: .api)
            let page = try await archive.media(
                in: chat, kind: parameters.kind, limit: parameters.limit, after: nonEmpty(q["cursor"]))
            return APIResponse(status: 200, body: ArchiveJSON.media(page))
        }
    }

    /// The answer of `body`, or the error document of what it threw.
    private func answering(_ body: () async throws -> APIResponse) async -> APIResponse {
        do {
            return try await body()
        } catch let e as BadRequest {
            return .error(400, "badRequest", e.message)
        } catch let e as ParameterError {
            return .error(400, "badRequest", e.message)
        } catch let e as ArchiveError where e.code == .invalidCursor {
            return .error(400, "badRequest", e.message)
        } catch let e as ArchiveError {
            return .error(404, "notFound", e.message)
        } catch {
            return .error(400, "badRequest", "\(error)")
        }
    }

    struct BadRequest: Error {
        var message: String
    }

    /// `GET /api/members?chat=ID&q=&limit=`: mention autocomplete (members who match, best
    /// first), `chat-archive members Q --chat ID`; without `chat`, member names of every chat
    /// (`from:` in a search of all chats), `chat-archive members Q`.
    func members(_ q: [String: String]) async throws -> APIResponse {
        let limit = try RequestParameters.positive(
            try number(q, "limit", default: RequestParameters.membersLimit), "limit", spelling: .api)
        guard let chat = nonEmpty(q["chat"]) else {
            return APIResponse(
                status: 200,
                body: ArchiveJSON.memberNames(try await archive.memberNames(matching: q["q"] ?? "", limit: limit)))
        }
        let people = try await archive.members(chat: chat, matching: q["q"] ?? "", limit: limit)
        return APIResponse(status: 200, body: ArchiveJSON.members(people))
    }

    /// `GET /api/chats?q=&filter=&limit=&cursor=`: `chat-archive chats [Q] --filter F --limit N
    /// --cursor C --json`; `GET /api/chats?ids=A,B`: `chat-archive chats --ids A,B --json`.
    func chats(_ q: [String: String]) async throws -> APIResponse {
        let request = try RequestParameters.chatList(
            query: nonEmpty(q["q"]), filter: nonEmpty(q["filter"]),
            limit: try number(q, "limit", default: RequestParameters.chatListLimit), cursor: nonEmpty(q["cursor"]),
            ids: q["ids"], counts: nil, spelling: .api)
        let page: ChatListPage
        switch request {
        case .ids(let ids): page = ChatListPage(rows: try await archive.chats(ids: ids), nextCursor: nil)
        case .page(let query, let filter, let limit, let cursor):
            page = try await archive.chats(matching: query, filter: filter, limit: limit, after: cursor)
        case .counts:
            return APIResponse(status: 200, body: ArchiveJSON.chatCounts(try await archive.chatFilterCounts()))
        }
        return APIResponse(status: 200, body: ArchiveJSON.chats(page))
    }

    /// `GET /api/search?q=&chat=&content=&limit=&cursor=&order=&includeDeleted=&count=`:
    /// `chat-archive search` (`count=true`: `--count`).
    func search(_ q: [String: String]) async throws -> APIResponse {
        guard let text = q["q"] else { throw BadRequest(message: "q (what to search for) is missing") }
        let options = try RequestParameters.search(
            chat: nonEmpty(q["chat"]), content: nonEmpty(q["content"]),
            limit: try number(q, "limit", default: RequestParameters.searchLimit), cursor: nonEmpty(q["cursor"]),
            order: nonEmpty(q["order"]), includeDeleted: try flag(q, "includeDeleted"), spelling: .api)
        let page = try await archive.search(text, options: options)
        guard try flag(q, "count") else { return APIResponse(status: 200, body: ArchiveJSON.search(page)) }
        let count = try await archive.searchCount(text, options: options)
        return APIResponse(status: 200, body: ArchiveJSON.search(page, count: count))
    }

    /// `GET /api/histogram?q=&period=month|week&chat=&content=&includeDeleted=&exact=`:
    /// `chat-archive search Q --histogram P --json` (`q` may be empty: a chat's activity).
    func histogram(_ q: [String: String]) async throws -> APIResponse {
        let text = q["q"] ?? ""
        guard let name = nonEmpty(q["period"]) else { throw BadRequest(message: "period (month or week) is missing") }
        let period = try RequestParameters.histogramPeriod(name, spelling: .api)
        let options = try RequestParameters.search(
            chat: nonEmpty(q["chat"]), content: nonEmpty(q["content"]), limit: RequestParameters.searchLimit,
            cursor: nil, order: nil, includeDeleted: try flag(q, "includeDeleted"), spelling: .api)
        let histogram = try await archive.histogram(text, by: period, options: options, exact: try flag(q, "exact"))
        return APIResponse(status: 200, body: ArchiveJSON.histogram(histogram))
    }

    /// `GET /api/items?chat=ID&last=N` (or `before`, `after`, `around`, `aroundSource`, `initial`, `at`):
    /// `chat-archive items`.
    func items(_ q: [String: String]) async throws -> APIResponse {
        guard let chat = nonEmpty(q["chat"]) else { throw BadRequest(message: "chat is missing") }
        let count = try number(q, "count", default: RequestParameters.windowCount)
        let parameters = try RequestParameters.items(
            last: q["last"] == nil ? nil : try number(q, "last", default: RequestParameters.windowCount),
            before: try q["before"].map { try id($0, "before") }, after: try q["after"].map { try id($0, "after") },
            around: try q["around"].map { try id($0, "around") }, aroundSource: q["aroundSource"],
            initial: q["initial"] == nil ? nil : try number(q, "initial", default: RequestParameters.windowCount),
            at: q["at"], count: count, content: nonEmpty(q["content"]), spelling: .api)
        let request: WindowRequest
        switch parameters.window {
        case .request(let r): request = r
        case .aroundSource(let source, let count):
            // A quote names the item by its source id: the window around it, or 404.
            guard let id = try await archive.itemId(chat: chat, sourceId: source) else {
                throw ArchiveError.unknownItem(sourceId: source, chat: chat)
            }
            request = .around(id, count: count)
        }
        let window = try await archive.items(
            in: chat, window: request, content: parameters.content, search: nonEmpty(q["search"]))
        return APIResponse(status: 200, body: ArchiveJSON.items(window))
    }

    // MARK: Parameters

    private func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }

    /// The number `key` names, not negative (`d` when absent or empty).
    private func number(_ q: [String: String], _ key: String, default d: Int) throws -> Int {
        guard let v = nonEmpty(q[key]) else { return d }
        guard let n = Int(v), n >= 0 else { throw BadRequest(message: "\(key) must be a number, not negative") }
        return n
    }

    private func id(_ v: String, _ key: String) throws -> Int64 {
        guard let n = Int64(v) else { throw BadRequest(message: "\(key) must be an item id") }
        return n
    }

    private func flag(_ q: [String: String], _ key: String) throws -> Bool {
        switch q[key] {
        case nil, "", "0", "false": return false
        case "1", "true": return true
        default: throw BadRequest(message: "\(key) must be true or false")
        }
    }
}

/// Decodes a URL query (`a=1&b=x%20y+z`) into its parameters (the last of repeated keys wins).
package func decodeQuery(_ query: String?) -> [String: String] {
    guard let query, !query.isEmpty else { return [:] }
    var out: [String: String] = [:]
    for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
        let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        func decode(_ s: Substring) -> String? { s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
        guard let k = decode(kv[0]), let v = kv.count > 1 ? decode(kv[1]) : "" else { continue }
        out[k] = v
    }
    return out
}
