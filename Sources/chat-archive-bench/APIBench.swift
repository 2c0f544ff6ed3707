import ChatArchive
import ChatArchiveServer
import Dispatch
import Foundation
import GRDB

/// Server time of the web app's API: each request the app makes, from decoded query parameters
/// to the JSON document (query and JSON writing; not the socket and HTTP parsing).
struct APIBench {
    let archive: Archive
    let repeats: Int
    let seed: UInt64

    /// A word in about one message of a hundred, as a person might search.
    static func onePercentWord(_ db: Database) throws -> String {
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.apiVocab USING fts5vocab(main, itemFts, col)")
        let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
        return try String.fetchOne(
            db,
            sql:
                "SELECT term FROM temp.apiVocab WHERE col = 'text' AND length(term) >= 4 AND doc BETWEEN ? AND ? ORDER BY doc DESC LIMIT 1",
            arguments: [n / 200, max(1, n / 50)]) ?? "the"
    }

    func run(into report: inout BenchReport) throws {
        let api = ArchiveAPI(archive: archive)
        // As `chat-archive serve` does at start: name searches in other scripts otherwise pay
        // ICU's build of each script's transliterator in their first request.
        Archive.prepareNameSearch()
        let db = archive.database.writer
        let (big, names, word, chatIds, people): (String, [String], String, [String], [String]) = try db.read { db in
            let big = try String.fetchOne(db, sql: "SELECT sourceId FROM chat ORDER BY itemCount DESC LIMIT 1") ?? ""
            let names = try String.fetchAll(db, sql: "SELECT displayName FROM chat ORDER BY id LIMIT 200")
            let word = try Self.onePercentWord(db)
            let chatIds = try String.fetchAll(db, sql: "SELECT sourceId FROM chat ORDER BY id")
            // Members' names, each as often as it is a member: short fragments of them are
            // what `from:` completion asks as a person starts typing.
            let people = try String.fetchAll(
                db, sql: "SELECT displayName FROM member WHERE isUser = 0 AND displayName <> '' ORDER BY id LIMIT 2000")
            return (big, names, word, chatIds, people)
        }
        let ids: [Int64] = try db.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT item.id FROM item JOIN chat ON chat.id = item.chatId WHERE chat.sourceId = ?",
                arguments: [big])
        }
        guard !ids.isEmpty else { return }
        let cursor = Self.blocking { await api.respond(route: "search", query: ["q": word, "limit": "50"]) }.body
        let next = (try? JSONParser.parse(Array(cursor.utf8)))?["nextCursor"]?.stringValue ?? ""
        // The chat list as the app asks it: pages of `page` rows; a later page starts after
        // the 5,000th row (or the middle of a smaller list).
        let page = "60"
        let deep = Self.blocking {
            await api.respond(route: "chats", query: ["limit": String(max(1, min(5_000, chatIds.count / 2)))])
        }.body
        let later = (try? JSONParser.parse(Array(deep.utf8)))?["nextCursor"]?.stringValue ?? ""
        var rng = SplitMix(seed: seed)
        // The chats of a page of 50 search hits, looked up by id to name them.
        func hitChats() -> String {
            guard !chatIds.isEmpty else { return "none" }
            return (0..<50).map { _ in chatIds[Int(rng.next() % UInt64(chatIds.count))] }.map {
                $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ",", with: "\\,")
            }.joined(separator: ",")
        }
        func randomId() -> String { String(ids[Int(rng.next() % UInt64(ids.count))]) }
        func fragment() -> String {
            let name = names.isEmpty ? "abc" : names[Int(rng.next() % UInt64(names.count))]
            return String(name.prefix(3))
        }
        // One or two characters of a member's name, from its start or inside it.
        func shortFragment() -> String {
            let name = Array((people.isEmpty ? ["ab"] : people)[Int(rng.next() % UInt64(max(1, people.count)))])
            let width = 1 + Int(rng.next() % 2)
            let start = rng.next() % 2 == 0 ? 0 : Int(rng.next() % UInt64(max(1, name.count - width + 1)))
            return String(name[min(start, max(0, name.count - 1))..<min(name.count, start + width)]).lowercased()
        }
        let routes: [(String, String, () -> [String: String])] = [
            ("api chats (first page, 60 rows)", "chats", { ["limit": page] }),
            ("api chats?cursor= (60 rows after the 5,000th)", "chats", { ["limit": page, "cursor": later] }),
            ("api chats?q= (3 letters of a name, first page)", "chats", { ["q": fragment(), "limit": page] }),
            ("api chats?ids= (the chats of 50 hits)", "chats", { ["ids": hitChats()] }),
            ("api search?q= (1% word, page 1)", "search", { ["q": word, "limit": "50"] }),
            ("api search?q=&cursor= (page 2)", "search", { ["q": word, "limit": "50", "cursor": next] }),
            ("api items?initial=40 (biggest chat)", "items", { ["chat": big, "initial": "40"] }),
            ("api items?around=ID&count=40", "items", { ["chat": big, "around": randomId(), "count": "40"] }),
            ("api items?before=ID&count=40", "items", { ["chat": big, "before": randomId(), "count": "40"] }),
            ("api items?at=DATE&count=40", "items", { ["chat": big, "at": "2023-06-01", "count": "40"] }),
            ("api histogram?q=&period=month (1% word)", "histogram", { ["q": word, "period": "month"] }),
            ("api histogram?q=&period=week (1% word)", "histogram", { ["q": word, "period": "week"] }),
            ("api histogram?q=&period=month (every message)", "histogram", { ["q": "", "period": "month"] }),
            (
                "api histogram?q=&period=month&exact=true (1% word)", "histogram",
                {
                    ["q": word, "period": "month", "exact": "true"]
                }
            ),
            (
                "api histogram?chat=&period=month (biggest chat's activity)", "histogram",
                {
                    ["q": "", "chat": big, "period": "month"]
                }
            ),
            ("api stats", "stats", { [:] }),
            ("api chats/ID/media?kind=image (biggest chat, 60)", "media", { ["kind": "image", "limit": "60"] }),
            ("api chats/ID/media?kind=link (biggest chat, 60)", "media", { ["kind": "link", "limit": "60"] }),
            ("api members?q= (3 letters of a name, all chats)", "members", { ["q": fragment()] }),
            ("api members?q= (1 or 2 characters of a member's name, all chats)", "members", { ["q": shortFragment()] }),
        ]
        for (label, route, params) in routes {
            var failures = 0
            var timed: [(ms: Double, query: [String: String])] = []
            // Drawn first: every round times the same requests.
            let drawn = (0..<max(1, repeats)).map { _ in params() }
            let l = Latency.measure(repeats: repeats) { i in
                let q = drawn[i]
                let t = DispatchTime.now().uptimeNanoseconds
                // The media route is /api/chats/ID/media: its chat is in the path, not the query.
                let answer = Self.blocking {
                    route == "media" ? await api.media(chat: big, query: q) : await api.respond(route: route, query: q)
                }
                timed.append((Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6, q))
                if answer.status != 200 { failures += 1 }
                return answer.body.utf8.count
            }
            Self.printSlowest(timed, of: label)
            report.latencies.append(
                (name: label + (failures > 0 ? " (\(failures) errors)" : ""), ours: l, baseline: nil, baselineName: ""))
        }
    }

    /// One request, `route?name=value&…` (values as typed, not percent-encoded), timed
    /// `repeats` times: a route's cost for one kind of query, apart from the mix `run` draws.
    func run(_ request: String, into report: inout BenchReport) throws {
        let api = ArchiveAPI(archive: archive)
        Archive.prepareNameSearch()
        let parts = request.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        for pair in (parts.count > 1 ? parts[1] : "").split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            query[kv[0]] = kv.count > 1 ? kv[1] : ""
        }
        let (route, asked) = (parts.first ?? "", query)
        var status = 200
        let l = Latency.measure(repeats: repeats) { _ in
            let answer = Self.blocking { await api.respond(route: route, query: asked) }
            status = answer.status
            return answer.body.utf8.count
        }
        report.latencies.append(
            (name: "api " + request + " (status \(status))", ours: l, baseline: nil, baselineName: ""))
    }

    /// `BENCH_SLOWEST=N`: a route's N slowest requests, with their parameters, on standard
    /// error (to tell a slow kind of query from the machine's noise behind a p99).
    static func printSlowest(_ timed: [(ms: Double, query: [String: String])], of label: String) {
        guard let n = ProcessInfo.processInfo.environment["BENCH_SLOWEST"].flatMap(Int.init), n > 0 else { return }
        for t in timed.sorted(by: { $0.ms > $1.ms }).prefix(n) {
            let q = t.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.prefix(40))" }.joined(separator: "&")
            FileHandle.standardError.write(Data((String(format: "%8.2f ms  ", t.ms) + label + "  " + q + "\n").utf8))
        }
    }

    /// Runs async work to completion from the bench's synchronous code.
    static func blocking(_ body: @escaping @Sendable () async -> APIResponse) -> APIResponse {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value ?? APIResponse(status: 500, body: "")
    }

    private final class Box: @unchecked Sendable {
        var value: APIResponse?
    }
}
