import ChatArchive
import ChatIndex
import ChatTestSupport
import Testing

/// The first write after opening a big archive without page checksums waits for its
/// background quick check by suspending, however many tasks wait at once.
@Suite struct FirstWriteWaitTests {
    @Test func firstWritesAwaitTheBackgroundCheckTogether() async throws {
        let path = TestArchive.temporaryPath()
        _ = try Archive(path: path, pageChecksums: false).ingestSync([
            try TestArchive.writeFile(
                [Lines.chat("g1"), Lines.item("g1", "1", ts: "2024-05-01T10:00:00Z", text: "Привет 世界 สวัสดี")]
                    .joined(separator: "\n"))
        ])
        // Every file is "big" to this open: its check runs in the background.
        let db = try ArchiveDatabase(path: path, mode: .readWrite, fullCheckLimit: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { try await db.verifyBeforeWritingSuspending() } }
            try await group.waitForAll()
        }
        #expect(!db.isCheckingBeforeWriting)
        try await db.liveWrite { db in try db.execute(sql: "UPDATE chat SET favorite = 1 WHERE sourceId = 'g1'") }
    }
}
