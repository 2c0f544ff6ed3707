import ChatArchive
import ChatTestSupport
import ChatText
import Foundation
import GRDB
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One archive, many processes: every case is run with separate `chat-archive` processes, as a
/// user would meet it — concurrent ingests, readers during ingests, read-only media, a full
/// disk, damaged and newer archives, bad paths.
///
/// `.ci/many-processes` runs ``readersNeverFailWhileTwoProcessesIngest()`` at full size with a
/// release build, through `CHAT_ARCHIVE_MANY_MESSAGES` (default 4,000), `CHAT_ARCHIVE_MANY_BATCH`
/// (items per transaction, default 250) and `CHAT_ARCHIVE_MANY_LOG=1` (figures on stdout).
@Suite(.serialized) struct ManyProcessesTests {
    let cli = ChildProcess.chatArchiveBinary

    // MARK: Fixtures

    /// Texts in many scripts, so that every process indexes real analyser work.
    static let texts = [
        "café crème at Zoë's", "東京で会いましょう", "สวัสดีครับ เพื่อน", "مرحبا بالعالم", "שלום עולם", "e\u{301}te\u{301} 👍🏽 fête",
        "Łukasz wrote: naïve résumé", "한국어 단풍 🍁", "Привет, как дела?",
    ]

    /// A JSON Lines export of one chat whose items share a few timestamps (`seconds` distinct
    /// ones), so that two of them compete for the same archive id slots.
    static func sameTimeExport(chat: String, items: Int, seconds: Int = 3, name: String) throws -> String {
        var lines = [Lines.chat(chat, name: "Chat \(chat)"), Lines.member(chat, "m1", "Zoë")]
        for i in 0..<items {
            lines.append(
                Lines.item(
                    chat, "\(chat)-\(i)", ts: String(format: "2024-05-01T10:00:%02dZ", i % seconds),
                    text: "\(texts[i % texts.count]) \(chat) \(i)", member: "m1", unread: i % 7 == 0))
        }
        return try TestArchive.writeFile(lines.joined(separator: "\n") + "\n", name: name)
    }

