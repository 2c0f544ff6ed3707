import ChatArchive
import Foundation
import GRDB

/// Read latency while an ingest writes (issue 6, part 2): reader threads run a mix of searches,
/// chat-list searches and windows against the archive while a generated corpus is ingested into
/// it, then the same mix runs again with no writer, for comparison. Every read must succeed.
struct ReadersDuringIngestBench {
    let corpusPath: String
    let archivePath: String
    let readers: Int
    /// Pause of each reader between two reads (an app reads when its user acts, not in a loop).
    let pauseMicroseconds: UInt32
    let seed: UInt64

    /// One kind of read, and what it runs.
    struct Query: Sendable {
        var name: String
        var run: @Sendable (Database, inout SplitMix) throws -> Int
    }

    /// Query words taken from the corpus itself: frequent, rare, and a frequent word's prefix.
    func words() throws -> (frequent: [String], rare: [String]) {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: corpusPath))
        defer { try? handle.close() }
        let head = handle.readData(ofLength: 4 << 20)
        var counts: [String: Int] = [:]
        for line in head.split(separator: 0x0A) where line.starts(with: Array(#"{"kind":"item""#.utf8)) {
            guard let v = try? JSONParser.parse(Array(line)), let text = v["content"]?["text"]?.stringValue else {
                continue
            }
            for w in text.split(whereSeparator: { !$0.isLetter }) where w.count >= 4 && w.allSatisfy({ $0.isASCII }) {
                counts[w.lowercased(), default: 0] += 1
            }
        }
        let sorted = counts.sorted { $0.value > $1.value }
        return (Array(sorted.prefix(5).map(\.key)), Array(sorted.filter { $0.value <= 2 }.prefix(50).map(\.key)))
    }

    func queries() throws -> [Query] {
        let (frequent, rare) = try words()
        guard !frequent.isEmpty, !rare.isEmpty else {
            throw ValidationErrorText("the corpus has no words to search for")
        }
        @Sendable func pick(_ ws: [String], _ rng: inout SplitMix) -> String { ws[Int(rng.next() % UInt64(ws.count))] }
        return [
            Query(name: "search, frequent word") { db, rng in
                try MessageSearch.search(pick(frequent, &rng), options: SearchOptions(limit: 50), in: db).hits.count
            },
            Query(name: "search, rare word") { db, rng in
                try MessageSearch.search(pick(rare, &rng), options: SearchOptions(limit: 50), in: db).hits.count
            },
            Query(name: "search, 3-letter prefix") { db, rng in
                try MessageSearch.search(
                    String(pick(frequent, &rng).prefix(3)), options: SearchOptions(limit: 50), in: db
                ).hits.count
            },
            Query(name: "search in one chat") { db, rng in
                guard
                    let chat = try String.fetchOne(
                        db, sql: "SELECT sourceId FROM chat WHERE itemCount > 0 ORDER BY id LIMIT 1 OFFSET ?",
                        arguments: [Int(rng.next() % 20)])
                else { return 0 }
                return try MessageSearch.search(
                    pick(frequent, &rng), options: SearchOptions(chat: chat, limit: 50), in: db
                ).hits.count
            },
            Query(name: "chat list name search") { db, rng in
                try ChatList.chats(matching: String(pick(frequent, &rng).prefix(2)), limit: 50, in: db).count
            },
            Query(name: "window around an item") { db, rng in
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql:
                            "SELECT chat.sourceId, item.id FROM item JOIN chat ON chat.id = item.chatId WHERE item.id >= (SELECT min(id) + ? FROM item) ORDER BY item.id LIMIT 1",
                        arguments: [Int64(rng.next() % (1 << 40))])
                else { return 0 }
                return try ItemWindows.window(chat: row[0], .around(row[1], count: 25), in: db).items.count
            },
        ]
    }

    /// Latencies (ms) per query kind, gathered by `readers` threads until `stop()` is true.
    func measure(_ archive: Archive, _ queries: [Query], until stop: @escaping @Sendable () -> Bool) -> (
        [[Double]], failures: [String]
    ) {
        let collected = Collected(kinds: queries.count)
        let group = DispatchGroup()
        let seed = self.seed
        let pause = pauseMicroseconds
        for r in 0..<readers {
            group.enter()
            let thread = Thread {
                var rng = SplitMix(seed: seed &+ UInt64(r))
                var mine = [[Double]](repeating: [], count: queries.count)
                var k = r
                // Measure reads of data, not of an empty archive.
                let hasItems = {
                    (try? archive.database.writer.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM item LIMIT 1")
                    }) ?? nil
                }
                while !stop(), hasItems() == nil {
                    usleep(10_000)
                }
                repeat {
                    let q = k % queries.count
                    k += 1
                    let t = DispatchTime.now().uptimeNanoseconds
                    do {
                        _ = try archive.database.writer.read { db in try queries[q].run(db, &rng) }
                        mine[q].append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
                    } catch {
                        collected.fail("\(queries[q].name): \(error)")
                    }
                    if pause > 0 { usleep(pause) }
                } while !stop()
                collected.add(mine)
                group.leave()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        group.wait()
        return collected.result
    }

    func run() throws {
        try? FileManager.default.removeItem(atPath: archivePath)
        let archive = try Archive(path: archivePath)
        let queries = try queries()
        let done = Flag()
        let outcome = Outcome()
        let t0 = Clock.now
        let corpusPath = self.corpusPath
        let writer = Thread {
            outcome.set(Result { try archive.ingestSync([corpusPath]) })
            done.set()
        }
        writer.stackSize = 8 << 20
        writer.start()
        let (during, failures) = measure(archive, queries) { done.isSet }
        let ingestSeconds = Clock.seconds(since: t0)
        let added = try outcome.get().itemsAdded
        // The same mix with no writer: 300 reads of each kind.
        let counter = Counter()
        let (idle, idleFailures) = measure(archive, queries) { counter.next() >= 300 * queries.count }

        func pct(_ xs: [Double], _ p: Double) -> Double {
            let s = xs.sorted()
            return s.isEmpty ? .nan : s[min(s.count - 1, Int(Double(s.count) * p))]
        }
        print(
            "readers during ingest: \(added) messages ingested in \(fmt(ingestSeconds)) s (\(Int(Double(added) / ingestSeconds)) msg/s) with \(readers) reader threads, \(pauseMicroseconds / 1000) ms between reads"
        )
        print("read failures: \(failures.count + idleFailures.count)")
        for f in (failures + idleFailures).prefix(10) { print("  \(f)") }
        let header = "query".padding(toLength: 26, withPad: " ", startingAt: 0)
        print("\(header)  reads  during ingest p50 / p99 ms   idle p50 / p99 ms")
        for (q, query) in queries.enumerated() {
            print(
                query.name.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + String(
                        format: "  %5d  %8.2f / %8.2f          %6.2f / %6.2f", during[q].count, pct(during[q], 0.5),
                        pct(during[q], 0.99), pct(idle[q], 0.5), pct(idle[q], 0.99)))
        }
        let all = during.flatMap { $0 }
        let allIdle = idle.flatMap { $0 }
        print(
            "all".padding(toLength: 26, withPad: " ", startingAt: 0)
                + String(
                    format: "  %5d  %8.2f / %8.2f          %6.2f / %6.2f", all.count, pct(all, 0.5), pct(all, 0.99),
                    pct(allIdle, 0.5), pct(allIdle, 0.99)))
        if !failures.isEmpty || !idleFailures.isEmpty {
            throw ValidationErrorText("\(failures.count + idleFailures.count) reads failed")
        }
    }
}

/// A flag set once by the writer thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Latencies and failures gathered by reader threads.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [[Double]]
    private var failures: [String] = []
    init(kinds: Int) { times = [[Double]](repeating: [], count: kinds) }
    func fail(_ f: String) { lock.withLock { failures.append(f) } }
    func add(_ t: [[Double]]) { lock.withLock { for k in t.indices { times[k] += t[k] } } }
    var result: ([[Double]], failures: [String]) { lock.withLock { (times, failures) } }
}

/// The writer thread's result.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<IngestReport, Error> = .failure(ValidationErrorText("the ingest did not finish"))
    func set(_ r: Result<IngestReport, Error>) { lock.withLock { value = r } }
    func get() throws -> IngestReport { try lock.withLock { value }.get() }
}

/// Counts reads across threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func next() -> Int {
        lock.withLock {
            n += 1
            return n
        }
    }
}

/// A failure with a message.
struct ValidationErrorText: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
