import ArgumentParser
import ChatArchive
import ChatIndex
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-archive-bench",
        abstract: "Measure ingest and query performance against baselines run in the same process on the same data.",
        discussion: """
            Generates a deterministic multilingual corpus, ingests it, builds a bare FTS5 unicode61 index of
            the same text, then measures query latency (p50/p99) against SimpleX's LIKE '%q%' scan.
            """)

    @Option(help: "Number of messages to generate.") var messages = 100_000
    @Option(help: "Number of chats (default: messages / 100, at least 20).") var chats: Int?
    @Option(help: "PRNG seed.") var seed: UInt64 = 42
    @Option(help: "Repetitions per query class.") var repeats = 200
    @Option(
        help:
            "Time each read K times, in K rounds over a row's calls, and keep each call's fastest: percentiles of the calls' own costs, without the host's pauses (the noise row)."
    ) var rounds = 1
    @Option(help: "Work folder (default: a temporary one, removed afterwards).") var dir: String?
    @Flag(help: "Keep the work folder.") var keep = false
    @Flag(help: "Print JSON instead of a table.") var json = false
    @Flag(
        inversion: .prefixedNo,
        help: "Also build the infix design we did not keep (an FTS5 trigram index of the texts) and measure it.")
    var alternatives = true
    @Option(help: "Only write the generated corpus (JSON Lines) to this path, then exit.") var generate: String?
    @Option(
        help:
            "Ingest this JSON Lines file instead of a generated corpus (the build rows on real text; --messages is then unused)."
    )
    var corpus: String?
    @Option(help: "Only write a generated Telegram Desktop result.json of --telegram-mb MiB to this path, then exit.")
    var generateTelegram: String?
    @Option(help: "Size of the Telegram export --generate-telegram writes, in MiB.") var telegramMb = 2048
    @Flag(help: "With --dir: reuse the archive a kept run left there and measure queries only.") var reuse = false
    @Option(help: "With --dir and --reuse: run only this search, --repeats times (for profiling).") var query: String?
    @Option(help: "With --query: restrict it to this chat (source id).") var queryChat: String?
    @Flag(
        help:
            "With --query: time its count instead (k of N: up to the library's limit, with the place of the first page's oldest hit)."
    )
    var queryCount = false
    @Option(help: "With --dir and --reuse: only measure around(random item, 50) windows in this chat (source id).")
    var windowChat: String?
    @Option(help: "With --dir and --reuse: only measure the chat-list name search for this text.") var chatSearch:
        String?
    @Flag(help: "With --dir and --reuse: only measure the web app's API (server time per route, p50/p99).") var api =
        false
    @Option(
        help:
            "With --dir and --reuse: only time this API request (ROUTE?NAME=VALUE&…, values as typed), --repeats times (for profiling)."
    ) var apiRequest: String?
    @Flag(
        help: "With --dir and --reuse: only measure the full bench's chat-list row (3-letter fragments of every name).")
    var chatList = false
    @Option(help: "With --dir and --reuse: run this SQL on the archive (tokenizer registered) and print the rows.")
    var sql: String?
    @Flag(help: "With --sql: run it --repeats times and print its latency instead of its rows.") var timed = false
    @Flag(help: "With --dir and --reuse: only compare estimated histograms with exact ones, per month.")
    var histogramAccuracy = false
    @Option(help: "With --histogram-accuracy: the newest matches counted one by one.") var histogramCounted: Int?
    @Option(help: "With --histogram-accuracy: the most spans the older periods are sampled in.")
    var histogramSpans: Int?
    @Option(help: "With --histogram-accuracy: the most matches read in one span.") var histogramPerSpan: Int?
    @Flag(help: "With --reuse: measure our queries only, not SimpleX's LIKE scan beside them.") var noLike = false
    @Flag(
        help:
            "Only measure read latency (p50/p99) while --messages are ingested, against the same reads with no writer.")
    var readersDuringIngest = false
    @Flag(
        help:
            "Measure ingest, the bare baseline and the rebuild only (no queries): the build rows at 10M in minutes, not hours."
    )
    var ingestOnly = false
    @Flag(
        inversion: .prefixedNo,
        help:
            "Ingest with the messages' text compressed with a trained dictionary (`ingest --compress-text`; by default as the library's default)."
    )
    var compressText: Bool? = nil
    @Option(help: "With --readers-during-ingest: reader threads.") var readers = 2
    @Option(help: "With --readers-during-ingest: pause of each reader between reads, in ms.") var readerPauseMs = 5
    @Flag(
        help:
            "With --dir and --reuse: only measure live writes, observation and mention autocomplete (adds to the archive)."
    )
    var live = false
    @Flag(help: "With --live: only time single-message upserts (for profiling the write path alone).")
    var upsertOnly = false
    @Flag(help: "Build the archive without page checksums (the baseline of their cost).")
    var noChecksums = false
    @Flag(
        help:
            "Read checksummed pages through the memory map, verified at their first fetch in each read transaction (the default)."
    )
    var mappedChecksums = false
    @Flag(help: "Read checksummed pages into each reader's cache instead of through the memory map.")
    var unmappedChecksums = false

    func run() throws {
        // As `chat-archive` starts, so that the ingest runs as the command line runs it (the bare
        // build in the same process shares the setting).
        Archive.prepareProgram()
        Latency.rounds = max(1, rounds)
        if mappedChecksums { ArchivePages.mapsPages(true) }
        if unmappedChecksums { ArchivePages.mapsPages(false) }
        let fm = FileManager.default
        if let generateTelegram {
            print(
                try TelegramExportGenerator(seed: seed, targetBytes: Int64(telegramMb) << 20).write(
                    to: generateTelegram))
            return
        }
        if let generate {
            let summary = try CorpusGenerator(seed: seed, messages: messages, chats: chats ?? max(20, messages / 100))
                .write(to: generate)
            print(
                "\(summary.items) messages in \(summary.chats) chats, \(summary.textBytes) bytes of text → \(generate)")
            return
        }
        let work = dir ?? fm.temporaryDirectory.appendingPathComponent("chat-archive-bench-\(getpid())").path
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { if !keep && dir == nil { try? fm.removeItem(atPath: work) } }
        var report = BenchReport(messages: messages)
        if reuse, let dir, FileManager.default.fileExists(atPath: dir + "/archive.sqlite") {
            try runReused(dir: dir, report: &report)
            return
        }
        if readersDuringIngest {
            try runReadersDuringIngest(work: work)
            return
        }
        try runFull(work: work, report: &report)
    }

    /// With --reuse: measures what the flags ask for on the archive a kept run left in `dir`.
    func runReused(dir: String, report: inout BenchReport) throws {
        let archive = try Archive(path: dir + "/archive.sqlite")
        // The archive's own size, not --messages (which a reused run does not generate).
        report.messages = try archive.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT sum(itemCount) FROM chat") ?? 0
        }
        // A big archive's quick check runs in the background after the open (ChatArchive's
        // ServingPerformance has how long): measure queries after it, not beside it. The live
        // bench times what is left of it as its first write.
        if !live && (sql == nil || timed) { try archive.database.verifyBeforeWriting() }
        if try runSQL(on: archive) { return }
        // Each term of a query seeks every segment of the index, so query figures depend on how
        // merged the kept archive is (live runs leave merges for an app's idle time).
        if let segments = try archive.database.writer.read({ db in try FullTextSegments.read(db) }) {
            let merging = segments.merging.filter { $0 > 0 }.count
            let pages = segments.levels.filter { !$0.isEmpty }.map { $0.map(String.init).joined(separator: "+") }
            report.note(
                "full-text segments",
                "\(segments.count) (leaf pages per level: \(pages.joined(separator: ", "))), \(merging) merge(s) in progress"
            )
        }
        if let chatSearch {
            let l = try Latency.measure(repeats: repeats) { _ in
                try archive.database.writer.read { db in
                    try ChatList.chats(matching: chatSearch, limit: 50, in: db).count
                }
            }
            print("chat list \(chatSearch): p50 \(fmt(l.p50)) ms, p99 \(fmt(l.p99)) ms, \(l.hits) rows")
            return
        }
        if histogramAccuracy {
            try HistogramBench(
                archive: archive, repeats: repeats, counted: histogramCounted, spans: histogramSpans,
                perSpan: histogramPerSpan
            ).run()
            return
        }
        if let apiRequest {
            try APIBench(archive: archive, repeats: repeats, seed: seed).run(apiRequest, into: &report)
            if json { print(report.json) } else { print(report.table) }
            return
        }
        if api {
            report.addNoiseRow(repeats: repeats)
            try APIBench(archive: archive, repeats: repeats, seed: seed).run(into: &report)
            if json { print(report.json) } else { print(report.table) }
            return
        }
        if try runChatListOrWindow(on: archive) { return }
        if live {
            report.addNoiseRow(repeats: repeats)
            try LiveBench(archive: archive, repeats: repeats, seed: seed, upsertOnly: upsertOnly).run(into: &report)
            if json { print(report.json) } else { print(report.table) }
            return
        }
        if let query {
            let options = SearchOptions(chat: queryChat, limit: 50)
            let db = archive.database.writer
            let oldest = try db.read { db in
                try MessageSearch.search(query, options: options, in: db).hits.last?.item.id
            }
            let l = try Latency.measure(repeats: repeats) { _ in
                try db.read { db in
                    guard queryCount else {
                        return try MessageSearch.search(query, options: options, in: db).hits.count
                    }
                    return try MessageSearch.count(
                        query, options: options, positionOf: oldest, limit: SearchCount.defaultLimit, in: db
                    ).total
                }
            }
            print("\(query): p50 \(fmt(l.p50)) ms, p99 \(fmt(l.p99)) ms")
            return
        }
        try QueryBench(archive: archive, repeats: repeats, seed: seed, withLike: !noLike).run(into: &report)
        try APIBench(archive: archive, repeats: repeats, seed: seed).run(into: &report)
        if json { print(report.json) } else { print(report.table) }
    }

    /// With --sql: runs the SQL (timed, or printing its rows); whether it did.
    func runSQL(on archive: Archive) throws -> Bool {
        if let sql, timed {
            // A statement that writes runs as one write transaction per repeat.
            let writes = !sql.trimmingCharacters(in: .whitespaces).uppercased().hasPrefix("SELECT")
            let l = try Latency.measure(repeats: repeats) { _ in
                writes
                    ? try archive.database.writer.write { db in try Row.fetchAll(db, sql: sql).count }
                    : try archive.database.writer.read { db in try Row.fetchAll(db, sql: sql).count }
            }
            print("p50 \(fmt(l.p50)) ms, p99 \(fmt(l.p99)) ms, \(l.hits) rows: \(sql)")
            return true
        }
        if let sql {
            try archive.database.writer.writeWithoutTransaction { db in
                let statements = try db.allStatements(sql: sql)
                while let statement = try statements.next() {
                    for row in try Row.fetchAll(statement) { print(row.description) }
                }
            }
            return true
        }
        return false
    }

    /// With --chat-list or --window-chat: measures that row alone; whether it did.
    func runChatListOrWindow(on archive: Archive) throws -> Bool {
        if chatList {
            if let (label, l, b, _) = try QueryBench(archive: archive, repeats: repeats, seed: seed).chatListRow() {
                print(
                    "\(label): p50 \(fmt(l.p50)) ms, p99 \(fmt(l.p99)) ms; LIKE p50 \(fmt(b?.p50 ?? 0)) ms, p99 \(fmt(b?.p99 ?? 0)) ms"
                )
            }
            return true
        }
        if let windowChat {
            let ids = try archive.database.writer.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT item.id FROM item JOIN chat ON chat.id = item.chatId WHERE chat.sourceId = ?",
                    arguments: [windowChat])
            }
            guard !ids.isEmpty else { throw ValidationError("no items in chat \(windowChat)") }
            var rng = SplitMix(seed: seed)
            let drawn = (0..<max(1, repeats)).map { _ in ids[Int(rng.next() % UInt64(ids.count))] }
            let l = try Latency.measure(repeats: repeats) { i in
                let id = drawn[i]
                return try archive.database.writer.read { db in
                    try ItemWindows.window(chat: windowChat, .around(id, count: 50), in: db).items.count
                }
            }
            print(
                "around(id, 50) in \(windowChat) (\(ids.count) items): p50 \(fmt(l.p50)) ms, p99 \(fmt(l.p99)) ms")
            return true
        }
        return false
    }

    /// With --readers-during-ingest: read latency while the corpus is ingested.
    func runReadersDuringIngest(work: String) throws {
        let fm = FileManager.default
        let corpusPath = work + "/corpus.jsonl"
        if !(reuse && fm.fileExists(atPath: corpusPath)) {
            let summary = try CorpusGenerator(
                seed: seed, messages: messages, chats: chats ?? max(20, messages / 100)
            ).write(to: corpusPath)
            print("corpus: \(summary.items) messages in \(summary.chats) chats")
        }
        try ReadersDuringIngestBench(
            corpusPath: corpusPath, archivePath: work + "/archive.sqlite", readers: readers,
            pauseMicroseconds: UInt32(max(0, readerPauseMs) * 1000), seed: seed
        ).run()
    }

    /// What an ingest left for the steps after it.
    struct Ingested {
        var archive: Archive
        var archivePath: String
        var textBytes: Int
        var seconds: Double
        var cpu: Double
    }

    /// The full bench: corpus, ingest, baselines, rebuild, queries and live writes.
    func runFull(work: String, report: inout BenchReport) throws {
        var alternativeIndex: DatabaseQueue? = nil
        let ingested = try generateAndIngest(work: work, report: &report)
        let (archive, archivePath) = (ingested.archive, ingested.archivePath)
        let (baseQueue, texts) = try buildBaseline(work: work, ingested: ingested, report: &report)

        // 3b. The infix design not kept: a trigram index of every text (SQLite's own tokenizer).
        if alternatives {
            try buildTrigram(baseQueue, texts: texts, textBytes: ingested.textBytes, report: &report)
            alternativeIndex = baseQueue
        }

        // 4. Rebuild of the indexes (what a new analyser version costs).
        let t3 = Clock.now
        let walDuringRebuild = PeakFileSize(archivePath + "-wal")
        try archive.database.rebuildIndexes()
        let rebuildWALPeak = walDuringRebuild.stop()
        report.row(
            "rebuild FTS + vocabulary from stored text", seconds: Clock.seconds(since: t3),
            extra: "WAL peak \(Files.mb(rebuildWALPeak)) MiB")
        report.values["rebuildWALPeakBytes"] = Double(rebuildWALPeak)
        report.values["rebuildSeconds"] = Clock.seconds(since: t3)

        if ingestOnly {
            if json { print(report.json) } else { print(report.table) }
            return
        }

        // 5. Queries.
        try QueryBench(archive: archive, repeats: repeats, seed: seed, trigram: alternativeIndex).run(into: &report)
        try APIBench(archive: archive, repeats: repeats, seed: seed).run(into: &report)

        // 6. Live writes, observation and mention autocomplete (after the queries: they add items).
        try LiveBench(archive: archive, repeats: repeats, seed: seed).run(into: &report)

        if json { print(report.json) } else { print(report.table) }
        if keep || dir != nil { FileHandle.standardError.write(Data("work folder: \(work)\n".utf8)) }
    }

    /// Generates the corpus and ingests it through the whole pipeline, with their report rows.
    func generateAndIngest(work: String, report: inout BenchReport) throws -> Ingested {
        let fm = FileManager.default
        // 1. Corpus: generated, or the file given.
        let corpusPath = corpus ?? work + "/corpus.jsonl"
        var generatedTextBytes: Int? = nil
        if corpus == nil {
            let chatCount = chats ?? max(20, messages / 100)
            let t0 = Clock.now
            let summary = try CorpusGenerator(seed: seed, messages: messages, chats: chatCount).write(to: corpusPath)
            generatedTextBytes = summary.textBytes
            report.note(
                "corpus",
                "\(summary.items) messages in \(summary.chats) chats, \(summary.textBytes) bytes of text, generated in \(fmt(Clock.seconds(since: t0))) s"
            )
        }
        let fileBytes = (try fm.attributesOfItem(atPath: corpusPath)[.size] as? NSNumber)?.int64Value ?? 0

        // 2. Ingest through the whole pipeline.
        let archivePath = work + "/archive.sqlite"
        try? fm.removeItem(atPath: archivePath)
        let rssBefore = Memory.peakRSS()
        let t1 = Clock.now
        let cpu1 = Memory.cpuSplit()
        let archive = try Archive(path: archivePath, pageChecksums: !noChecksums)
        let walDuringIngest = PeakFileSize(archivePath + "-wal")
        var ingestOptions = IngestOptions()
        if let compressText { ingestOptions.compressesText = compressText }
        let ingest = try archive.ingestSync([corpusPath], options: ingestOptions)
        let walPeak = walDuringIngest.stop()
        let ingestSeconds = Clock.seconds(since: t1)
        let cpu2 = Memory.cpuSplit()
        let (userCPU, systemCPU) = (cpu2.user - cpu1.user, cpu2.system - cpu1.system)
        let ingestCPU = userCPU + systemCPU
        let rssPeak = Memory.peakRSS()
        // The archive at rest: WAL copied back and truncated.
        try archive.database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let archiveBytes = Files.size(archivePath) + Files.size(archivePath + "-wal")
        // A given file's text: its messages' display text as the archive holds it.
        let (items, chatCount, storedTextBytes) = try archive.database.writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM chat") ?? 0,
                try Int.fetchOne(db, sql: "SELECT sum(length(CAST(chat_text(text) AS BLOB))) FROM item") ?? 0
            )
        }
        let textBytes = generatedTextBytes ?? storedTextBytes
        if let corpus {
            report.messages = items
            report.note("corpus", "\(corpus): \(items) messages in \(chatCount) chats, \(textBytes) bytes of text")
        }
        report.row(
            "ingest: chat-archive (read, parse, markdown, normalise, tokenize, write)", seconds: ingestSeconds,
            extra:
                "\(Int(Double(ingest.itemsAdded) / ingestSeconds)) msg/s, \(fmt(Double(fileBytes) / 1e6 / ingestSeconds)) MB/s, archive \(Files.mb(archiveBytes)) MiB (\(fmt(Double(archiveBytes) / Double(textBytes)))× text), peak RSS \(rssPeak / 1_048_576) MiB (before \(rssBefore / 1_048_576) MiB), WAL peak \(Files.mb(walPeak)) MiB, CPU \(fmt(ingestCPU)) s"
        )
        // Where the time went (WritePerformance, "Where an ingest's time goes").
        let timing = ingest.timing
        report.row(
            "ingest: where the time went", seconds: ingestSeconds,
            extra:
                "writer thread busy \(fmt(timing.writing)) s, reading thread waited \(fmt(timing.waiting)) s for it, after the last batch (final merge) \(fmt(timing.finishing)) s; CPU user \(fmt(userCPU)) s, system \(fmt(systemCPU)) s; log written \(Files.mb(timing.logBytes)) MiB (\(fmt(Double(timing.logBytes) / Double(max(1, archiveBytes))))× the archive)"
        )
        report.values["ingestWriterSeconds"] = timing.writing
        report.values["ingestReaderWaitSeconds"] = timing.waiting
        report.values["ingestFinishSeconds"] = timing.finishing
        report.values["ingestUserCPUSeconds"] = userCPU
        report.values["ingestSystemCPUSeconds"] = systemCPU
        report.values["ingestLogBytes"] = Double(timing.logBytes)
        report.values["ingestSeconds"] = ingestSeconds
        report.values["ingestMessagesPerSecond"] = Double(ingest.itemsAdded) / ingestSeconds
        report.values["archiveBytes"] = Double(archiveBytes)
        report.values["textBytes"] = Double(textBytes)
        report.values["peakRSSBytes"] = Double(rssPeak)
        report.values["ingestWALPeakBytes"] = Double(walPeak)

        return Ingested(
            archive: archive, archivePath: archivePath, textBytes: textBytes, seconds: ingestSeconds,
            cpu: ingestCPU)
    }

    /// Builds a bare FTS5 unicode61 index of the same texts, with its report rows; it and the texts.
    func buildBaseline(work: String, ingested: Ingested, report: inout BenchReport) throws -> (
        DatabaseQueue, [String]
    ) {
        let fm = FileManager.default
        let (archive, ingestSeconds, ingestCPU) = (ingested.archive, ingested.seconds, ingested.cpu)
        // 3. Baseline: bare FTS5 unicode61 over the same texts, in the same process.
        let texts = try archive.database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT chat_text(text) FROM item ORDER BY id")
        }
        let basePath = work + "/baseline.sqlite"
        try? fm.removeItem(atPath: basePath)
        let baseQueue = try DatabaseQueue(path: basePath)
        try baseQueue.writeWithoutTransaction { db in
            try db.execute(
                sql:
                    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE VIRTUAL TABLE base USING fts5(text, tokenize='unicode61')"
            )
        }
        let t2 = Clock.now
        let cpu2 = Memory.cpuSeconds()
        for start in stride(from: 0, to: texts.count, by: 20_000) {
            let end = min(texts.count, start + 20_000)
            try baseQueue.write { db in
                let st = try db.makeStatement(sql: "INSERT INTO base(rowid, text) VALUES (?, ?)")
                for j in start..<end { try st.execute(arguments: [j + 1, texts[j]]) }
            }
        }
        let baseSeconds = Clock.seconds(since: t2)
        let baseCPU = Memory.cpuSeconds() - cpu2
        let baseBytes = Files.size(basePath) + Files.size(basePath + "-wal")
        report.row(
            "ingest: baseline bare FTS5 unicode61 (texts in memory)", seconds: baseSeconds,
            extra:
                "\(Int(Double(texts.count) / baseSeconds)) msg/s, index \(Files.mb(baseBytes)) MiB, CPU \(fmt(baseCPU)) s"
        )
        report.values["baselineSeconds"] = baseSeconds
        report.values["ingestRatio"] = ingestSeconds / baseSeconds
        report.values["ingestCPUSeconds"] = ingestCPU
        report.values["baselineCPUSeconds"] = baseCPU
        report.note(
            "ingest ratio",
            "\(fmt(ingestSeconds / baseSeconds))× the bare unicode61 build in wall time (target ≤ 4×, issue #38), \(fmt(ingestCPU / baseCPU))× in CPU time (both cores; the machine's load does not inflate it)"
        )

        return (baseQueue, texts)
    }

    /// Builds an FTS5 trigram index of the texts beside the baseline, with its report row.
    func buildTrigram(_ baseQueue: DatabaseQueue, texts: [String], textBytes: Int, report: inout BenchReport) throws {
        try baseQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE tri USING fts5(text, content='', tokenize='trigram')")
        }
        let t = Clock.now
        for start in stride(from: 0, to: texts.count, by: 20_000) {
            let end = min(texts.count, start + 20_000)
            try baseQueue.write { db in
                let st = try db.makeStatement(sql: "INSERT INTO tri(rowid, text) VALUES (?, ?)")
                for j in start..<end { try st.execute(arguments: [j + 1, texts[j]]) }
            }
        }
        let triSeconds = Clock.seconds(since: t)
        let triBytes = try baseQueue.read { db in
            try Int64.fetchOne(db, sql: "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'tri%'") ?? 0
        }
        report.row(
            "alternative: FTS5 trigram index of the texts (infix design not kept)", seconds: triSeconds,
            extra:
                "\(Int(Double(texts.count) / triSeconds)) msg/s, index \(Files.mb(triBytes)) MiB (\(fmt(Double(triBytes) / Double(textBytes)))× text) on top of the word index"
        )
        report.values["trigramSeconds"] = triSeconds
        report.values["trigramBytes"] = Double(triBytes)
    }
}
