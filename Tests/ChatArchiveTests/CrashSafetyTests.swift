import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Crash safety (issue 6, part 1): the built `chat-archive` is killed with SIGKILL at random
/// points of real ingests, of an index rebuild for a new analyser version, and of
/// `check --repair`. After each kill the archive opens, `check` passes (SQLite's and FTS5's
/// integrity checks and the archive's own), and a resumed ingest ends with exactly the source's
/// items, without duplicates.
///
/// `swift test` runs it at a modest size. `.ci/crash-test` runs the full size (200k messages,
/// at least 20 kills) with a release build, through these environment variables:
/// `CHAT_ARCHIVE_CRASH_MESSAGES`, `CHAT_ARCHIVE_CRASH_KILLS`, `CHAT_ARCHIVE_CRASH_SEED`,
/// `CHAT_ARCHIVE_CRASH_LOG=1` (one line per kill on stdout).
@Suite(.serialized) struct CrashSafetyTests {
    enum Phase: String, CaseIterable {
        /// A first ingest into an empty archive.
        case ingest = "ingest into an empty archive"
        /// Opening an archive whose index another analyser version built (a full rebuild).
        case analyzerRebuild = "index rebuild for a new analyser version"
        /// `check --repair` of an archive whose last rebuild was interrupted.
        case repair = "check --repair"
    }

    struct Config {
        var messages = 12_000
        var kills = 3
        var seed = UInt64.random(in: 1...1_000_000)
        var log = false
        /// The order kills cycle through: mostly ingests, and both kinds of rebuild.
        var cycle: [Phase] = [.ingest, .analyzerRebuild, .repair]

        static var fromEnvironment: Config {
            let env = ProcessInfo.processInfo.environment
            var c = Config()
            if let m = env["CHAT_ARCHIVE_CRASH_MESSAGES"].flatMap(Int.init) { c.messages = m }
            if let k = env["CHAT_ARCHIVE_CRASH_KILLS"].flatMap(Int.init) { c.kills = max(k, 3) }
            if let s = env["CHAT_ARCHIVE_CRASH_SEED"].flatMap(UInt64.init) { c.seed = s }
            c.log = env["CHAT_ARCHIVE_CRASH_LOG"] == "1"
            if c.kills >= 10 { c.cycle = [.ingest, .ingest, .analyzerRebuild, .ingest, .repair] }
            return c
        }
    }

    let config = Config.fromEnvironment
    let cli = ChildProcess.chatArchiveBinary

