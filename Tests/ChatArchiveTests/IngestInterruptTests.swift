import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C and SIGTERM during `chat-archive ingest`, sent to the built binary: the ingest stops at
/// a batch boundary, says how many items it committed, exits 128 + the signal, and the same
/// command resumes it. A second Ctrl-C stops at once and still leaves every committed batch.
@Suite(.serialized) struct IngestInterruptTests {
    let cli = ChildProcess.chatArchiveBinary
    static let messages = 30_000

    /// A generated JSON Lines corpus, shared by the tests.
    static let corpus: Result<String, TestFailure> = {
        let path = TestTemporary.folder("interrupt") + "/corpus.jsonl"
        guard
            let gen = try? ChildProcess.run(
                ChildProcess.benchBinary, ["--generate", path, "--messages", String(messages), "--seed", "7"]),
            gen.status == 0
        else { return .failure(TestFailure("could not generate the corpus")) }
        return .success(path)
    }()

    static func itemRows(_ archive: String) -> Int? {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(5)
        guard let q = try? DatabaseQueue(path: archive, configuration: config) else { return nil }
        defer { try? q.close() }
        return try? q.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") }
    }

    /// Starts an ingest and waits until its first batch is committed (nil when it finished first).
    func startAndWaitForABatch(_ archive: String, corpus: String) throws -> ChildProcess? {
        let child = try ChildProcess(cli, ["ingest", "--archive", archive, corpus])
        while child.isRunning {
            if FileManager.default.fileExists(atPath: archive), (Self.itemRows(archive) ?? 0) > 0 { return child }
            usleep(5_000)
        }
        _ = child.wait()
        return nil
    }

    static func committed(in out: String) -> Int? {
        guard let line = out.split(separator: "\n").first(where: { $0.hasPrefix("interrupted: ") }) else { return nil }
        let words = line.split(separator: " ")
        guard line.hasSuffix("items committed; run the same command to resume"), words.count > 1 else { return nil }
        return Int(words[1])
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalStopsAtABatchBoundaryAndTheSameCommandResumes(signal: Int32, status: Int32) throws {
        let corpus = try Self.corpus.get()
        let archive = TestTemporary.folder("interrupt") + "/archive.sqlite"
        guard let child = try startAndWaitForABatch(archive, corpus: corpus) else {
            Issue.record("the ingest finished before it could be interrupted")
            return
        }
        child.kill(signal)
        let result = child.wait()
        #expect(result.status == status, "\(result.err)")
        let committed = try #require(Self.committed(in: result.out), "\(result.out)")
        #expect(committed > 0 && committed < Self.messages)
        // What it says it committed is what the archive holds, and the archive is healthy.
        #expect(Self.itemRows(archive) == committed)
        let check = try ChildProcess.run(cli, ["check", "--archive", archive])
        #expect(check.status == 0, "\(check.out)\(check.err)")
        // The same command resumes: every item once.
        let again = try ChildProcess.run(cli, ["ingest", "--archive", archive, "--json", corpus])
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.contains("\"interrupted\":false"))
        #expect(Self.itemRows(archive) == Self.messages)
    }

    @Test func aSecondCtrlCStopsAtOnceAndKeepsTheCommittedBatches() throws {
        let corpus = try Self.corpus.get()
        let archive = TestTemporary.folder("interrupt") + "/archive.sqlite"
        guard let child = try startAndWaitForABatch(archive, corpus: corpus) else {
            Issue.record("the ingest finished before it could be interrupted")
            return
        }
        let before = Self.itemRows(archive) ?? 0
        child.kill(SIGINT)
        usleep(20_000)
        child.kill(SIGINT)
        let result = child.wait()
        #expect(result.status == 130, "\(result.err)")
        #expect(result.err.contains("interrupted again"))
        #expect((Self.itemRows(archive) ?? 0) >= before)
        let again = try ChildProcess.run(cli, ["ingest", "--archive", archive, corpus])
        #expect(again.status == 0, "\(again.err)")
        #expect(Self.itemRows(archive) == Self.messages)
        let check = try ChildProcess.run(cli, ["check", "--archive", archive])
        #expect(check.status == 0, "\(check.out)\(check.err)")
    }
}