    /// Splits a generated corpus into two exports that overlap: both hold every chat and member
    /// line; the first holds items [0, 60%), the second [40%, 100%).
    static func overlappingHalves(_ corpus: String, dir: String) throws -> (String, String) {
        let data = try Data(contentsOf: URL(fileURLWithPath: corpus))
        let lines = data.split(separator: 0x0A)
        let isItem = { (l: Data.SubSequence) in l.starts(with: Array(#"{"kind":"item""#.utf8)) }
        let items = lines.filter(isItem)
        let headerLines = lines.filter { !isItem($0) }
        func write(_ name: String, _ range: Range<Int>) throws -> String {
            var out = Data()
            for l in headerLines + Array(items[range]) {
                out.append(contentsOf: l)
                out.append(0x0A)
            }
            let path = dir + "/" + name
            try out.write(to: URL(fileURLWithPath: path))
            return path
        }
        let n = items.count
        return (try write("a.jsonl", 0..<(n * 6 / 10)), try write("b.jsonl", (n * 4 / 10)..<n))
    }

    /// Everything a user can see of an archive, ids aside (two writers may number items at
    /// equal times in another order): items with their positions, chats with their counters.
    static func snapshot(_ path: String) throws -> [String] {
        let database = try ArchiveDatabase(path: path, mode: .readOnly)
        return try database.writer.read { db in
            let items = try String.fetchAll(
                db,
                sql: """
                    SELECT chat.sourceId || '|' || item.sourceId || '|' || item.ts || '|' || item.pos || '|' || item.flags
                        || '|' || item.text
                    FROM item JOIN chat ON chat.id = item.chatId ORDER BY chat.sourceId, item.sourceId
                    """)
            let chats = try String.fetchAll(
                db,
                sql: """
                    SELECT chat.sourceId || '|' || itemCount || '|' || unreadCount || '|' || unreadMentions || '|' || reportCount
                        || '|' || coalesce(lastTs, '') || '|' || coalesce((SELECT sourceId FROM item WHERE id = lastItemId), '')
                    FROM chat ORDER BY sourceId
                    """)
            return items + chats
        }
    }

    /// Positions are 1…n per chat, in (ts, id) order.
    static func positionsAreDense(_ path: String) throws -> Bool {
        let database = try ArchiveDatabase(path: path, mode: .readOnly)
        return try database.writer.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM (SELECT pos, row_number() OVER (PARTITION BY chatId ORDER BY ts, id) AS n FROM item)
                    WHERE pos <> n
                    """) == 0
        }
    }

    static func fileDigest(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static var isRoot: Bool { geteuid() == 0 }

    /// Runs `mount` (as root in a test environment that allows it); false when not permitted.
    static func mount(_ args: [String]) -> Bool {
        guard isRoot, FileManager.default.isExecutableFile(atPath: "/bin/mount") else { return false }
        return (try? ChildProcess.run("/bin/mount", args))?.status == 0
    }

    static func unmount(_ dir: String) { _ = try? ChildProcess.run("/bin/umount", [dir]) }

    // MARK: 1. Writers take turns

    @Test(arguments: [0, 40, 150])
    func twoIngestsWithItemsAtEqualTimesTakeTurns(staggerMs: Int) throws {
        let dir = TestTemporary.folder("turns")
        let archive = dir + "/archive.sqlite"
        let a = try Self.sameTimeExport(chat: "c1", items: 1500, name: "c1.jsonl")
        let b = try Self.sameTimeExport(chat: "c2", items: 1500, name: "c2.jsonl")
        let first = try ChildProcess(cli, ["ingest", "--json", "--batch-size", "100", "--archive", archive, a])
        usleep(useconds_t(staggerMs * 1000))
        let second = try ChildProcess(cli, ["ingest", "--json", "--batch-size", "100", "--archive", archive, b])
        for r in [first.wait(), second.wait()] {
            #expect(r.signal == nil, "a writer crashed: \(r.err)")
            #expect(r.status == 0, "\(r.err)")
            #expect(!r.err.contains("locked") && !r.err.contains("SQLite error"), "\(r.err)")
            #expect(r.out.contains("\"itemsAdded\":1500"), "\(r.out)")
        }
        let stats = try ChildProcess.run(cli, ["stats", "--json", "--archive", archive])
        #expect(stats.out.contains("\"items\":3000"), "\(stats.out)")
        #expect(try Self.positionsAreDense(archive))
        let check = try ChildProcess.run(cli, ["check", "--archive", archive])
        #expect(check.status == 0, "\(check.out)\(check.err)")
    }

    /// A program that keeps an archive open for writing (an app, `serve`) while another program
    /// writes to it and ends: SQLite's last connection in the program that ends copies the log
    /// back and deletes it when it can lock the file alone. It must not be able to: closing any
    /// descriptor of the file drops all of a process's POSIX locks on it, so a descriptor of our
    /// own opened and closed beside SQLite's (to read the header, or to lock the file while
    /// opening) left this program's connections without theirs. What it wrote next went to a log
    /// nobody else would read, and a new connection of its own met "disk I/O error".
    @Test func aWriterStaysLockedWhenAnotherProgramWritesAndEnds() async throws {
        let dir = TestTemporary.folder("kept-lock")
        let archive = dir + "/archive.sqlite"
        let first = try Self.sameTimeExport(chat: "k1", items: 50, name: "k1.jsonl")
        let r0 = try ChildProcess.run(cli, ["ingest", "--json", "--archive", archive, first])
        #expect(r0.status == 0, "\(r0.err)")
        // Opened here, read and written: this process's connections hold their locks.
        let kept = try await Archive.open(path: archive, mode: .readWrite)
        #expect(try await kept.stats().items == 50)
        _ = try await kept.ingest([try Self.sameTimeExport(chat: "k2", items: 20, name: "k2.jsonl")])
        // Another program writes and ends while this one keeps the archive open.
        let other = try Self.sameTimeExport(chat: "k3", items: 30, name: "k3.jsonl")
        let r1 = try ChildProcess.run(cli, ["ingest", "--json", "--archive", archive, other])
        #expect(r1.status == 0, "\(r1.err)")
        #expect(FileManager.default.fileExists(atPath: archive + "-wal"), "the other program deleted the log in use")
        // What this program writes now, every other program sees.
        _ = try await kept.ingest([try Self.sameTimeExport(chat: "k4", items: 40, name: "k4.jsonl")])
        let stats = try ChildProcess.run(cli, ["stats", "--json", "--archive", archive])
        #expect(stats.out.contains("\"items\":140"), "\(stats.out)\(stats.err)")
        let check = try ChildProcess.run(cli, ["check", "--archive", archive])
        #expect(check.status == 0, "\(check.out)\(check.err)")
    }

    @Test func overlappingExportsIngestedAtOnceEndLikeOneAfterTheOther() throws {
        let dir = TestTemporary.folder("overlap")
        let corpus = dir + "/corpus.jsonl"
        let gen = try ChildProcess.run(
            ChildProcess.benchBinary, ["--generate", corpus, "--messages", "3000", "--seed", "11"])
        try #require(gen.status == 0, "\(gen.err)")
        let (a, b) = try Self.overlappingHalves(corpus, dir: dir)

        let sequential = dir + "/sequential.sqlite"
        for file in [a, b] {
            let r = try ChildProcess.run(cli, ["ingest", "--batch-size", "200", "--archive", sequential, file])
            try #require(r.status == 0, "\(r.err)")
        }
        let concurrent = dir + "/concurrent.sqlite"
        let one = try ChildProcess(cli, ["ingest", "--batch-size", "200", "--archive", concurrent, a])
        let two = try ChildProcess(cli, ["ingest", "--batch-size", "200", "--archive", concurrent, b])
        for r in [one.wait(), two.wait()] {
            #expect(r.signal == nil && r.status == 0, "\(r.err)")
        }
        #expect(try Self.snapshot(concurrent) == Self.snapshot(sequential))
        #expect(try Self.positionsAreDense(concurrent))
        let check = try ChildProcess.run(cli, ["check", "--archive", concurrent])
        #expect(check.status == 0, "\(check.out)\(check.err)")
    }

    @Test func aSecondWriterSaysItIsWaiting() throws {
        let dir = TestTemporary.folder("wait")
        let archive = dir + "/archive.sqlite"
        let seed = try ChildProcess.run(
            cli, ["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-1.jsonl"])
        try #require(seed.status == 0)
        // Hold the write lock from this process for a second.
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let q = try DatabaseQueue(path: archive, configuration: config)
        try q.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let writer = try ChildProcess(
            cli, ["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-2.jsonl"])
        usleep(1_000_000)
        try q.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        try q.close()
        let r = writer.wait()
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("waiting for another chat-archive writing to \(archive)…"), "\(r.err)")
    }

    // MARK: 2. Readers never fail, never block writers (and the scale run)

    struct ScaleConfig {
        var messages = 4_000
        var batch = 250
        var log = false
        static var fromEnvironment: ScaleConfig {
            let env = ProcessInfo.processInfo.environment
            var c = ScaleConfig()
            if let m = env["CHAT_ARCHIVE_MANY_MESSAGES"].flatMap(Int.init) { c.messages = m }
            if let b = env["CHAT_ARCHIVE_MANY_BATCH"].flatMap(Int.init) { c.batch = b }
            c.log = env["CHAT_ARCHIVE_MANY_LOG"] == "1"
            return c
        }
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    @Test func readersNeverFailWhileTwoProcessesIngest() throws {
        let config = ScaleConfig.fromEnvironment
        func log(_ s: String) { if config.log { FileHandle.standardOutput.write(Data((s + "\n").utf8)) } }
        let dir = TestTemporary.folder("scale")
        let corpus = dir + "/corpus.jsonl"
        let gen = try ChildProcess.run(
            ChildProcess.benchBinary, ["--generate", corpus, "--messages", String(config.messages), "--seed", "5"])
        try #require(gen.status == 0, "\(gen.err)")
        let (a, b) = try Self.overlappingHalves(corpus, dir: dir)
        let archive = dir + "/archive.sqlite"
        // The readers need an archive to read: the first chat lines go in first.
        let seed = try TestArchive.writeFile(
            String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: a)).split(separator: 0x0A).prefix(1).first ?? [],
                as: UTF8.self)
                + "\n", name: "seed.jsonl")
        try #require(try ChildProcess.run(cli, ["ingest", "--archive", archive, seed]).status == 0)
        let chat = try #require(
            try ArchiveDatabase(path: archive, mode: .readOnly).writer.read { db in
                try String.fetchOne(db, sql: "SELECT sourceId FROM chat LIMIT 1")
            })
        let readCommands: [[String]] = [
            ["search", "--json", "the", "--limit", "20"], ["chats", "--json", "--limit", "50"],
            ["items", "--json", "--chat", chat, "--last", "50"], ["search", "--json", "café", "--limit", "20"],
        ]

        log(
            "many processes: \(config.messages) messages, 2 ingests (overlapping 60% halves, \(config.batch) items per batch), 4 readers; binary \(cli)"
        )
        let started = DispatchTime.now().uptimeNanoseconds
        let writers = [
            try ChildProcess(cli, ["ingest", "--json", "--batch-size", String(config.batch), "--archive", archive, a]),
            try ChildProcess(cli, ["ingest", "--json", "--batch-size", String(config.batch), "--archive", archive, b]),
        ]
        var busy = [Double]()
        var idle = [Double]()
        var failures: [String] = []
        var slots: [(ChildProcess, UInt64, Int)?] = Array(repeating: nil, count: 4)
        var next = 0
        var idleRuns = 0
        var writing = true
        while writing || idleRuns < 40 || slots.contains(where: { $0 != nil }) {
            if writing, !writers.contains(where: { $0.isRunning }) { writing = false }
            for k in slots.indices {
                if let (child, t0, _) = slots[k], !child.isRunning {
                    let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
                    let r = child.wait()
                    if r.status != 0 || r.signal != nil { failures.append(r.err) }
                    if writing { busy.append(ms) } else { idle.append(ms) }
                    slots[k] = nil
                }
                if slots[k] == nil, writing || idleRuns < 40 {
                    if !writing { idleRuns += 1 }
                    slots[k] = (
                        try ChildProcess(cli, readCommands[next % readCommands.count] + ["--archive", archive]),
                        DispatchTime.now().uptimeNanoseconds, next
                    )
                    next += 1
                }
            }
            usleep(1_000)
        }
        let ingestSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        for w in writers {
            let r = w.wait()
            #expect(r.signal == nil && r.status == 0, "an ingest failed: \(r.err)")
        }
        #expect(failures.isEmpty, "\(failures.count) reader runs failed, e.g. \(failures.first ?? "")")

        let sequential = dir + "/sequential.sqlite"
        for file in [seed, a, b] {
            try #require(
                try ChildProcess.run(
                    cli, ["ingest", "--batch-size", String(config.batch), "--archive", sequential, file]
                ).status == 0)
        }
        let concurrentState = try Self.snapshot(archive)
        let sequentialState = try Self.snapshot(sequential)
        #expect(concurrentState == sequentialState)
        let items = try ArchiveDatabase(path: archive, mode: .readOnly).writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item")
        }
        #expect(items == config.messages)
        log(
            String(
                format:
                    "readers: %d runs while writing (p50 %.0f ms, p99 %.0f ms), %d idle (p50 %.0f ms, p99 %.0f ms), %d failures",
                busy.count, Self.percentile(busy, 0.5), Self.percentile(busy, 0.99), idle.count,
                Self.percentile(idle, 0.5),
                Self.percentile(idle, 0.99), failures.count))
        log(
            String(
                format:
                    "final: %d items (source %d), same as one ingest after the other: %@; wall time with readers %.1f s",
                items ?? -1, config.messages, concurrentState == sequentialState ? "yes" : "NO", ingestSeconds))
    }

    // MARK: 3. Read-only media

    @Test func aReadOnlyArchiveIsSearchableLeavesNothingBehindAndRefusesIngest() throws {
        let dir = TestTemporary.folder("ro")
        var media = dir + "/media"
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        // As root, permissions do not bite: a read-only tmpfs mount does (when mounting is allowed).
        let mounted = Self.isRoot && Self.mount(["-t", "tmpfs", "-o", "size=8m", "tmpfs", media])
        defer { if mounted { Self.unmount(media) } }
        if Self.isRoot && !mounted {
            media = dir + "/media"  // permissions only: the "nothing left behind" check is skipped below
        }
        let archive = media + "/archive.sqlite"
        let ingest = try ChildProcess.run(
            cli, ["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-1.jsonl"])
        try #require(ingest.status == 0, "\(ingest.err)")
        let commands: [[String]] = [
            ["search", "--json", "the"], ["chats", "--json"], ["items", "--json", "--chat", "g-hiking", "--last", "5"],
            ["stats"], ["check"],
        ]
        let before = try commands.map { try ChildProcess.run(cli, $0 + ["--archive", archive]).out }

        if mounted {
            #expect(Self.mount(["-o", "remount,ro", media]))
        } else {
            chmod(archive, 0o400)
            chmod(media, 0o555)
        }
        defer {
            chmod(media, 0o755)
            chmod(archive, 0o600)
        }
        let listing = try FileManager.default.contentsOfDirectory(atPath: media).sorted()
        for (k, c) in commands.enumerated() {
            let r = try ChildProcess.run(cli, c + ["--archive", archive])
            #expect(r.status == 0, "\(c): \(r.err)")
            if c[0] != "stats" { #expect(r.out == before[k], "\(c)") }
        }
        let refused = try ChildProcess.run(
            cli, ["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-2.jsonl"])
        if mounted || !Self.isRoot {
            #expect(refused.status == 1)
            #expect(refused.err.contains("read-only"), "\(refused.err)")
            // Nothing created beside the archive: no -wal, no -shm.
            #expect(try FileManager.default.contentsOfDirectory(atPath: media).sorted() == listing)
        } else {
            // Running as root without permission to mount: file modes do not stop root, so
            // neither the refusal nor "nothing left behind" can be observed here.
            #expect(refused.signal == nil)
        }
        if mounted { #expect(Self.mount(["-o", "remount,rw", media])) }
        chmod(media, 0o755)
        chmod(archive, 0o600)
        let writable = try ChildProcess.run(
            cli, ["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-2.jsonl"])
        #expect(writable.status == 0, "after the media is writable again: \(writable.err)")
    }

    // MARK: 4. Full disk

    @Test func aFullDiskStopsTheIngestKeepsItsBatchesAndReadsStillWork() throws {
        let dir = TestTemporary.folder("full") + "/disk"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        guard Self.mount(["-t", "tmpfs", "-o", "size=3m", "tmpfs", dir]) else {
            // Not root, or not allowed to mount: the library test of the same case
            // (ArchiveOpenModeTests, with SQLite's max_page_count) covers it.
            return
        }
        defer { Self.unmount(dir) }
        let archive = dir + "/archive.sqlite"
        try #require(
            try ChildProcess.run(
                cli, ["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-1.jsonl"]
            ).status == 0)
        let big = TestTemporary.folder("full-src") + "/big.jsonl"
        let gen = try ChildProcess.run(
            ChildProcess.benchBinary, ["--generate", big, "--messages", "20000", "--seed", "3"])
        try #require(gen.status == 0)
        let before = try Self.snapshot(archive).count
        let full = try ChildProcess.run(cli, ["ingest", "--batch-size", "500", "--archive", archive, big])
        #expect(full.status == 1)
        #expect(full.signal == nil)
        #expect(full.err.contains("the disk is full"), "\(full.err)")
        #expect(try Self.snapshot(archive).count > before, "committed batches are kept")
        for c in [["search", "the"], ["chats"], ["stats"], ["items", "--chat", "g-hiking", "--last", "3"]] {
            let r = try ChildProcess.run(cli, c + ["--archive", archive])
            #expect(r.status == 0, "\(c) on a full disk: \(r.err)")
        }
    }

    // MARK: 5. Damage is never silent

    /// Overwrites 2,000 bytes in the middle of a leaf page of `table` with random bytes.
    static func damage(_ archive: String, table: String, seed: UInt64) throws {
        let pages = try DatabaseQueue(path: archive).read { db in
            try Int.fetchAll(
                db, sql: "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno",
                arguments: [table])
        }
        let page = try #require(pages.isEmpty ? nil : pages[pages.count / 2])
        var rng = SplitMix64(seed: seed)
        let noise = (0..<2000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: archive))
        defer { try? h.close() }
        // From just after the page header: the cell pointers are hit whatever the page's fill
        // (noise further in may land in a half-empty page's free space and damage nothing).
        try h.seek(toOffset: UInt64((page - 1) * 8192 + 8))
        h.write(Data(noise))
    }

    @Test(arguments: ["item", "chat"])
    func damageIsReportedNeverAnsweredSilently(table: String) throws {
        let dir = TestTemporary.folder("damage")
        let archive = dir + "/archive.sqlite"
        let corpus = dir + "/corpus.jsonl"
        try #require(
            try ChildProcess.run(ChildProcess.benchBinary, ["--generate", corpus, "--messages", "6000", "--seed", "9"])
                .status == 0)
        try #require(try ChildProcess.run(cli, ["ingest", "--archive", archive, corpus]).status == 0)
        let chat = try #require(
            try ArchiveDatabase(path: archive, mode: .readOnly).writer.read { db in
                try String.fetchOne(db, sql: "SELECT sourceId FROM chat ORDER BY itemCount DESC LIMIT 1")
            })
        let commands: [[String]] = [
            ["search", "--json", "the", "--limit", "200"], ["search", "--json", "a", "--limit", "500"],
            ["chats", "--json", "--limit", "1000"],
            ["items", "--json", "--chat", chat, "--last", "1000"], ["stats", "--json"],
        ]
        let before = try commands.map { try ChildProcess.run(cli, $0 + ["--archive", archive]).out }
        try Self.damage(archive, table: table, seed: 17)
        let bytes = try Self.fileDigest(archive)
        for (k, c) in commands.enumerated() {
            let r = try ChildProcess.run(cli, c + ["--archive", archive])
            #expect(r.signal == nil)
            if r.status == 0 {
                #expect(r.out == before[k], "\(c): exit 0 with other results than before the damage")
            } else {
                #expect(r.status == 1)
                #expect(
                    r.err.contains("is damaged") && r.err.contains("check --repair") && r.err.contains("backup"),
                    "\(c): \(r.err)")
                #expect(!r.err.contains("SELECT"), "raw SQL: \(r.err)")
            }
        }
        let check = try ChildProcess.run(cli, ["check", "--archive", archive])
        #expect(check.status == 1)
        let ingest = try ChildProcess.run(
            cli, ["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-1.jsonl"])
        #expect(ingest.status == 1)
        #expect(ingest.err.contains("is damaged") && ingest.err.contains("nothing was written"), "\(ingest.err)")
        #expect(try Self.fileDigest(archive) == bytes, "the damaged archive was written to")
    }

    /// An archive without page checksums (made before them) bigger than the limit of the quick
    /// check at open (lowered to 0 here) opens without reading the whole file; its check runs in
    /// the background and the first write waits for it: a damaged one is still never written
    /// to, a healthy one takes writes. (One with checksums waits for nothing: `PageChecksumTests`.)
    @Test func aBigArchiveOpensWithoutItsFullCheckAndTheFirstWriteWaitsForIt() async throws {
        let dir = TestTemporary.folder("deferred-check")
        let healthy = dir + "/healthy.sqlite"
        let damaged = dir + "/damaged.sqlite"
        for path in [healthy, damaged] {
            _ = try Archive(path: path, pageChecksums: false).ingestSync([
                TestArchive.corpusPath + "/sample/chats-1.jsonl"
            ])
        }
        try Self.damage(damaged, table: "item", seed: 17)
        let bytes = try Self.fileDigest(damaged)

        let ok = try ArchiveDatabase(path: healthy, mode: .readWrite, fullCheckLimit: 0)
        try ok.verifyBeforeWriting()
        #expect(!ok.isCheckingBeforeWriting)
        try await ok.liveWrite { db in try db.execute(sql: "UPDATE chat SET favorite = 1 WHERE sourceId = 'g-hiking'") }

        let db = try ArchiveDatabase(path: damaged, mode: .readWrite, fullCheckLimit: 0)
        #expect(db.damage == nil, "the damage is in an item page, which the open does not read")
        let chats = try await db.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM chat") }
        #expect(chats ?? 0 > 0, "reads work while the check runs")
        // What every write of the library (ingest, live writes) asks first.
        for _ in 0..<2 {
            #expect {
                try db.verifyBeforeWriting()
            } throws: { e in
                guard let e = e as? ArchiveError else { return false }
                return e.code == .corrupt && e.message.contains("nothing was written")
            }
        }
        #expect(try Self.fileDigest(damaged) == bytes, "the damaged archive was written to")
    }

    // MARK: 6. Newer versions

    @Test(arguments: ["schema", "analyser"])
    func anArchiveFromANewerVersionIsRefusedAndLeftUntouched(kind: String) throws {
        let dir = TestTemporary.folder("newer")
        let archive = dir + "/archive.sqlite"
        try #require(
            try ChildProcess.run(
                cli, ["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-1.jsonl"]
            ).status == 0)
        let q = try TestArchive.rawQueue(archive)
        // The message names both versions: the archive's and the newest this build knows (the
        // last migration it applied to the archive it just created).
        let newestKnown = try #require(
            try q.read { db in
                try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1")
            })
        try q.write { db in
            if kind == "schema" {
                try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v99')")
            } else {
                try db.execute(
                    sql: "UPDATE meta SET value = ? WHERE key = 'analyzerVersion'",
                    arguments: [String(Analyzer.version + 1)])
            }
        }
        try q.close()
        let bytes = try Self.fileDigest(archive)
        let wanted =
            kind == "schema" ? ["v99", newestKnown] : [String(Analyzer.version + 1), String(Analyzer.version)]
        for c in [
            ["search", "the"], ["chats"], ["stats"], ["check"], ["check", "--repair"],
            ["ingest", TestArchive.corpusPath + "/sample/chats-2.jsonl"],
        ] {
            let r = try ChildProcess.run(cli, c + ["--archive", archive])
            #expect(r.status == 1, "\(c)")
            #expect(wanted.allSatisfy { r.err.contains($0) } && r.err.contains("newer"), "\(c): \(r.err)")
        }
        #expect(try Self.fileDigest(archive) == bytes)
    }

    // MARK: 7. Paths

    @Test func badPathsGetOneSentenceAndCreateNothing() throws {
        let dir = TestTemporary.folder("paths")
        let folder = dir + "/folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let dangling = dir + "/dangling.sqlite"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir + "/nowhere.sqlite")
        let underMissing = dir + "/missing/sub/archive.sqlite"
        let typo = dir + "/typo.sqlite"
        let notes = dir + "/notes.txt"
        try Data("Einkaufsliste: Äpfel, 牛奶, خبز\n".utf8).write(to: URL(fileURLWithPath: notes))
        let reads: [[String]] = [
            ["search", "x"], ["chats"], ["items", "--chat", "c", "--last", "3"], ["stats"], ["check"],
        ]
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        for (path, words) in [
            (folder, "is a folder"), (dangling, "symbolic link"), (underMissing, "no archive at"),
            (typo, "no archive at"),
        ] {
            for c in reads {
                let r = try ChildProcess.run(cli, c + ["--archive", path])
                #expect(r.signal == nil, "\(c) \(path) crashed")
                #expect(r.status == 1, "\(c) \(path)")
                #expect(r.err.contains(words), "\(c): \(r.err)")
                #expect(r.err.split(separator: "\n").count == 1, "\(c): \(r.err)")
            }
        }
        for path in [folder, dangling] {
            let r = try ChildProcess.run(
                cli, ["ingest", "--archive", path, TestArchive.corpusPath + "/sample/chats-1.jsonl"])
            #expect(r.signal == nil && r.status == 1, "\(r.err)")
        }
        let missingInput = try ChildProcess.run(cli, ["ingest", "--archive", typo, dir + "/no-such-export.jsonl"])
        #expect(missingInput.status == 1)
        #expect(missingInput.err.contains("no-such-export.jsonl"), "\(missingInput.err)")
        for path in [typo, underMissing] {
            let unrecognised = try ChildProcess.run(cli, ["ingest", "--archive", path, notes])
            #expect(unrecognised.status == 1)
            #expect(unrecognised.err.contains("notes.txt: not a recognised chat export"), "\(unrecognised.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == listing, "something was created")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
