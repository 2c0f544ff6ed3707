import ChatArchive
import Foundation
import GRDB
import Testing

/// What an app sees from `import ChatArchive` alone: every failure is an `ArchiveError` a
/// `catch` can match by code and an alert can show, or `CancellationError` for a cancelled task.
@Suite struct ArchiveErrorTests {
    static func temporaryFolder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("errors-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A group with one member, as an app's live writes make it.
    static func group(at path: String, busyTimeout: Duration? = nil) async throws -> Archive {
        let archive = try await Archive.open(path: path, busyTimeout: busyTimeout)
        try await archive.upsert(chats: [Chat(sourceId: "g1", type: .group, displayName: "Клуб 山 ชมรม")])
        try await archive.upsert(members: [Member(chatSourceId: "g1", sourceId: "m2", displayName: "Zoë")])
        return archive
    }

    /// The code of what `body` threw, when it is an `ArchiveError` (`nil` when it threw another type).
    static func code(_ body: () async throws -> Void) async -> ArchiveError.Code? {
        do {
            try await body()
            Issue.record("nothing was thrown")
            return nil
        } catch let e as ArchiveError {
            #expect(e.localizedDescription == e.message)
            #expect(!e.message.isEmpty)
            return e.code
        } catch {
            Issue.record("\(type(of: error)) leaked: \(error)")
            return nil
        }
    }

    @Test func ingestOfAMissingFileThrowsAnArchiveError() async throws {
        let archive = try Archive.inMemory()
        let missing = Self.temporaryFolder() + "/нет-такого-файла.jsonl"
        let code = await Self.code { _ = try await archive.ingest([missing]) }
        #expect(code == .unreadableExport)
    }

    @Test func ingestOfAFileThatIsNoExportThrowsAnArchiveError() async throws {
        let archive = try Archive.inMemory()
        let path = Self.temporaryFolder() + "/README.md"
        try "# سلام עולם\nNot an export 🙂\n".write(toFile: path, atomically: true, encoding: .utf8)
        let code = await Self.code { _ = try await archive.ingest([path]) }
        #expect(code == .notAnExport || code == .unreadableExport)
        // The command line's synchronous door throws the same.
        let syncCode = await Self.code { _ = try archive.ingestSync([path]) }
        #expect(syncCode == code)
    }

    @Test func readsOfAnUnknownChatThrowUnknownChat() async throws {
        let archive = try await Self.group(at: Self.temporaryFolder() + "/a.sqlite")
        #expect(await Self.code { _ = try await archive.members(chat: "nope", matching: "zo") } == .unknownChat)
        #expect(await Self.code { _ = try await archive.items(in: "nope", window: .last(10)) } == .unknownChat)
        #expect(await Self.code { _ = try await archive.itemId(chat: "nope", sourceId: "1") } == .unknownChat)
        #expect(
            await Self.code {
                for try await _ in archive.observeItems(chat: "nope", .last(10)) {}
            } == .unknownChat)
    }

    @Test func aCatchMatchesByCode() async throws {
        let archive = try await Self.group(at: Self.temporaryFolder() + "/a.sqlite")
        var caught = ""
        do {
            try await archive.markRead(chat: "nope")
        } catch ArchiveError.busy {
            caught = "busy"
        } catch ArchiveError.unknownChat {
            caught = "unknownChat"
        } catch {
            caught = "\(error)"
        }
        #expect(caught == "unknownChat")
        switch ArchiveError(.diskFull, "full") as any Error {
        case ArchiveError.corrupt: Issue.record("matched another code")
        case ArchiveError.diskFull: break
        default: Issue.record("no code matched")
        }
    }

    @Test func aReadOnlyArchiveRefusesWritesAndStillCounts() async throws {
        let path = Self.temporaryFolder() + "/a.sqlite"
        _ = try await Self.group(at: path)
        let reader = try await Archive.open(path: path, mode: .readOnly)
        #expect(try await reader.unreadCounters() == (try await reader.unreadCounters()))
        #expect(await Self.code { try await reader.setFavorite(chat: "g1", true) } == .readOnly)
    }

    @Test func aWriteBehindAnotherProgramsLockThrowsBusyAfterTheChosenTimeout() async throws {
        let path = Self.temporaryFolder() + "/a.sqlite"
        let archive = try await Self.group(at: path, busyTimeout: .milliseconds(100))
        // Another program holds the write lock.
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path, configuration: config)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let code = await Self.code { try await archive.setAlias(chat: "g1", "ハイキング") }
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try other.close()
        #expect(code == .busy)
        try await archive.setAlias(chat: "g1", "ハイキング")
        #expect(try await archive.chats(matching: "ハイキング").map(\.chatId) == ["g1"])
    }

    @Test func aMissingArchiveIsNotFound() async throws {
        let path = Self.temporaryFolder() + "/missing.sqlite"
        #expect(await Self.code { _ = try await Archive.open(path: path, mode: .readWrite) } == .notFound)
    }

    @Test func aCancelledTaskThrowsCancellationError() async throws {
        let archive = try await Self.group(at: Self.temporaryFolder() + "/a.sqlite")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await archive.check()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        let opening = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Archive.open(path: Self.temporaryFolder() + "/b.sqlite")
        }
        await #expect(throws: CancellationError.self) { try await opening.value }
    }
}
