import ChatArchive
import ChatTestSupport
import ChatText
import Foundation
import GRDB
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Opening modes (`.create`, `.readWrite`, `.readOnly`, in memory) and typed errors.
@Suite struct ArchiveOpenModeTests {
    static let sample = TestArchive.corpusPath + "/sample/chats-1.jsonl"

    /// An archive with the sample ingested, closed again; returns its path.
    static func sampleArchive() throws -> String {
        let path = TestArchive.temporaryPath()
        _ = try Archive(path: path).ingestSync([sample])
        return path
    }

    static func code(_ body: () throws -> Void) -> ArchiveError.Code? {
        do {
            try body()
            return nil
        } catch let e as ArchiveError {
            return e.code
        } catch {
            return .io
        }
    }

    @Test func readOnlyAndReadWriteNeverCreateAnything() throws {
        let dir = TestTemporary.folder("modes")
        for mode in [Archive.OpenMode.readOnly, .readWrite] {
            let path = dir + "/missing/folder/archive.sqlite"
            #expect(Self.code { _ = try Archive(path: path, mode: mode) } == .notFound)
            #expect(Self.code { _ = try Archive(path: dir + "/typo.sqlite", mode: mode) } == .notFound)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        do {
            _ = try Archive(path: dir + "/typo.sqlite", mode: .readOnly)
        } catch let e as ArchiveError {
            #expect(e.message == "no archive at \(dir)/typo.sqlite")
            #expect(!e.message.contains("chat-archive "), "library messages name no command")
        }
    }

