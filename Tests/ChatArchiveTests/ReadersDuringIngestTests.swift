import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// Readers during writes (issue 6, part 2): searches, chat lists and windows run while an
/// ingest writes, never fail, and never see part of a batch.
///
/// A batch is one transaction holding its items, their full-text rows, their chats' counters
/// and their vocabulary, so every snapshot a reader takes must satisfy, for a source of new
/// items only: the item count is a whole number of batches; the chats' `itemCount`s add up to
/// it; the full-text index holds exactly that many rows; a search for a word every item has
/// finds them. (Latency under load is measured by `chat-archive-bench --readers-during-ingest`,
/// never here.)
@Suite struct ReadersDuringIngestTests {
    static let batch = 500
    static let batches = 16
    static let chats = 8

    static func corpus() throws -> String {
        var lines: [String] = []
        for c in 0..<chats { lines.append(Lines.chat("c\(c)", name: "Chat \(c)")) }
        for k in 0..<(batch * batches) {
            let minute = k / 60
            let ts = String(
                format: "2024-03-%02dT%02d:%02d:%02dZ", 1 + minute / 1440, minute / 60 % 24, minute % 60, k % 60)
            lines.append(
                Lines.item(
                    "c\(k % chats)", "m\(k)", ts: ts, text: "everyone says hello number \(k) *bold* @u\(k % 7)",
                    unread: k % 3 == 0))
        }
        return try TestArchive.writeFile(lines.joined(separator: "\n"), name: "readers.jsonl")
    }

    struct Snapshot: Sendable {
        var items: Int
        var counted: Int
        var indexed: Int
        var found: Int
        var listed: Int
    }

    /// Runs `body` on a thread of its own (not the shared task pool, which other tests may
    /// keep busy), as an app's UI and its background ingest would.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> @Sendable () throws -> T {
        let result = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.set(Result { try body() })
            done.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
        return {
            done.wait()
            return try result.get()
        }
    }

    @Test func readersNeverFailAndNeverSeeHalfABatch() async throws {
        let total = Self.batch * Self.batches
        let archive = try Archive(path: TestArchive.temporaryPath())
        let file = try Self.corpus()
        let done = CompletionFlag()
        let ingest = Self.onThread {
            defer { done.set() }
            return try archive.ingestSync([file], options: IngestOptions(batchSize: Self.batch))
        }
        let readers = (0..<3).map { reader in
            Self.onThread { () throws -> [Snapshot] in
                var seen: [Snapshot] = []
                repeat {
                    // One snapshot: every figure from the same read transaction, through the
                    // same query code the public API runs.
                    let s = try archive.database.writer.read { db in
                        let items = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? -1
                        switch reader {
                        case 0:
                            _ = try MessageSearch.search(
                                "hello", options: SearchOptions(limit: 20, order: .relevance), in: db)
                        case 1: _ = try ChatList.chats(matching: "chat", limit: 100, in: db)
                        default:
                            if items > 0 {
                                _ = try ItemWindows.window(chat: "c\(items % Self.chats)", .last(20), in: db)
                            }
                        }
                        return Snapshot(
                            items: items,
                            counted: try Int.fetchOne(db, sql: "SELECT coalesce(sum(itemCount), 0) FROM chat") ?? -1,
                            indexed: try Int.fetchOne(
                                db, sql: "SELECT count(*) FROM itemFts WHERE itemFts MATCH '{tags}: all'") ?? -1,
                            found: try MessageSearch.search("everyone", options: SearchOptions(limit: 50), in: db).hits
                                .count,
                            listed: try ChatList.chats(matching: nil, limit: 100, in: db).count)
                    }
                    seen.append(s)
                } while !done.isSet
                return seen
            }
        }
        let report = try ingest()
        var snapshots: [Snapshot] = []
        for reader in readers { snapshots += try reader() }
        #expect(report.itemsAdded == total)
        #expect(snapshots.contains { $0.items > 0 && $0.items < total }, "no reader ran during the ingest")
        for s in snapshots {
            #expect(s.items % Self.batch == 0, "a reader saw \(s.items) items: part of a batch")
            #expect(s.counted == s.items, "chat counters \(s.counted) for \(s.items) items")
            #expect(s.indexed == s.items, "\(s.indexed) index rows for \(s.items) items")
            #expect(s.found == min(50, s.items))
        }
        // And the public async API answers as usual once it is done.
        #expect(try await archive.search("everyone", options: SearchOptions(limit: 10)).hits.count == 10)
        #expect(try await archive.check() == [])
    }
}

/// A value handed from a thread to the test.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<T, Error>?
    func set(_ r: Result<T, Error>) { lock.withLock { value = r } }
    func get() throws -> T {
        guard let v = lock.withLock({ value }) else { throw TestFailure("no result") }
        return try v.get()
    }
}

/// A flag set once, read from other tasks.
final class CompletionFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