    func log(_ line: String) {
        guard config.log else { return }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The source's items as `chat US id` keys (U+001F between the ids).
    static func sourceKeys(_ corpus: String) throws -> Set<String> {
        var keys = Set<String>()
        let data = try Data(contentsOf: URL(fileURLWithPath: corpus))
        for line in data.split(separator: 0x0A) where line.starts(with: Array(#"{"kind":"item""#.utf8)) {
            let v = try JSONParser.parse(Array(line))
            guard let chat = v["chatId"]?.stringValue, let id = v["id"]?.stringValue else {
                throw TestFailure("item without ids")
            }
            keys.insert(chat + "\u{1F}" + id)
        }
        return keys
    }

    /// The archive's items as `chat US id` keys, and the number of item rows.
    static func archiveKeys(_ path: String) throws -> (keys: Set<String>, rows: Int) {
        let database = try ArchiveDatabase(path: path, rebuildsStaleIndexes: false)
        let keys = try database.writer.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT chat.sourceId || char(31) || item.sourceId FROM item JOIN chat ON chat.id = item.chatId")
        }
        return (Set(keys), keys.count)
    }

    /// Sets a `meta` value as an older version or an interrupted rebuild would have left it.
    static func setMeta(_ path: String, _ key: String, _ value: String) throws {
        let database = try ArchiveDatabase(path: path, rebuildsStaleIndexes: false)
        try database.writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    static func meta(_ path: String, _ key: String) throws -> String? {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(5)
        let q = try DatabaseQueue(path: path, configuration: config)
        defer { try? q.close() }
        return try q.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
        }
    }

    static func removeArchive(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Starts the child for `phase` and kills it at a random point: for rebuilds, once the
    /// rebuild has begun (the archive says so), after a further random delay. Returns how the
    /// child ended, the delay after its start, and whether it was running the rebuild.
    func killRandomly(
        _ phase: Phase, archive: String, corpus: String, within seconds: Double, rng: inout SystemRandomNumberGenerator
    )
        throws -> (result: ChildProcess.Result, afterMs: Int, inRebuild: Bool)
    {
        let args: [String]
        switch phase {
        case .ingest: args = ["ingest", "--archive", archive, corpus]
        // Commands that only read never rebuild: an ingest (of nothing) opens for writing.
        case .analyzerRebuild:
            args = [
                "ingest", "--archive", archive,
                try TestArchive.writeFile(Lines.chat("crash-reopen") + "\n", name: "reopen.jsonl"),
            ]
        case .repair: args = ["check", "--repair", "--archive", archive]
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let child = try ChildProcess(cli, args)
        var inRebuild = false
        if phase != .ingest {
            // The rebuild's first transaction marks the index incomplete; wait for it.
            while child.isRunning {
                if phase == .analyzerRebuild, (try? Self.meta(archive, "ftsStale")) == "1" {
                    inRebuild = true
                    break
                }
                if phase == .repair { break }  // already marked: the repair is under way
                usleep(2_000)
            }
        }
        let delay = Double.random(in: 0...seconds, using: &rng)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(delay * 1e9)
        while child.isRunning && DispatchTime.now().uptimeNanoseconds < deadline { usleep(1_000) }
        child.kill(SIGKILL)
        let result = child.wait()
        let afterMs = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        return (result, afterMs, inRebuild && result.signal == SIGKILL)
    }

    /// What a creation killed before its end leaves (a `.creating-PID` file of a process that
    /// is gone) is removed by the next creation, and the archive appears only when complete.
    @Test func aKilledCreationLeavesNoArchiveAndItsLeftoversAreRemoved() async throws {
        let dir = TestTemporary.folder("creation")
        let path = dir + "/archive.sqlite"
        let gone = try ChildProcess("/bin/true", [])
        gone.wait()
        let leftover = path + ".creating-\(gone.pid)"
        try Data("SQLite format 3\0 half a file".utf8).write(to: URL(fileURLWithPath: leftover))
        #expect(!FileManager.default.fileExists(atPath: path))
        let archive = try Archive(path: path)
        #expect(try await archive.stats().items == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(!names.contains { $0.contains(".creating-") }, "\(names)")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func killedIngestsAndRebuildsLeaveAHealthyArchiveThatResumes() throws {
        let dir = TestTemporary.folder("crash")
        let corpus = dir + "/corpus.jsonl"
        let archive = dir + "/archive.sqlite"
        let gen = try ChildProcess.run(
            ChildProcess.benchBinary,
            ["--generate", corpus, "--messages", String(config.messages), "--seed", String(config.seed)])
        try #require(gen.status == 0, "\(gen.err)")
        let source = try Self.sourceKeys(corpus)
        try #require(source.count == config.messages)
        log("crash test: \(config.messages) messages (seed \(config.seed)), \(config.kills) kills, binary \(cli)")

        var rng = SystemRandomNumberGenerator()
        // How long each phase runs uninterrupted, learned when a kill comes too late.
        var duration: [Phase: Double] = [.ingest: 4, .analyzerRebuild: 1, .repair: 1]
        var kills = 0
        var attempts = 0
        var killedIn: [Phase: Int] = [:]
        var complete = false
        while kills < config.kills {
            attempts += 1
            try #require(attempts <= config.kills * 6, "could not land \(config.kills) kills")
            var phase = config.cycle[kills % config.cycle.count]
            if phase == .ingest {
                Self.removeArchive(archive)
                complete = false
            } else if !complete {
                phase = .ingest  // a rebuild needs a complete archive: the resume below makes one
            } else if phase == .analyzerRebuild {
                try Self.setMeta(archive, "analyzerVersion", "0")
            } else {
                try Self.setMeta(archive, "ftsStale", "1")
            }
            let (result, afterMs, inRebuild) = try killRandomly(
                phase, archive: archive, corpus: corpus, within: duration[phase, default: 1], rng: &rng)
            if result.signal != SIGKILL {
                // It finished first: it must have succeeded; kill earlier next time.
                #expect(result.status == 0, "\(phase.rawValue) failed without a kill: \(result.err)")
                duration[phase] = max(0.05, Double(afterMs) / 1000 * 0.8)
                log("attempt \(attempts): \(phase.rawValue) finished before the kill (\(afterMs) ms); retrying earlier")
                if phase == .ingest { complete = true }
                continue
            }
            kills += 1
            killedIn[phase, default: 0] += 1
            let partial = (try? Self.archiveKeys(archive))?.rows

            // An archive is created whole or not at all: killed before it was linked into
            // place, the ingest leaves nothing at the path (and no half-made archive).
            var opened = "n/a (no archive)"
            var checked = "n/a"
            if FileManager.default.fileExists(atPath: archive) {
                // 1. The archive opens read-only as it is, and for writing (an interrupted rebuild
                // is redone on opening for writing).
                let read = try ChildProcess.run(cli, ["stats", "--json", "--archive", archive])
                #expect(read.status == 0, "kill \(kills): the archive does not open read-only: \(read.err)")
                let open = try ChildProcess.run(
                    cli,
                    [
                        "ingest", "--json", "--archive", archive,
                        try TestArchive.writeFile(Lines.chat("crash-reopen") + "\n", name: "reopen.jsonl"),
                    ])
                #expect(open.status == 0, "kill \(kills): the archive does not open: \(open.err)")
                // 2. `check` passes.
                let check = try ChildProcess.run(cli, ["check", "--json", "--archive", archive])
                #expect(check.status == 0, "kill \(kills): check fails: \(check.out) \(check.err)")
                opened = open.status == 0 ? "yes" : "NO"
                checked = check.status == 0 ? "ok" : "FAILED"
            } else {
                log("kill \(kills): before the archive existed")
            }
            // 3. A resumed ingest ends with exactly the source's items, no duplicates.
            let resumeStart = DispatchTime.now().uptimeNanoseconds
            let resume = try ChildProcess.run(cli, ["ingest", "--json", "--archive", archive, corpus])
            if phase == .ingest {
                // A resumed ingest of a (nearly) empty archive is as long as a whole one: later
                // kills are spread over all of it, the final merges and checkpoints included.
                duration[.ingest] = max(
                    duration[.ingest, default: 1], Double(DispatchTime.now().uptimeNanoseconds - resumeStart) / 1e9)
            }
            #expect(resume.status == 0, "kill \(kills): the resumed ingest fails: \(resume.err)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
                $0.contains(".creating-")
            }
            #expect(leftovers.isEmpty, "kill \(kills): \(leftovers) left beside the archive")
            let (keys, rows) = try Self.archiveKeys(archive)
            #expect(rows == keys.count, "kill \(kills): \(rows - keys.count) duplicate items")
            #expect(
                keys == source,
                "kill \(kills): \(keys.subtracting(source).count) unknown, \(source.subtracting(keys).count) missing items"
            )
            complete = keys == source
            log(
                "kill \(kills): \(phase.rawValue), SIGKILL after \(afterMs) ms\(inRebuild ? " (during the rebuild)" : ""); "
                    + "items at the kill: \(partial.map(String.init) ?? "n/a"); opens: \(opened); "
                    + "check: \(checked); resumed ingest: \(rows) items, \(rows - keys.count) duplicates, "
                    + "\(keys == source ? "exactly the source's items" : "MISMATCH")")
        }
        #expect(killedIn[.ingest, default: 0] >= 1)
        #expect(killedIn[.analyzerRebuild, default: 0] >= 1)
        #expect(killedIn[.repair, default: 0] >= 1)
        let final = try ChildProcess.run(cli, ["check", "--archive", archive])
        #expect(final.status == 0, "\(final.out)")
        log(
            "done: \(kills) kills (\(killedIn.map { "\($0.value) during \($0.key.rawValue)" }.sorted().joined(separator: ", "))), \(attempts) attempts; final check: \(final.out.trimmingCharacters(in: .whitespacesAndNewlines))"
        )
    }
}