    @Test func aReadOnlyArchiveAnswersAndRefusesWrites() async throws {
        let path = try Self.sampleArchive()
        let reader = try Archive(path: path, mode: .readOnly)
        let page = try await reader.search("the")
        #expect(!page.hits.isEmpty)
        #expect(try await reader.check().isEmpty)
        await #expect { _ = try await reader.ingest([Self.sample]) } throws: {
            ($0 as? ArchiveError)?.code == .readOnly
        }
        let writer = try Archive(path: path, mode: .readWrite)
        #expect(try await writer.ingest([TestArchive.corpusPath + "/sample/chats-2.jsonl"]).itemsAdded > 0)
        // The reader sees the other connection's commit.
        #expect(try await reader.stats().items == writer.stats().items)
    }

    @Test(arguments: [ReadOnlyAccess.walReader, .immutable])
    func bothReadOnlyAccessesReadTheSameAndImmutableLeavesNothingBehind(access: ReadOnlyAccess) async throws {
        let path = try Self.sampleArchive()
        let folder = (path as NSString).deletingLastPathComponent
        let expected = try await Archive(path: path, mode: .readOnly).search("the").hits.map(\.item.id)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let database = try ArchiveDatabase(readOnlyAt: path, access: access)
        #expect(database.readOnlyAccess == access)
        let ids = try await database.writer.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM itemFts WHERE itemFts MATCH 'the' ORDER BY rowid DESC LIMIT 50")
        }
        #expect(ids == Array(expected.prefix(50)))
        if access == .immutable {
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["archive.sqlite"])
        }
    }

    @Test(arguments: [
        (false, true, true, ReadOnlyAccess.walReader), (false, false, true, .immutable),
        (false, true, false, .immutable),
        (false, false, false, .immutable), (true, false, false, .walReader), (true, true, true, .walReader),
    ])
    func readOnlyAccessIsImmutableOnlyWhereNobodyCanWrite(wal: Bool, file: Bool, folder: Bool, expected: ReadOnlyAccess)
    {
        #expect(ReadOnlyAccess.choose(walExists: wal, fileWritable: file, folderWritable: folder) == expected)
    }

    @Test func aReadOnlyFolderIsReadWithoutLeavingFiles() async throws {
        // Permissions do not bind root: then the folder is only read-only for other users,
        // and SQLite's WAL reader may create its files; ManyProcessesTests covers root with a
        // read-only mount.
        guard geteuid() != 0 else { return }
        let path = try Self.sampleArchive()
        let folder = (path as NSString).deletingLastPathComponent
        chmod(path, 0o400)
        chmod(folder, 0o555)
        defer {
            chmod(folder, 0o755)
            chmod(path, 0o600)
        }
        let reader = try Archive(path: path, mode: .readOnly)
        #expect(reader.database.readOnlyAccess == .immutable)
        #expect(!(try await reader.search("the").hits.isEmpty))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["archive.sqlite"])
        #expect(Self.code { _ = try Archive(path: path, mode: .readWrite) } == .readOnly)
    }

    @Test func inMemoryArchivesAreFreshAndComplete() async throws {
        let a = try Archive.inMemory()
        let b = try Archive.inMemory()
        let report = try await a.ingest([Self.sample])
        #expect(report.itemsAdded > 0)
        #expect(try await a.search("Zoë").hits.count > 0)
        #expect(try await a.search("東京").hits.count >= 0)
        #expect(try await b.stats().items == 0)
        #expect(try await a.check().isEmpty)
    }

    @Test func aFullDiskStopsWritesWithDiskFullAndKeepsReads() async throws {
        // A disk filling up, simulated with SQLite's page limit (a small tmpfs needs root:
        // ManyProcessesTests uses one when it may).
        let path = try Self.sampleArchive()
        let archive = try Archive(path: path)
        let before = try await archive.stats().items
        try await archive.database.writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 40)")
        }
        let big = TestTemporary.folder("big") + "/big.jsonl"
        var lines = [Lines.chat("big", name: "Big")]
        for i in 0..<4000 {
            lines.append(
                Lines.item(
                    "big", "\(i)", ts: "2024-05-01T10:00:00Z",
                    text: "message \(i) สวัสดี مرحبا שלום 東京 e\u{301} 👍🏽 lorem ipsum dolor"))
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: big))
        await #expect { _ = try await archive.ingest([big], options: IngestOptions(batchSize: 200)) } throws: { e in
            guard let e = e as? ArchiveError else { return false }
            return e.code == .diskFull && e.message.contains("the disk is full")
        }
        let after = try await archive.stats().items
        #expect(after > before, "committed batches are kept")
        #expect(!(try await archive.search("the").hits.isEmpty))
    }

    @Test func sqliteFailuresMapToCodes() {
        let cases: [(ResultCode, ArchiveError.Code)] = [
            (.SQLITE_CORRUPT, .corrupt), (.SQLITE_NOTADB, .corrupt), (.SQLITE_FULL, .diskFull), (.SQLITE_BUSY, .busy),
            (.SQLITE_LOCKED, .busy), (.SQLITE_READONLY, .readOnly), (.SQLITE_PERM, .readOnly), (.SQLITE_CANTOPEN, .io),
            (.SQLITE_IOERR, .io),
        ]
        for (sqlite, code) in cases {
            let e = ArchiveError.database(
                DatabaseError(resultCode: sqlite, message: "m", sql: "SELECT 1"), path: "a.sqlite")
            #expect(e.code == code, "\(sqlite)")
            #expect(!e.message.contains("SELECT"), "no SQL in messages")
            #expect(e.underlying is DatabaseError)
        }
        #expect(ArchiveError("legacy").code == .io)
    }

    @Test func aNewerAnalyserIsRefusedInEveryMode() throws {
        let path = try Self.sampleArchive()
        let q = try TestArchive.rawQueue(path)
        try q.write { db in
            try db.execute(sql: "UPDATE meta SET value = '99' WHERE key = 'analyzerVersion'")
        }
        try q.close()
        for mode in [Archive.OpenMode.create, .readWrite, .readOnly] {
            do {
                _ = try Archive(path: path, mode: mode)
                Issue.record("opened \(mode)")
            } catch let e as ArchiveError {
                #expect(e.code == .newerVersion)
                #expect(e.message.contains("99") && e.message.contains("\(Analyzer.version)"), "\(e.message)")
            }
        }
    }

    @Test func anArchiveNeedingAnUpgradeIsRefusedReadOnlyWithoutWriting() throws {
        let path = try Self.sampleArchive()
        let q = try TestArchive.rawQueue(path)
        try q.write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2'") }
        try q.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Self.code { _ = try Archive(path: path, mode: .readOnly) } == .readOnly)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func theWritersPerItemProblemsReachItsIssues() throws {
        let database = try ArchiveDatabase(inMemory: ())
        let writer = try ArchiveWriter(database: database)
        try writer.add(
            Item(
                chatSourceId: "nowhere", sourceId: "1", timestamp: Timestamp(milliseconds: 0), direction: .rcv,
                content: MessageContent(type: .text, text: "x")))
        _ = try writer.finish()
        #expect(writer.issues == ["item 1 of unknown chat nowhere skipped"])
    }
}
