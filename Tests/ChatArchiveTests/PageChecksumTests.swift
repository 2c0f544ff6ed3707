import ChatArchive
import ChatIndex
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// Page checksums (issue 36, <doc:PageChecksums>): every page of an archive carries one, a
/// damaged page is an error and never an answer, older archives are converted keeping their data.
@Suite struct PageChecksumTests {
    static let cli = ChildProcess.chatArchiveBinary
    static let first = TestArchive.corpusPath + "/sample/chats-1.jsonl"
    static let second = TestArchive.corpusPath + "/sample/chats-2.jsonl"

    static func bytes(_ path: String) -> [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }

    /// The page numbers (from 1) whose checksum does not match, in a file of `pageSize` pages.
    static func badPages(_ path: String, pageSize: Int = 8192) -> [Int] {
        let file = bytes(path)
        return stride(from: 0, to: file.count, by: pageSize).compactMap { start in
            ArchivePages.verify(Array(file[start..<min(start + pageSize, file.count)])) ? nil : start / pageSize + 1
        }
    }

    /// Every row of every table (shadow tables of the full-text indexes included), with row ids.
    static func dump(_ path: String) throws -> [String: [[DatabaseValue]]] {
        let queue = try TestArchive.rawQueue(
            path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }())
        defer { try? queue.close() }
        return try queue.read { db in
            var tables: [String: [[DatabaseValue]]] = [:]
            let names = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
            for name in names {
                let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let rows: [Row]
                if let withIds = try? Row.fetchAll(db, sql: "SELECT rowid AS _rowid_, * FROM \(quoted) ORDER BY rowid")
                {
                    rows = withIds
                } else {
                    rows = try Row.fetchAll(db, sql: "SELECT * FROM \(quoted)")
                }
                tables[name] = rows.map { Array($0.databaseValues) }
            }
            tables["user_version"] = [[try DatabaseValue.fetchOne(db, sql: "PRAGMA user_version") ?? .null]]
            return tables
        }
    }

    /// The programs turn SQLite's memory statistics off first thing (`Archive.prepareProgram()`);
    /// once SQLite has run in a process, SQLite refuses the setting, and archives work as before.
    @Test func memoryStatisticsCanOnlyBeTurnedOffBeforeSQLiteRuns() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
        #expect(!ArchivePages.turnOffMemoryStatistics())
        Archive.prepareProgram()
        let path = TestArchive.temporaryPath()
        let report = try Archive(path: path).ingestSync([Self.first])
        #expect(report.itemsAdded > 0)
        #expect(try Archive(path: path, mode: .readOnly).blocking.stats().items == report.itemsAdded)
    }

    @Test func everyPageOfANewArchiveCarriesAChecksum() async throws {
        let path = TestArchive.temporaryPath()
        _ = try Archive(path: path).ingestSync([Self.first])
        let file = Self.bytes(path)
        #expect(file[16] == 0x20 && file[17] == 0, "page size 8192")
        #expect(file[20] == 8, "8 reserved bytes per page")
        #expect(file.count / 8192 > 20)
        #expect(Self.badPages(path) == [])
        #expect(try Archive(path: path, mode: .readOnly).hasPageChecksums == true)
        // Readers of every kind: a pool, one connection, immutable (read-only media), in memory.
        for access in [ReadOnlyAccess.walReader, .immutable] {
            let database = try ArchiveDatabase(readOnlyAt: path, access: access)
            #expect(
                try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 277)
        }
        #expect(try await Archive(readingOnceAt: path).search("hello").hits.count > 0)
        let memory = try Archive.inMemory()
        #expect(memory.hasPageChecksums == nil)
        #expect(try await memory.stats().items == 0)
        // A reader beside a writer: the writer's log frames carry checksums too.
        let writer = try Archive(path: path)
        let reader = try Archive(path: path, mode: .readOnly)
        _ = try writer.ingestSync([Self.second])
        #expect(try await reader.stats().items == (try await writer.stats().items))
    }

    @Test func checkAddsChecksumsToAnOlderArchiveAndKeepsItsDataByteForByte() throws {
        let path = TestArchive.temporaryPath()
        _ = try Archive(path: path, pageChecksums: false).ingestSync([Self.first, Self.second])
        #expect(Self.bytes(path)[20] == 0)
        let before = try Self.dump(path)
        let answers = try ["search", "chats", "stats"].map {
            try ChildProcess.run(Self.cli, [$0, "--json", "--archive", path] + ($0 == "search" ? ["the"] : [])).out
        }

        let plain = try ChildProcess.run(Self.cli, ["check", "--archive", path])
        #expect(plain.status == 0)
        #expect(plain.out.contains("page checksums: none"), "\(plain.out)")
        let json = try JSONParser.parse(
            Array(try ChildProcess.run(Self.cli, ["check", "--json", "--archive", path]).out.utf8))
        #expect(json["pageChecksums"]?.boolValue == false)

        let add = try ChildProcess.run(Self.cli, ["check", "--add-checksums", "--archive", path])
        #expect(add.status == 0, "\(add.out)\(add.err)")
        #expect(add.out.contains("page checksums: added"), "\(add.out)")
        #expect(Self.bytes(path)[20] == 8)
        #expect(Self.badPages(path) == [])
        #expect(try Self.dump(path) == before, "the conversion changed stored data")
        #expect(
            try ["search", "chats", "stats"].map {
                try ChildProcess.run(Self.cli, [$0, "--json", "--archive", path] + ($0 == "search" ? ["the"] : [])).out
            }.enumerated().allSatisfy { k, out in
                // stats' file size is the one figure that may change.
                k == 2 || out == answers[k]
            })
        let again = try JSONParser.parse(
            Array(try ChildProcess.run(Self.cli, ["check", "--json", "--add-checksums", "--archive", path]).out.utf8))
        #expect(again["pageChecksums"]?.boolValue == true)
        #expect(again["checksumsAdded"]?.boolValue == false)
    }

    /// With every page verified as it is read, a big archive's first write waits for no
    /// whole-file check (the limit of the check at open lowered to 0 here), and a write that
    /// meets a damaged page fails without writing anything.
    @Test func theFirstWriteWaitsForNoWholeFileCheck() async throws {
        let healthy = TestArchive.temporaryPath()
        let damaged = TestArchive.temporaryPath()
        for path in [healthy, damaged] { _ = try Archive(path: path).ingestSync([Self.first]) }
        let ok = try ArchiveDatabase(path: healthy, mode: .readWrite, fullCheckLimit: 0)
        #expect(!ok.isCheckingBeforeWriting)
        try await ok.liveWrite { db in try db.execute(sql: "UPDATE chat SET favorite = 1 WHERE sourceId = 'g-hiking'") }

        let pages = try await TestArchive.rawQueue(damaged).read { db in
            try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = 'item' AND pagetype = 'leaf'")
        }
        let page = try #require(pages.last)
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: damaged))
        try h.seek(toOffset: UInt64((page - 1) * 8192 + 4000))
        try h.write(contentsOf: [0x5A, 0xA5, 0x5A])
        try h.close()
        let bytes = Self.bytes(damaged)
        let db = try ArchiveDatabase(path: damaged, mode: .readWrite, fullCheckLimit: 0)
        #expect(db.damage == nil, "the damage is in an item page, which the open does not read")
        #expect(!db.isCheckingBeforeWriting)
        await #expect {
            try await db.liveWrite { db in try db.execute(sql: "UPDATE item SET flags = flags | 0") }
        } throws: { e in
            (e as? DatabaseError)?.resultCode == .SQLITE_CORRUPT
        }
        #expect(Self.bytes(damaged) == bytes, "the damaged archive was written to")
    }

    /// A pool's readers verify a page whichever way they read it: into their cache (the default)
    /// or through the memory map (each fetch verified), which the bench can still choose.
    @Test(arguments: [false, true])
    func aPoolReaderMeetsDamageMappedOrNot(mapped: Bool) async throws {
        let path = TestArchive.temporaryPath()
        _ = try Archive(path: path).ingestSync([Self.first])
        let pages = try await TestArchive.rawQueue(path).read { db in
            try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = 'itemFts_data' AND pagetype = 'leaf'")
        }
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        for page in pages {
            try h.seek(toOffset: UInt64((page - 1) * 8192 + 2000))
            try h.write(contentsOf: [0x5A, 0xA5, 0x5A])
        }
        try h.close()
        // Mapping is the default; the other way is read into the cache.
        if !mapped { ArchivePages.mapsPages(false) }
        defer { if !mapped { ArchivePages.mapsPages(true) } }
        let archive = try Archive(path: path, mode: .readOnly)
        await #expect {
            _ = try await archive.search("the", options: SearchOptions(limit: 500))
        } throws: { e in
            (e as? ArchiveError)?.code == .corrupt
        }
    }

    // MARK: - Random damage

    /// The answers of every read the command line makes, as JSON, or nil for "damaged".
    struct Answers: Equatable {
        var values: [String?]
    }

    static let queries = ["the", "hello", "café", "with", "mountain", "a", "ski"]

    /// Reads everything a user would, with the library as the command line does (`readingOnce`)
    /// or as an app does (a pool that maps the file). A damaged archive is `nil` for each read
    /// that reports it; any other failure is recorded.
    static func answers(_ path: String, once: Bool) async -> Answers {
        func attempt(_ body: () async throws -> String) async -> String? {
            do {
                return try await body()
            } catch let e as ArchiveError where e.code == .corrupt {
                return nil
            } catch {
                Issue.record("not a damage error: \(error)")
                return "error"
            }
        }
        var values: [String?] = []
        let archive: Archive
        do {
            archive = once ? try Archive(readingOnceAt: path) : try Archive(path: path, mode: .readOnly)
        } catch let e as ArchiveError where e.code == .corrupt {
            return Answers(values: [nil])
        } catch {
            Issue.record("opening failed otherwise: \(error)")
            return Answers(values: ["error"])
        }
        for q in queries {
            values.append(
                await attempt { ArchiveJSON.search(try await archive.search(q, options: SearchOptions(limit: 500))) })
        }
        values.append(await attempt { ArchiveJSON.chats(try await archive.chats(limit: 1000)) })
        values.append(await attempt { ArchiveJSON.chatCounts(try await archive.chatFilterCounts()) })
        for chat in ["g-hiking", "d-anna", "b-cafe", "b-kenji"] {
            values.append(await attempt { ArchiveJSON.items(try await archive.items(in: chat, window: .last(1000))) })
        }
        values.append(await attempt { ArchiveJSON.stats(try await archive.stats()) })
        return Answers(values: values)
    }

    /// Pages of each table and index (SQLite's own and the full-text indexes' shadow tables).
    static func usedPages(_ path: String) throws -> [String: [Int]] {
        let queue = try TestArchive.rawQueue(path)
        defer { try? queue.close() }
        var pages: [String: [Int]] = [:]
        for row in try queue.read({ db in try Row.fetchAll(db, sql: "SELECT name, pageno FROM dbstat") }) {
            pages[row["name"], default: []].append(row["pageno"])
        }
        return pages
    }

    /// The offset of each page's last frame in a log of 8 KiB pages.
    static func frames(_ log: [UInt8]) -> [Int: Int] {
        var last: [Int: Int] = [:]
        var offset = 32
        while offset + 24 + 8192 <= log.count {
            last[log[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }] = offset
            offset += 24 + 8192
        }
        return last
    }

    /// A connection in a read transaction begun now (ended by `COMMIT` through it): while its
    /// snapshot lasts, the log holds every later write and never starts over.
    static func snapshotHolder(_ path: String) async throws -> DatabaseQueue {
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let holder = try TestArchive.rawQueue(path, configuration: config)
        try await holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM chat")
        }
        return holder
    }

    /// The frames of a log of 8 KiB pages that pass the checks SQLite's recovery makes (the log
    /// file format: the header's own checksum, then each frame's salts equal to the header's and
    /// a running checksum over each frame's first 8 header bytes and its page), counted from the
    /// first until one fails; and the whole frames the file holds.
    static func validFrames(_ log: [UInt8]) -> (valid: Int, total: Int) {
        let pageSize = 8192
        guard log.count >= 32 else { return (0, 0) }
        let total = (log.count - 32) / (24 + pageSize)
        func be32(_ o: Int) -> UInt32 { log[o..<o + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        func le32(_ o: Int) -> UInt32 { log[o..<o + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        let bigEndian = be32(0) & 1 == 1
        var s0: UInt32 = 0
        var s1: UInt32 = 0
        func sum(_ range: Range<Int>) {
            for i in stride(from: range.lowerBound, to: range.upperBound, by: 8) {
                s0 = s0 &+ (bigEndian ? be32(i) : le32(i)) &+ s1
                s1 = s1 &+ (bigEndian ? be32(i + 4) : le32(i + 4)) &+ s0
            }
        }
        sum(0..<24)
        guard s0 == be32(24), s1 == be32(28) else { return (0, total) }
        var valid = 0
        var offset = 32
        while offset + 24 + pageSize <= log.count, be32(offset + 8) == be32(16), be32(offset + 12) == be32(20) {
            sum(offset..<offset + 8)
            sum(offset + 24..<offset + 24 + pageSize)
            guard s0 == be32(offset + 16), s1 == be32(offset + 20) else { break }
            valid += 1
            offset += 24 + pageSize
        }
        return (valid, total)
    }

    /// Every frame a writer appends to the log sums as the log format says over the page as
    /// stored (sealed), whether the checksum of the frame before was remembered or read back: an
    /// ingest's many transactions, another connection's, and one whose pages spill from a
    /// four-page cache and are written again in place (SQLite then sums those frames again at
    /// the commit). A copy of the file and its log without the log's index (as after a crash)
    /// recovers every transaction.
    @Test func everyLogFrameSumsAsTheLogFormatSaysAndRecovers() async throws {
        let dir = TestTemporary.folder("log-frames")
        let path = dir + "/a.sqlite"
        _ = try Archive(path: path).ingestSync([Self.first])
        let holder = try await Self.snapshotHolder(path)
        let archive = try Archive(path: path)
        _ = try archive.ingestSync([Self.second])
        let afterIngest = Self.validFrames(Self.bytes(path + "-wal"))
        #expect(afterIngest.total > 20, "the ingest's frames are in the log")
        #expect(afterIngest.valid == afterIngest.total)

        let other = try TestArchive.rawQueue(path)
        try await other.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = 4; CREATE TABLE spill(x BLOB)")
        }
        let afterCreate = Self.validFrames(Self.bytes(path + "-wal"))
        try await other.writeWithoutTransaction { db in
            try db.inTransaction {
                for k in 1...300 {
                    try db.execute(sql: "INSERT INTO spill VALUES (randomblob(3000))")
                    if k > 1 { try db.execute(sql: "UPDATE spill SET x = randomblob(3000) WHERE rowid = 1") }
                }
                return .commit
            }
        }
        let log = Self.bytes(path + "-wal")
        let afterSpill = Self.validFrames(log)
        #expect(afterSpill.total > afterCreate.total + 100, "the spilling transaction's frames are in the log")
        #expect(afterSpill.valid == afterSpill.total)
        // Its pages spilled and written again: one frame each, rewritten in place.
        let transactionFrames = (afterCreate.total..<afterSpill.total).map { k in
            log[32 + k * 8216..<32 + k * 8216 + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        #expect(Set(transactionFrames).count == transactionFrames.count)

        // And the writer's next transaction after the other connection's.
        _ = try archive.ingestSync([Self.first])
        try await archive.upsert(items: [
            Item(
                chatSourceId: "g-hiking", sourceId: "log-frames-1",
                timestamp: Timestamp(milliseconds: 1_700_000_000_000),
                direction: .snd, content: MessageContent(type: .text, text: "Grüße aus 東京"))
        ])
        let final = Self.validFrames(Self.bytes(path + "-wal"))
        #expect(final.total > afterSpill.total && final.valid == final.total)

        let copy = dir + "/copy.sqlite"
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }
        try await holder.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        try holder.close()
        try other.close()
        let recovered = try TestArchive.rawQueue(copy)
        defer { try? recovered.close() }
        let counts = try await recovered.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM spill"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item")
            )
        }
        #expect(counts.0 == 300)
        #expect(counts.1 == (try await archive.stats().items))
        #expect(try await recovered.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    /// Writes 1 to 64 random bytes at a random offset of `range` of the file; returns whether a
    /// byte changed.
    static func damage(_ path: String, in range: Range<Int>, rng: inout SplitMix64) throws -> Bool {
        let length = Int.random(in: 1...64, using: &rng)
        let offset = Int.random(in: range, using: &rng)
        let end = min(offset + length, range.upperBound)
        let noise = (offset..<end).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? h.close() }
        try h.seek(toOffset: UInt64(offset))
        let old = try h.read(upToCount: noise.count) ?? Data()
        try h.seek(toOffset: UInt64(offset))
        try h.write(contentsOf: noise)
        return [UInt8](old) != noise
    }

    /// 200 seeds of 1 to 64 random bytes written into a random used page of a random table (the
    /// full-text indexes' included) of a small archive, or into a frame of a log that has not
    /// been copied back, with a reader holding the log open: every read answers as on the
    /// undamaged copy or reports the damage; `check` names it; `ingest` writes nothing. One
    /// command line program per seed (in turn each read command, `check` and `ingest`) shows the
    /// same at its exit status and in its words.
    @Test func randomDamageIsReportedNeverAnsweredSilently() async throws {
        let dir = TestTemporary.folder("page-damage")
        // The archive, its log copied back; and the same with a second ingest left in the log,
        // kept there by a reader whose snapshot predates it.
        let plain = dir + "/plain.sqlite"
        _ = try Archive(path: plain).ingestSync([Self.first])
        let logged = dir + "/logged.sqlite"
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: plain + suffix) {
            try FileManager.default.copyItem(atPath: plain + suffix, toPath: logged + suffix)
        }
        do {
            let holder = try await Self.snapshotHolder(logged)
            _ = try Archive(path: logged).ingestSync([Self.second])
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: logged + suffix, toPath: dir + "/logged-copy.sqlite" + suffix)
            }
            try await holder.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
            try holder.close()
        }
        let loggedCopy = dir + "/logged-copy.sqlite"
        let walSize = Self.bytes(loggedCopy + "-wal").count
        try #require(walSize > 32 + 8216, "the second ingest is in the log")

        // What undamaged copies answer (the logged one through a reader, as the seeds' are).
        let cliCommands: [[String]] = [
            ["search", "--json", "the", "--limit", "500"], ["chats", "--json", "--limit", "1000"],
            ["items", "--json", "--chat", "g-hiking", "--last", "1000"], ["stats", "--json"],
        ]
        struct Variant {
            var source: String
            var answers: Answers
            var cli: [String]
            var pages: [String: [Int]]
        }
        func variant(_ source: String, log: Bool) async throws -> Variant {
            let probe = dir + "/probe.sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: probe + suffix) }
            for suffix in log ? ["", "-wal"] : [""] {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: probe + suffix)
            }
            let holder = try TestArchive.rawQueue(probe)
            defer { try? holder.close() }
            _ = try await holder.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM chat") }
            let answers = await Self.answers(probe, once: true)
            #expect(await Self.answers(probe, once: false) == answers)
            #expect(!answers.values.contains { $0 == nil || $0 == "error" })
            let cli = try cliCommands.map { try ChildProcess.run(Self.cli, $0 + ["--archive", probe]).out }
            var pages = try Self.usedPages(probe)
            if log {
                // Only pages the log holds: their last frame there is what SQLite reads.
                let inLog = Set(Self.frames(Self.bytes(source + "-wal")).keys)
                pages = pages.mapValues { $0.filter(inLog.contains) }.filter { !$0.value.isEmpty }
            }
            return Variant(source: source, answers: answers, cli: cli, pages: pages)
        }
        let variants = [try await variant(plain, log: false), try await variant(loggedCopy, log: true)]
        #expect(variants[1].answers != variants[0].answers, "the log holds what the second ingest added")

        var damagedReads = 0
        var reads = 0
        for seed in UInt64(0)..<200 {
            var rng = SplitMix64(seed: seed &* 7919 &+ 36)
            let inLog = seed % 4 == 3
            let v = variants[inLog ? 1 : 0]
            let path = dir + "/seed-\(seed).sqlite"
            for suffix in inLog ? ["", "-wal"] : [""] {
                try FileManager.default.copyItem(atPath: v.source + suffix, toPath: path + suffix)
            }
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            // A reader holds the log open, so that it is read as a live archive's is (a program
            // that opens a log left alone rebuilds its index, and SQLite takes a damaged frame
            // there for the torn end of a log).
            let holder = try TestArchive.rawQueue(path)
            defer { try? holder.close() }
            _ = try await holder.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM chat") }

            let table = v.pages.keys.sorted().randomElement(using: &rng)!
            let page = v.pages[table]!.randomElement(using: &rng)!
            let file = inLog ? path + "-wal" : path
            let range: Range<Int>
            if inLog {
                let frame = try #require(Self.frames(Self.bytes(file))[page])
                range = (frame + 24)..<(frame + 24 + 8192)
            } else {
                range = ((page - 1) * 8192)..<(page * 8192)
            }
            let changed = try Self.damage(file, in: range, rng: &rng)
            let label = "seed \(seed): \(inLog ? "log frame" : "page") \(page) of \(table)"

            let once = seed % 2 == 0
            let got = await Self.answers(path, once: once)
            if got.values == [nil] {
                reads += v.answers.values.count
                damagedReads += v.answers.values.count
            } else {
                #expect(got.values.count == v.answers.values.count, "\(label)")
                for (k, value) in got.values.enumerated() where k < v.answers.values.count {
                    reads += 1
                    if value == nil {
                        damagedReads += 1
                        continue
                    }
                    #expect(value == v.answers.values[k], "\(label): read \(k) answered differently")
                }
            }
            if !changed { continue }

            // `check` names the damage.
            do {
                let problems = try await Archive(path: path, mode: .readOnly).check()
                #expect(problems.contains { $0.contains("damaged") }, "\(label): \(problems)")
            } catch let e as ArchiveError {
                #expect(e.code == .corrupt && e.message.contains("damaged"), "\(label): \(e)")
            }
            // `ingest` writes nothing.
            let before = (Self.bytes(path), Self.bytes(path + "-wal"))
            do {
                _ = try Archive(path: path).ingestSync([Self.second])
                Issue.record("\(label): ingest into a damaged archive succeeded")
            } catch let e as ArchiveError {
                #expect(e.code == .corrupt && e.message.contains("damaged"), "\(label): \(e)")
            }
            #expect(Self.bytes(path) == before.0 && Self.bytes(path + "-wal") == before.1, "\(label): ingest wrote")

            // One program per seed, in turn each command.
            let turn = Int(seed / 4 % 6)
            if turn < cliCommands.count {
                let r = try ChildProcess.run(Self.cli, cliCommands[turn] + ["--archive", path])
                #expect(r.signal == nil)
                if r.status == 0 {
                    #expect(r.out == v.cli[turn], "\(label): \(cliCommands[turn]) exit 0 with another answer")
                } else {
                    #expect(r.status == 1 && r.err.contains("is damaged"), "\(label): \(r.err)")
                }
            } else if turn == 4 {
                let r = try ChildProcess.run(Self.cli, ["check", "--archive", path])
                #expect(r.status == 1 && (r.out + r.err).contains("damaged"), "\(label): \(r.out)\(r.err)")
            } else {
                let r = try ChildProcess.run(Self.cli, ["ingest", "--archive", path, Self.second])
                #expect(r.status == 1 && r.err.contains("is damaged"), "\(label): \(r.err)")
                #expect(Self.bytes(path) == before.0 && Self.bytes(path + "-wal") == before.1, "\(label): ingest wrote")
            }
        }
        // The damage was seen, not only missed by reads that never met it.
        // (Most commands read a few tables: a damaged page elsewhere is rightly not met.)
        #expect(damagedReads * 10 > reads, "\(damagedReads) of \(reads) reads reported damage")
    }
}
