import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// The code of the "Getting started" article (Sources/ChatArchive/ChatArchive.docc), run on
/// Corpus/sample with its results checked. Keep the two in step.
@Suite struct GettingStartedTests {
    static let sample = ["chats-1.jsonl", "chats-2.jsonl", "updates.jsonl"].map {
        TestArchive.corpusPath + "/sample/" + $0
    }

    @Test func openIngestSearchOpenAHitAndListChats() async throws {
        try await TestTemporary.withTemporaryDirectory("getting-started") { dir in
            // Open (or create) an archive.
            let archive = try Archive(path: dir + "/chats.sqlite")

            // Ingest with progress.
            let seen = Recorder<IngestProgress>()
            let report = try await archive.ingest(Self.sample) { progress in
                seen.append(progress)
            }
            #expect(report.itemsAdded == 480)
            #expect(report.itemsUpdated == 14)
            #expect(report.errors.isEmpty)
            #expect(!report.stoppedEarly)
            let reading = seen.values.filter { !$0.isIndexing }
            #expect(Set(reading.map(\.file)) == Set(Self.sample))
            let last = try #require(reading.last)
            #expect(last.totalBytes == last.bytesRead)
            #expect(
                last.itemsRead == report.itemsAdded + report.itemsUpdated + report.itemsUnchanged + report.itemsSkipped)

            // Search, newest first, a page at a time.
            let page = try await archive.search("Heinestraße", options: SearchOptions(limit: 4))
            #expect(page.hits.count == 4)
            let cursor = try #require(page.nextCursor)
            let next = try await archive.search("Heinestraße", options: SearchOptions(limit: 4, cursor: cursor))
            #expect(next.hits.count == 2)
            #expect(next.nextCursor == nil)
            let hits = page.hits + next.hits
            #expect(Set(hits.map(\.item.id)).count == 6)
            #expect(hits.map(\.item.timestamp) == hits.map(\.item.timestamp).sorted(by: >))
            for hit in hits {
                #expect(!hit.ranges.isEmpty)
                #expect(hit.snippet.contains("["))
            }

            // Open a hit in its chat.
            let hit = hits[0]
            let window = try await archive.context(of: hit, count: 5)
            #expect(window.items.contains { $0.id == hit.item.id })
            #expect(window.items.allSatisfy { $0.chatId == hit.item.chatId })
            #expect(window.items.count <= 11)
            let order = window.items.map { ($0.timestamp, $0.id) }
            #expect(zip(order, order.dropFirst()).allSatisfy { $0 < $1 })
            #expect(window.navInfo != nil)

            // Older items, before the window.
            if let first = window.items.first {
                let older = try await archive.items(in: hit.item.chatId, window: .before(first.id, count: 5))
                #expect(older.items.allSatisfy { ($0.timestamp, $0.id) < (first.timestamp, first.id) })
            }

            // The chat list: a tab, and a name search within it.
            let groups = try await archive.chats(filter: .groups)
            #expect(!groups.isEmpty)
            #expect(groups.allSatisfy { $0.type == .group && $0.business == nil })
            let hiking = try await archive.chats(matching: "hik", filter: .groups)
            #expect(hiking.map(\.chatId) == ["g-hiking"])
            let unread = try await archive.chats(filter: ChatFilter("unread") ?? .all)
            #expect(unread.contains { $0.chatId == "d-mei" })  // muted, but marked unread
        }
    }

    @Test func cancellingAnIngestKeepsWhatWasCommitted() async throws {
        try await TestTemporary.withTemporaryDirectory("getting-started") { dir in
            var lines = [Lines.chat("big")]
            for n in 0..<3000 {
                lines.append(Lines.item("big", "\(n)", ts: "2024-01-01T00:00:00Z", text: "message \(n)"))
            }
            let export = dir + "/big.jsonl"
            try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: export))
            let archive = try Archive(path: dir + "/chats.sqlite")

            // The task is cancelled before the ingest starts, so the stop is deterministic.
            let task = Task { () async throws -> IngestReport in
                while !Task.isCancelled { await Task.yield() }
                return try await archive.ingest([export])
            }
            task.cancel()
            let partial = try await task.value
            #expect(partial.stoppedEarly)
            #expect(partial.itemsAdded < 3000)

            // What was committed stays; the next run adds the rest.
            let rest = try await archive.ingest([export])
            #expect(!rest.stoppedEarly)
            #expect(partial.itemsAdded + rest.itemsAdded == 3000)
            #expect(rest.itemsUnchanged == partial.itemsAdded)
            #expect(try await archive.stats().items == 3000)
        }
    }
}

/// Values appended from any thread.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}
