import ChatArchive
import Dispatch
import Foundation
import GRDB

/// Live writes as an app makes them, in an archive of the bench's size: one new message, a
/// batch of 1,000 against the ingest path, mark-read of 10,000 unread items, search right after
/// an upsert returns, the delay from a write's return to an observer's new value, and mention
/// autocomplete in a group of 10,000 members.
struct LiveBench {
    let archive: Archive
    let repeats: Int
    let seed: UInt64
    /// Only single-message upserts (a clean profile of the write path).
    var upsertOnly = false

    private var writer: any DatabaseWriter { archive.database.writer }

    /// Writes as an app does, through `Archive.upsert(items:)` (its live-write transaction, its
    /// checkpoint policy), waited for from the bench's synchronous code.
    private func upsert(_ items: [Item]) throws {
        try awaited { archive in try await archive.upsert(items: items) }
    }

    /// Runs a call of the façade and waits for it from the bench's synchronous code.
    private func awaited(_ call: @escaping @Sendable (Archive) async throws -> Void) throws {
        let archive = self.archive
        let failure = Failure()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await call(archive) } catch { failure.error = error }
            done.signal()
        }
        done.wait()
        if let error = failure.error { throw error }
    }

    private final class Failure: @unchecked Sendable {
        var error: (any Error)?
    }

    /// The state the live measurements share: the item counter, the PRNG and the log's peak.
    private final class LiveState {
        let seed: UInt64
        let startTs: Int64
        let logPath: String
        var rng: SplitMix
        var n = 0
        var logPeak: Int64 = 0

        init(seed: UInt64, startTs: Int64, logPath: String) {
            self.seed = seed
            self.startTs = startTs
            self.logPath = logPath
            rng = SplitMix(seed: seed ^ 0x11FE)
        }

        /// The next new item of `chat`, a second after the previous one.
        func nextItem(_ chat: String, text: String, unread: Bool = true) -> Item {
            n += 1
            return Item(
                chatSourceId: chat, sourceId: "live-\(seed)-\(startTs)-\(n)",
                timestamp: Timestamp(milliseconds: startTs + Int64(n) * 1_000),
                direction: .rcv, senderName: "Livia", content: MessageContent(type: .text, text: text), isUnread: unread
            )
        }

        /// Samples the write-ahead log's size into its peak.
        func sampleLog() {
            let size = (try? FileManager.default.attributesOfItem(atPath: logPath)[.size]) as? NSNumber
            logPeak = max(logPeak, size?.int64Value ?? 0)
        }

        /// Notes the write-ahead log's peak in `report`.
        func noteLogPeak(into report: inout BenchReport) {
            report.note("live: write-ahead log peak during the upserts", "\(fmt(Double(logPeak) / 1_048_576)) MiB")
        }
    }

    func run(into report: inout BenchReport) throws {
        // The biggest chat receives the new messages (the worst case for positions and counters).
        guard
            let big = try writer.read({ db in
                try String.fetchOne(db, sql: "SELECT sourceId FROM chat ORDER BY itemCount DESC LIMIT 1")
            })
        else { return }
        let startTs = try writer.read { db in try Int64.fetchOne(db, sql: "SELECT max(ts) FROM item") ?? 0 } + 60_000
        // The write-ahead log's size between upserts: live writes keep it near
        // `Checkpointer.liveFrameLimit` frames.
        let live = LiveState(seed: seed, startTs: startTs, logPath: archive.database.path + "-wal")

        // The first write after opening: with page checksums it waits for no check; without, for
        // SQLite's quick check over the whole file (a damaged archive is never written to). A
        // one-time cost, reported apart from the steady state.
        let firstStart = Clock.now
        try upsert([live.nextItem(big, text: "first write after opening")])
        report.note(
            "live: first write after opening (\(archive.hasPageChecksums == true ? "page checksums" : "quick check of the file"))",
            "\(fmt(Clock.seconds(since: firstStart) * 1_000)) ms")

        if upsertOnly {
            let one = try Latency.measure(repeats: repeats, rounds: 1, between: live.sampleLog) { _ in
                try upsert([live.nextItem(big, text: "another new message, plain text \(live.rng.next() % 1000)")])
                return 1
            }
            report.latencies.append((name: "live: upsert one new message", ours: one, baseline: nil, baselineName: ""))
            let segments = try writer.read { db in try FullTextSegments.read(db)?.count ?? 0 }
            report.note("live: full-text segments after the upserts", "\(segments)")
            live.noteLogPeak(into: &report)
            return
        }
        try measureUpserts(live, big: big, into: &report)
        try measureIdleMerge(into: &report)
        try measureBatches(live, big: big, into: &report)
        try measureMarkRead(live, into: &report)
        // 5. From a write's return to the observer's new value.
        let observed = ObservedTimes()
        let observer = Task {
            for try await window in archive.observeItems(in: big, window: .last(50)) {
                observed.record(window.items.last?.sourceId ?? "")
            }
        }
        defer { observer.cancel() }
        try measureObserver(live, big: big, observed: observed, into: &report)
        try measureAutocomplete(live, into: &report)
    }

    /// Single-message upserts, alone and with a search that finds them, and the call's own cost.
    private func measureUpserts(_ live: LiveState, big: String, into report: inout BenchReport) throws {
        // 1. One new message per transaction; 4. found by search as soon as the call returns.
        var found = 0
        let one = try Latency.measure(repeats: repeats, rounds: 1) { i in
            let token = "zqlive\(seed)x\(live.startTs)x\(i)x\(live.n)"
            try upsert([live.nextItem(big, text: "new message \(token) with *markdown* and 東京 😂")])
            let hits = try writer.read { db in
                try MessageSearch.search(token, options: SearchOptions(chat: big), in: db).hits.count
            }
            if hits == 1 { found += 1 }
            return hits
        }
        // The search is inside the timed call above; time the upsert alone as well.
        let oneAlone = try Latency.measure(repeats: repeats, rounds: 1, between: live.sampleLog) { _ in
            try upsert([live.nextItem(big, text: "another new message, plain text \(live.rng.next() % 1000)")])
            return 1
        }
        report.latencies.append((name: "live: upsert one new message", ours: oneAlone, baseline: nil, baselineName: ""))
        // What the call costs around its transaction: an async read of nothing through the same
        // database, waited for the same way.
        let hop = try Latency.measure(repeats: repeats, rounds: 1) { _ in
            try awaited { archive in _ = try await archive.database.writer.write { _ in 0 } }
            return 1
        }
        report.latencies.append(
            (
                name: "live: empty write transaction through the same call path", ours: hop, baseline: nil,
                baselineName: ""
            ))
        report.latencies.append(
            (name: "live: upsert one + search finds it", ours: one, baseline: nil, baselineName: ""))
        report.note("live: search right after upsert", "found \(found) of \(repeats + 1) new messages at once")
        live.noteLogPeak(into: &report)
        report.values["liveUpsertP50ms"] = oneAlone.p50
        report.values["liveUpsertP99ms"] = oneAlone.p99
        report.values["liveSearchFoundAll"] = found == repeats + 1 ? 1 : 0
    }

    /// The full-text segments the upserts left, and the idle steps that merge them.
    private func measureIdleMerge(into report: inout BenchReport) throws {
        // 1b. The full-text segments the upserts left (live writes leave merging to idle time),
        // and the steps that merge them, each a transaction a live write may wait for.
        let segmentsLeft = try writer.read { db in try FullTextSegments.read(db)?.count ?? 0 }
        var steps: [Double] = []
        while steps.count < 20_000 {
            let t = DispatchTime.now().uptimeNanoseconds
            let merged = try archive.database.mergeIdleSegments()
            steps.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
            if !merged { break }
        }
        let segmentsMerged = try writer.read { db in try FullTextSegments.read(db)?.count ?? 0 }
        steps.sort()
        report.latencies.append(
            (
                name: "live: one idle merge step (\(steps.count) steps)",
                ours: Latency(
                    p50: steps[steps.count / 2], p99: steps[min(steps.count - 1, steps.count * 99 / 100)], hits: 0),
                baseline: nil, baselineName: ""
            ))
        report.note(
            "live: full-text segments after the upserts",
            "\(segmentsLeft), \(segmentsMerged) after the idle merge steps")
    }

    /// Upsert batches of 1,000 against the ingest writer on the same kind of items.
    private func measureBatches(_ live: LiveState, big: String, into report: inout BenchReport) throws {
        // 2. A batch of 1,000 per item, against the ingest writer on the same kind of items.
        let batchRounds = max(3, min(10, repeats / 20))
        var batchSeconds = 0.0
        for _ in 0..<batchRounds {
            let items = (0..<1_000).map { k in
                live.nextItem(big, text: "batch message \(k) über café 東京 \(live.rng.next() % 100_000)")
            }
            let t = Clock.now
            try upsert(items)
            batchSeconds += Clock.seconds(since: t)
        }
        let ingestItems = (0..<(batchRounds * 1_000)).map { k in
            live.nextItem(big, text: "batch message \(k) über café 東京 \(live.rng.next() % 100_000)")
        }
        let t = Clock.now
        let ingestWriter = try ArchiveWriter(database: archive.database)
        for item in ingestItems { try ingestWriter.add(item) }
        _ = try ingestWriter.finish()
        let ingestSeconds = Clock.seconds(since: t)
        let livePerItem = batchSeconds / Double(batchRounds * 1_000) * 1e6
        let ingestPerItem = ingestSeconds / Double(ingestItems.count) * 1e6
        report.row(
            "live: upsert batches of 1,000 (\(batchRounds) batches) vs the ingest writer on \(ingestItems.count) items",
            seconds: batchSeconds,
            extra:
                "\(fmt(livePerItem)) µs per item live, \(fmt(ingestPerItem)) µs per item ingest (\(fmt(livePerItem / ingestPerItem))×)"
        )
        report.values["liveBatchMicrosPerItem"] = livePerItem
        report.values["ingestWriterMicrosPerItem"] = ingestPerItem
    }

    /// Mark-read of a chat with 10,000 unread items, made unread again between runs.
    private func measureMarkRead(_ live: LiveState, into report: inout BenchReport) throws {
        // 3. Mark-read of a chat with 10,000 unread items.
        let unreadChat = "live-unread-\(seed)"
        try writer.write { db in
            try LiveUpsert(chats: [Chat(sourceId: unreadChat, type: .group, displayName: "Busy group")]).write(
                to: archive.database, db)
        }
        for _ in 0..<10 { try upsert((0..<1_000).map { k in live.nextItem(unreadChat, text: "unread \(k)") }) }
        // Untimed before each call: every item of the chat unread again, behind the writer's
        // back (flags set, the chat's read mark removed), with the counters `stats` and the chat
        // list show.
        let unreadAgain = {
            try writer.write { db in
                let chatId = try Int64.fetchOne(
                    db, sql: "SELECT id FROM chat WHERE sourceId = ?", arguments: [unreadChat])
                let before =
                    try Int64.fetchOne(db, sql: "SELECT unreadCount FROM chat WHERE id = ?", arguments: [chatId]) ?? 0
                try db.execute(
                    sql: "UPDATE item SET flags = flags | 4 WHERE chatId = ? AND \(ItemFlags.sql(clear: .unread))",
                    arguments: [chatId])
                try db.execute(
                    sql: "UPDATE chat SET unreadCount = itemCount, readTs = ?2, readId = ?2 WHERE id = ?1",
                    arguments: [chatId, Int64.min])
                let after =
                    try Int64.fetchOne(db, sql: "SELECT unreadCount FROM chat WHERE id = ?", arguments: [chatId]) ?? 0
                try ArchiveCounters.add(after - before, to: ArchiveCounters.unreadItems, db)
            }
        }
        let markRead = try Latency.measure(repeats: max(10, repeats / 10), rounds: 1, between: unreadAgain) { _ in
            try awaited { archive in try await archive.markRead(chat: unreadChat) }
            return 0
        }
        report.latencies.append(
            (name: "live: mark read 10,000 unread items", ours: markRead, baseline: nil, baselineName: ""))
        report.values["liveMarkReadP99ms"] = markRead.p99
    }

    /// The delay from a write's return to the value of `observed`'s observer.
    private func measureObserver(
        _ live: LiveState, big: String, observed: ObservedTimes, into report: inout BenchReport
    ) throws {
        _ = observed.wait(for: nil)
        var delays: [Double] = []
        for _ in 0..<max(20, repeats / 2) {
            let item = live.nextItem(big, text: "observed message")
            try upsert([item])
            let returned = Clock.now
            guard let seen = observed.wait(for: item.sourceId) else { continue }
            delays.append(Double(seen > returned ? seen - returned : 0) / 1e6)  // seen before the call returned: 0
        }
        delays.sort()
        if !delays.isEmpty {
            let l = Latency(
                p50: delays[delays.count / 2], p99: delays[min(delays.count - 1, Int(Double(delays.count) * 0.99))],
                hits: delays.count)
            report.latencies.append(
                (name: "live: write return → observer value (.last(50))", ours: l, baseline: nil, baselineName: ""))
            report.values["liveObserverP99ms"] = l.p99
        }
    }

    /// Mention autocomplete in a group of 10,000 members, a fifth of whom wrote.
    private func measureAutocomplete(_ live: LiveState, into report: inout BenchReport) throws {
        // 6. Mention autocomplete in a group of 10,000 members, a fifth of whom wrote.
        let group = "live-members-\(seed)"
        let syllables = [
            "an", "ma", "zo", "lu", "ka", "ri", "to", "el", "sa", "mi", "ko", "ne", "ła", "ë", "ja", "de", "vi", "ro",
        ]
        func name() -> String {
            var s = ""
            for _ in 0..<(2 + Int(live.rng.next() % 3)) {
                s += syllables[Int(live.rng.next() % UInt64(syllables.count))]
            }
            return s.prefix(1).uppercased() + s.dropFirst()
        }
        var members: [Member] = []
        for k in 0..<10_000 {
            members.append(
                Member(
                    chatSourceId: group, sourceId: "p\(k)", displayName: name(),
                    fullName: k % 3 == 0 ? name() + " " + name() : "",
                    hasLeft: k % 50 == 0))
        }
        try writer.write { db in
            try LiveUpsert(chats: [Chat(sourceId: group, type: .group, displayName: "Big group")], members: members)
                .write(to: archive.database, db)
        }
        for b in 0..<2 {
            try upsert(
                (0..<1_000).map { k in
                    var item = live.nextItem(group, text: "hello \(k)")
                    item.senderName = nil
                    item.memberSourceId = "p\((b * 1_000 + k) * 5)"
                    return item
                })
        }
        let prefixes = (0..<64).map { _ -> String in
            let s =
                syllables[Int(live.rng.next() % UInt64(syllables.count))]
                + syllables[Int(live.rng.next() % UInt64(syllables.count))]
            return String(s.prefix(1 + Int(live.rng.next() % 3)))
        }
        let autocomplete = try Latency.measure(repeats: repeats) { i in
            try writer.read { db in
                try MemberSearch.members(chat: group, matching: prefixes[i % prefixes.count], limit: 10, in: db).count
            }
        }
        let rare = try Latency.measure(repeats: max(10, repeats / 4)) { _ in
            try writer.read { db in try MemberSearch.members(chat: group, matching: "qqz", limit: 10, in: db).count }
        }
        report.latencies.append(
            (name: "live: members autocomplete, 10,000 members", ours: autocomplete, baseline: nil, baselineName: ""))
        report.latencies.append(
            (name: "live: members autocomplete, no match (full walk)", ours: rare, baseline: nil, baselineName: ""))
        report.values["liveAutocompleteP99ms"] = autocomplete.p99
    }
}

/// When the observer saw each item as the newest of its window.
private final class ObservedTimes: @unchecked Sendable {
    private let condition = NSCondition()
    private var seen: [String: UInt64] = [:]
    private var count = 0

    func record(_ newest: String) {
        condition.lock()
        if seen[newest] == nil { seen[newest] = Clock.now }
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits (up to 5 s) until the observer has seen `item` as newest (`nil`: any first value).
    func wait(for item: String?) -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(5)
        while true {
            if let item, let t = seen[item] { return t }
            if item == nil && count > 0 { return Clock.now }
            if !condition.wait(until: deadline) { return nil }
        }
    }
}
