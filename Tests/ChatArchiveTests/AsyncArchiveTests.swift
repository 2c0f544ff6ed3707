import ChatArchive
import Foundation
import Testing

/// The calls that block run off the cooperative pool and stop when their task is cancelled,
/// at a point where nothing is lost.
@Suite struct AsyncArchiveTests {
    static let messages = 20_000
    static let scripts = [
        "山の上で会おう", "พบกันบนภูเขา", "نلتقي على الجبل", "ניפגש על ההר", "встретимся на горе", "🏔️ e\u{301}te",
    ]

    /// An export of one group with `messages` items in several scripts.
    static func export(messages: Int = messages) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("async-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var lines = [
            #"{"kind":"chat","chatId":"g1","type":"group","displayName":"Hiking"}"#,
            #"{"kind":"member","chatId":"g1","memberId":"m2","displayName":"Zoë"}"#,
        ]
        for i in 0..<messages {
            let text = scripts[i % scripts.count] + " \(i)"
            let second = String(format: "%02d", i % 60)
            let minute = String(format: "%02d", (i / 60) % 60)
            let hour = String(format: "%02d", (i / 3600) % 24)
            let day = String(format: "%02d", 1 + i / 86_400)
            lines.append(
                #"{"kind":"item","chatId":"g1","id":"\#(i)","ts":"2024-05-\#(day)T\#(hour):\#(minute):\#(second)Z","dir":"rcv","memberId":"m2","content":{"type":"text","text":"\#(text)"}}"#
            )
        }
        let path = folder + "/export.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aCancelledIngestKeepsWholeBatchesAndASecondOneCompletesIt() async throws {
        let export = try Self.export()
        let path = (export as NSString).deletingLastPathComponent + "/archive.sqlite"
        let archive = try await Archive.open(path: path)
        // Cancelled from its first progress report, while it reads (a watcher polling from
        // another task lost the race to a fast ingest on a loaded machine).
        let ingest = CancelOnProgress()
        let started = Task {
            try await archive.ingest([export], options: IngestOptions(batchSize: 1_000)) { _ in ingest.cancel() }
        }
        ingest.task = started
        let first = try await started.value
        #expect(first.interrupted)
        #expect(first.itemsAdded < Self.messages)
        // The archive opens again and answers.
        let reopened = try await Archive.open(path: path, mode: .readWrite)
        let before = try await reopened.stats().items
        #expect(before == first.itemsAdded)
        #expect(try await reopened.check() == [])
        let second = try await reopened.ingest([export])
        #expect(!second.interrupted)
        #expect(try await reopened.stats().items == Self.messages)
        let hits = try await reopened.search("ภูเขา", options: SearchOptions(chat: "g1", limit: 5))
        #expect(hits.hits.count == 5)
    }

    @Test func anOpenIsAwaitedOffThePoolAndRepairAcceptsLabelledProgress() async throws {
        let export = try Self.export(messages: 300)
        let path = (export as NSString).deletingLastPathComponent + "/archive.sqlite"
        let archive = try await Archive.open(path: path, busyTimeout: .seconds(2))
        _ = try await archive.ingest([export])
        let seen = ProgressLog()
        #expect(try await archive.repair { seen.add($0) } == [])
        #expect(seen.all.allSatisfy { $0.completed <= $0.total })
    }
}

/// Progress values reported from another thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [MaintenanceProgress] = []
    func add(_ value: MaintenanceProgress) { lock.withLock { values.append(value) } }
    var all: [MaintenanceProgress] { lock.withLock { values } }
}

/// Cancels a task the first time a progress report arrives, from whatever thread reports it.
private final class CancelOnProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var stored: Task<IngestReport, any Error>?

    /// The task to cancel; set after it starts (a report that came first cancels it then).
    var task: Task<IngestReport, any Error>? {
        get { lock.withLock { stored } }
        set {
            let cancelNow = lock.withLock {
                stored = newValue
                return pending
            }
            if cancelNow { newValue?.cancel() }
        }
    }

    func cancel() {
        let task = lock.withLock {
            pending = true
            return stored
        }
        task?.cancel()
    }
}
