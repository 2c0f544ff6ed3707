import ChatIndex
import ChatModel
import GRDB

extension MessageSearch {
    /// How many of the newest matches a histogram counts one by one before it estimates the
    /// older periods (see ``SearchHistogram/Estimate``): about what the API's budget per request
    /// affords (SearchPerformance.md in ChatSearch.docc).
    package static let histogramCountedMatches = 4_096
    /// The most matches read in one sampled span of the older periods.
    package static let histogramMatchesPerSpan = 48
    /// The most spans the older periods are sampled in (one per period up to this many), for a
    /// query of at most `histogramSpanTerms` terms; one of more terms gets fewer, since each
    /// span is a statement that sets up every term (SearchPerformance.md in ChatSearch.docc).
    package static let histogramSpans = 16
    /// The terms a query may expand to before its histogram samples fewer spans.
    static let histogramSpanTerms = 4
    /// How far the match rates on the two sides of an unread gap may differ (as a ratio) before
    /// the histogram reads the gap again: beyond it, one side is a burst or the gap holds a change.
    static let histogramRateSpread = 4.0

    /// The matches of a search per period, oldest period first: exact when `exact` or when the
    /// query has at most ``histogramCountedMatches`` matches, otherwise the older periods are
    /// estimated. Any `text` is valid; only an unknown ``SearchOptions/chat`` throws, as
    /// ``search(_:options:in:)`` does. The options' limit, cursor and order do not apply.
    package static func histogram(
        _ text: String, period: HistogramPeriod, exact: Bool, options: SearchOptions, in db: Database
    ) throws -> SearchHistogram {
        guard let run = try SearchRun(text, options: options, db) else {
            return SearchHistogram(period: period, buckets: [], estimate: nil)
        }
        // A chat's activity (no query, no filter) is counted from its items' positions.
        if options.chat != nil, options.content == nil, QueryParser.parse(text).isEmpty,
            let activity = try run.activity(period: period)
        {
            return activity
        }
        return try run.histogram(period: period, exact: exact)
    }
}

extension SearchRun {
    /// The most deleted items a chat's activity reads (beyond, its histogram is the search's).
    static let activityDeletedItems = 2_048

    /// A chat's items per period, exact, without reading them: an item's position in its chat
    /// (`item.pos`, its rank by time) at each period's first item, from one seek into the
    /// chat's time index per period, gives every period's count; the deleted items, few, are
    /// found in the index and left out. Periods hold items by their times (a search's histogram
    /// places a match by its archive id, which is its time but for items that share a
    /// time slot). `nil` for a search it does not answer: not one chat, matches read from the
    /// items (`is:unread`), ``activityDeletedItems`` deleted items or more, or items dated
    /// before 1970 (where ids and times part).
    func activity(period: HistogramPeriod) throws -> SearchHistogram? {
        guard let chats = scope.chatIds, chats.count == 1, let chat = chats.first else { return nil }
        let rows = try HistogramRows(self, scale: try ArchiveIds.scale(db))
        guard rows.isIndexOnly else { return nil }
        // Each deleted item is read (rows from the index, then their ids): a chat with many is
        // left to the search's histogram.
        let deletedRows = try rows.deleted(from: rows.low, below: rows.high, limit: Self.activityDeletedItems)
        guard deletedRows.count < Self.activityDeletedItems else { return nil }
        let deleted = Set(try deletedRows.map { try rows.id(of: $0) })
        // The oldest and newest items not deleted.
        func end(_ order: String) throws -> Int64? {
            let items = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT id, ts FROM item WHERE chatId = ? ORDER BY \(order)"),
                arguments: [chat])
            while let r = try items.next() {
                let id: Int64 = r[0]
                if !deleted.contains(id) { return r[1] }
            }
            return nil
        }
        guard let oldest = try end("ts, id"), let newest = try end("ts DESC, id DESC") else {
            return SearchHistogram(period: period, buckets: [], estimate: nil)
        }
        guard oldest >= 0 else { return nil }
        let count =
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT pos FROM item WHERE chatId = ? ORDER BY ts DESC, id DESC LIMIT 1"),
                arguments: [chat]) ?? 0
        // A deleted item's period, from its id: an item's id is its time, moved later only
        // past items that share its time slot (ArchiveIds), so by fewer slots than the
        // chat holds items. Only an id that close after a period's start is looked up.
        let starts = period.starts(from: oldest, through: newest)
        let scale = rows.scale
        let spill = scale.milliseconds(ofId: count) + scale.millisecondsPerSlot
        let deletedTimes = try deleted.map { id in
            let ms = scale.milliseconds(ofId: id)
            let p = Self.period(holding: ms, in: starts)
            guard ms - starts[p] < spill else { return ms }
            return try Int64.fetchOne(db.cachedStatement(sql: "SELECT ts FROM item WHERE id = ?"), arguments: [id])
                ?? ms
        }.sorted()
        let position = try db.cachedStatement(
            sql: "SELECT pos FROM item WHERE chatId = ? AND ts >= ? ORDER BY ts, id LIMIT 1")
        /// The position of the first item at or after `ms` (one past the last when none is).
        func first(at ms: Int64) throws -> Int64 {
            try Int64.fetchOne(position, arguments: [chat, ms]) ?? count + 1
        }
        /// The deleted items before `ms`.
        func deletedBefore(_ ms: Int64) -> Int {
            var (lo, hi) = (0, deletedTimes.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if deletedTimes[mid] < ms { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        var buckets: [SearchHistogram.Bucket] = []
        var (atStart, deletedAtStart) = (try first(at: starts[0]), deletedBefore(starts[0]))
        for (i, start) in starts.enumerated() {
            let next = i + 1 < starts.count ? starts[i + 1] : period.end(ofPeriodAt: start)
            let (atNext, deletedAtNext) = (try first(at: next), deletedBefore(next))
            buckets.append(
                SearchHistogram.Bucket(
                    start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: next),
                    count: Int(atNext - atStart) - (deletedAtNext - deletedAtStart), isExact: true))
            (atStart, deletedAtStart) = (atNext, deletedAtNext)
        }
        return SearchHistogram(period: period, buckets: buckets, estimate: nil)
    }
}

extension SearchRun {
    /// See ``MessageSearch/histogram(_:period:exact:options:in:)``.
    ///
    /// Archive ids follow time, and so do a keyed chat's keys, so the newest matches come from
    /// the index newest first without reading any item, and a period is a range of rows; the
    /// deleted matches among them are found apart (few, a seek each). An estimated span is one
    /// seek into the index and a bounded read.
    func histogram(period: HistogramPeriod, exact: Bool) throws -> SearchHistogram {
        let scale = try ArchiveIds.scale(db)
        let counted = options.histogramCountedMatches
        let rows = try HistogramRows(self, scale: scale)
        let walked = try rows.newest(count: exact ? Int.max : counted + 1)
        let isComplete = exact || walked.count <= counted
        let counting = isComplete ? walked[...] : walked.prefix(counted)
        guard let newestRow = walked.first, let splitRow = counting.last else {
            return SearchHistogram(period: period, buckets: [], estimate: nil)
        }
        // Every live match at or above `splitRow` is counted; the older ones are estimated.
        let deleted = try rows.deleted(among: counting.count, from: isComplete ? rows.low : splitRow, below: rows.high)
        let live = counting.filter { !deleted.contains($0) }
        guard !live.isEmpty || !isComplete else { return SearchHistogram(period: period, buckets: [], estimate: nil) }
        let newestId = try rows.id(of: live.first ?? newestRow)
        let split = try rows.id(of: splitRow)
        let oldestId =
            try isComplete
            ? rows.id(of: live[live.endIndex - 1])
            : ascending(from: compiled.minRowid, below: split, count: 1, scale: scale, indexOnly: false).first ?? split
        let starts = period.starts(
            from: scale.milliseconds(ofId: oldestId), through: scale.milliseconds(ofId: newestId))
        var counts = [Double](repeating: 0, count: starts.count)
        var isExact = [Bool](repeating: true, count: starts.count)
        // Newest first: a row below its period's first row belongs to an older period, found by
        // its id (in a keyed chat, one lookup per period that holds matches, not per match).
        var p = starts.count - 1
        var bound = try rows.first(ofPeriodAt: starts[p])
        for row in live {
            if p > 0 && row < bound {
                p = Self.period(holding: scale.milliseconds(ofId: try rows.id(of: row)), in: starts)
                bound = try rows.first(ofPeriodAt: starts[p])
            }
            counts[p] += 1
        }
        var estimate: SearchHistogram.Estimate? = nil
        if !isComplete {
            // The rate of the counted matches: the right side of the oldest estimated gap.
            let newer = Double(counting.count) / Double(max(1, newestId - split + 1))
            let sample = try sampleOlder(
                from: oldestId, below: split, newer: newer, scale: scale, periods: starts, period: period,
                rows: rows)
            for p in starts.indices {
                counts[p] += sample.counts[p]
                isExact[p] = isExact[p] && sample.isExact[p]
            }
            if isExact.contains(false) {
                estimate = SearchHistogram.Estimate(
                    countedMatches: live.count, sampledMatches: sample.read, sampledSpans: sample.spans,
                    matchesPerSpan: options.histogramMatchesPerSpan)
            }
        }
        let buckets = starts.indices.map { p in
            SearchHistogram.Bucket(
                start: Timestamp(milliseconds: starts[p]),
                end: Timestamp(milliseconds: period.end(ofPeriodAt: starts[p])),
                count: Int(counts[p].rounded()), isExact: isExact[p])
        }
        return SearchHistogram(period: period, buckets: buckets, estimate: estimate)
    }

    /// The index of the period that holds millisecond `ms` among periods starting at `starts`
    /// (the first when `ms` is before them all).
    static func period(holding ms: Int64, in starts: [Int64]) -> Int {
        var (lo, hi) = (0, starts.count - 1)
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= ms { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The matches in `[lower, upper)` per period, from reads at a few points and the rest
    /// estimated. The range is cut into spans of whole periods; from the start of each, the
    /// first `matchesPerSpan` matches are read and counted where they fall (a span that holds
    /// fewer is exact). What a read leaves of its span, the gap up to the next read, holds the
    /// matches' rate times its length, spread over the periods it overlaps. A search costs FTS5 a
    /// parse of its expression and a seek per term, so the reads are few whatever the periods
    /// (weeks over years share them: see SearchPerformance.md).
    ///
    /// A gap's rate comes from the reads on both sides of it, so that a burst does not stand
    /// for the time after it: items that share a millisecond (exports that keep only minutes
    /// or dates) take consecutive ids, and matches read from one would show a rate of one per
    /// millisecond. Where the two sides differ by more than ``MessageSearch/histogramRateSpread``,
    /// the gap is read again at its middle (the widest disagreement first, up to a quarter as many
    /// extra reads as spans); a gap left so takes the lower side's rate, and one that agrees
    /// their mean. The last gap's right side is `newer`, the rate of the counted matches.
    ///
    /// Reads come from the index alone when `rows` do: an estimated gap counts deleted matches
    /// as any (they are few), an exact span looks them up and leaves them out.
    private func sampleOlder(
        from lower: Int64, below upper: Int64, newer: Double, scale: ArchiveIds.Scale, periods starts: [Int64],
        period: HistogramPeriod, rows: HistogramRows
    ) throws -> (counts: [Double], isExact: [Bool], read: Int, spans: Int) {
        let slot = { (ms: Int64) in scale.slotBase(milliseconds: ms) }
        let ranges = starts.map { slot($0)..<slot(period.end(ofPeriodAt: $0)) }
        var counts = [Double](repeating: 0, count: starts.count)
        var isExact = [Bool](repeating: true, count: starts.count)
        // Spans start at period bounds, so that a burst in one period is not spread over others;
        // with more periods than spans, each span holds several whole periods.
        let older = ranges.indices.filter { ranges[$0].lowerBound < upper && ranges[$0].upperBound > lower }
        let terms = max(MessageSearch.histogramSpanTerms, compiled.termCount)
        let affordable = max(4, options.histogramSpans * MessageSearch.histogramSpanTerms / terms)
        let spans = max(1, min(options.histogramSpans, affordable, older.count))
        let perSpan = options.histogramMatchesPerSpan
        var bounds = [lower]
        for j in 1..<spans {
            let b = ranges[older[older.count * j / spans]].lowerBound
            if let last = bounds.last, b > last, b < upper { bounds.append(b) }
        }
        bounds.append(upper)
        /// The period that holds id `x` (the first when `x` is below them all), by binary search.
        func index(_ x: Int64) -> Int {
            var (lo, hi) = (0, ranges.count - 1)
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if ranges[mid].lowerBound <= x { lo = mid } else { hi = mid - 1 }
            }
            return lo
        }
        var read = 0
        var reads = 0
        /// Reads `[a, b)` from its start: counts the matches read and returns the first id not
        /// read (`b` when the span is exact) and the rate they show, `nil` when they are packed
        /// into fewer time slots than twice their number (a burst shows no rate).
        func sample(_ a: Int64, _ b: Int64) throws -> (rate: Double?, reach: Int64) {
            let ids = try ascending(from: a, below: b, count: perSpan, scale: scale, indexOnly: rows.isIndexOnly)
            read += ids.count
            reads += 1
            let isFull = ids.count == perSpan && perSpan > 0
            let deleted = ids.isEmpty || isFull ? [] : try rows.deletedIds(from: a, below: b)
            for id in ids where !deleted.contains(id) { counts[index(id)] += 1 }
            guard isFull, let first = ids.first, let last = ids.last, last + 1 < b else {
                return (Double(ids.count) / Double(max(1, b - a)), b)
            }
            let isPacked = (last - first) / scale.idsPerSlot < 2 * Int64(ids.count)
            return (isPacked ? nil : Double(ids.count) / Double(max(1, last + 1 - a)), last + 1)
        }
        /// The unread ids `[from, to)` between reads with rates `left` and `right`.
        struct Gap {
            var from: Int64, to: Int64, left: Double?, right: Double?
            /// How many times the higher side's rate is the lower's (infinite when a side is
            /// unknown or the lower is zero).
            var spread: Double {
                guard let left, let right else { return .infinity }
                let (low, high) = (min(left, right), max(left, right))
                return high == 0 ? 1 : low > 0 ? high / low : .infinity
            }
            /// What reading it again may change: its length when a side is unknown (ranked
            /// above any other), else its length times the sides' difference.
            var doubt: (Int, Double) {
                guard let left, let right else { return (1, Double(to - from)) }
                return (0, Double(to - from) * abs(left - right))
            }
        }
        var gaps: [Gap] = []
        var pending: (from: Int64, to: Int64, left: Double?)? = nil
        for j in 0..<(bounds.count - 1) {
            let (rate, reach) = try sample(bounds[j], bounds[j + 1])
            if let p = pending { gaps.append(Gap(from: p.from, to: p.to, left: p.left, right: rate)) }
            pending = reach < bounds[j + 1] ? (reach, bounds[j + 1], rate) : nil
        }
        if let p = pending { gaps.append(Gap(from: p.from, to: p.to, left: p.left, right: newer)) }
        // Gaps with an unknown side or sides that disagree, read again at their middle, the
        // most doubtful first.
        var extra = max(2, spans / 4)
        while extra > 0,
            let k = gaps.indices.filter({
                gaps[$0].spread > MessageSearch.histogramRateSpread && gaps[$0].to - gaps[$0].from > 2
            }).max(by: { gaps[$0].doubt < gaps[$1].doubt })
        {
            extra -= 1
            let g = gaps.remove(at: k)
            let mid = g.from + (g.to - g.from) / 2
            let (rate, reach) = try sample(mid, g.to)
            var parts = [Gap(from: g.from, to: mid, left: g.left, right: rate)]
            if reach < g.to { parts.append(Gap(from: reach, to: g.to, left: rate, right: g.right)) }
            gaps.insert(contentsOf: parts, at: k)
        }
        for g in gaps {
            // Sides that agree: their mean; that disagree: the lower (a burst is not spread);
            // none known: the counted matches' rate, taken over a long time.
            let rate: Double
            switch (g.left, g.right) {
            case (let l?, let r?): rate = g.spread > MessageSearch.histogramRateSpread ? min(l, r) : (l + r) / 2
            case (let l?, nil): rate = l
            case (nil, let r?): rate = r
            case (nil, nil): rate = newer
            }
            for p in index(g.from)...index(g.to - 1) {
                let overlap = min(g.to, ranges[p].upperBound) - max(g.from, ranges[p].lowerBound)
                guard overlap > 0 else { continue }
                counts[p] += rate * Double(overlap)
                isExact[p] = false
            }
        }
        return (counts, isExact, read, reads)
    }

    /// Up to `count` matches with archive ids in `[lower, upper)`, oldest first: from the index
    /// alone (deleted ones among them) when `indexOnly`, else live ones read with their items.
    func ascending(from lower: Int64, below upper: Int64, count: Int, scale: ArchiveIds.Scale, indexOnly: Bool) throws
        -> [Int64]
    {
        if let keyed {
            let low = try keyed.slotKeyBound(id: lower, scale: scale, db)
            let high = try keyed.slotKeyBound(id: upper, scale: scale, db)
            return try compiled.statement(
                indexOnly ? CompiledQuery.keyedIdsSQL : compiled.keyedMatchesSQL(descending: false), db
            ).int64s(arguments: [compiled.match, high, low, count])
        }
        return try db.cachedStatement(
            sql: indexOnly
                ? CompiledQuery.indexRowsSQL(keyed: false, descending: false)
                : compiled.matchesSQL(ascending: true) + " LIMIT ?"
        ).int64s(arguments: [compiled.match, upper, lower, count])
    }
}

/// The rows a histogram walks: archive ids in the time-ordered index, or keys in a keyed chat's
/// (which follow ids), read from the index alone unless the search needs the items
/// (`is:unread`), in which case they are the live matches' ids.
struct HistogramRows {
    let run: SearchRun
    let scale: ArchiveIds.Scale
    /// The search's rows, `[low, high)`.
    let low: Int64
    let high: Int64
    /// Whether rows come from the index alone, deleted matches among them.
    let isIndexOnly: Bool
    /// The keyed chat whose keys the rows are.
    let keyed: KeyedChat?

    init(_ run: SearchRun, scale: ArchiveIds.Scale) throws {
        self.run = run
        self.scale = scale
        // Phrases an index without positions cannot match are checked on the items' text.
        isIndexOnly = !run.compiled.requiresUnread && run.compiled.checks == nil
        keyed = isIndexOnly ? run.keyed : nil
        if let keyed {
            (low, high) = try keyed.keyRange(lower: run.compiled.minRowid, upper: run.compiled.maxRowid, run.db)
        } else {
            (low, high) = (run.compiled.minRowid, run.compiled.maxRowid)
        }
    }

    /// The newest `count` rows, newest first.
    func newest(count: Int) throws -> [Int64] {
        guard isIndexOnly else { return try run.newest(below: high, count: count) }
        return try run.db.cachedStatement(sql: CompiledQuery.indexRowsSQL(keyed: keyed != nil)).int64s(arguments: [
            run.compiled.match, high, low, count,
        ])
    }

    /// The rows in `[lower, upper)` whose items are deleted, up to `limit` of them, newest
    /// first (none read when rows are live).
    func deleted(from lower: Int64, below upper: Int64, limit: Int = .max) throws -> Set<Int64> {
        guard isIndexOnly, run.compiled.excludesDeleted else { return [] }
        return Set(
            try run.db.cachedStatement(sql: CompiledQuery.indexRowsSQL(keyed: keyed != nil)).int64s(arguments: [
                run.compiled.deletedMatch, upper, lower, limit,
            ]))
    }

    /// Rows in `[lower, upper)` whose items are deleted, for telling apart the deleted ones
    /// among `count` rows of the search there: every deleted item of the range, read alone,
    /// when there are few beside `count` (a seek into each of the query's lists per deleted item
    /// costs more than reading one), else the deleted matches (as ``deleted(from:below:limit:)``).
    func deleted(among count: Int, from lower: Int64, below upper: Int64) throws -> Set<Int64> {
        guard isIndexOnly, run.compiled.excludesDeleted else { return [] }
        // A query of every item asks for the deleted tag alone anyway (``CompiledQuery/deletedMatch``).
        if run.compiled.match == run.compiled.everythingMatch { return try deleted(from: lower, below: upper) }
        let few = count / 4 + 64
        // Oldest first: FTS5 walks a list up faster than down (SearchPerformance.md).
        let items = try run.db.cachedStatement(sql: CompiledQuery.indexRowsSQL(keyed: keyed != nil, descending: false))
            .int64s(arguments: [run.compiled.deletedItemsMatch, upper, lower, few + 1])
        return items.count <= few ? Set(items) : try deleted(from: lower, below: upper)
    }

    /// The archive ids of the deleted matches with ids in `[lower, upper)` (none when rows are
    /// live, or the search includes deleted items).
    func deletedIds(from lower: Int64, below upper: Int64) throws -> Set<Int64> {
        guard isIndexOnly, run.compiled.excludesDeleted else { return [] }
        if let keyed {
            let low = try keyed.slotKeyBound(id: lower, scale: scale, run.db)
            let high = try keyed.slotKeyBound(id: upper, scale: scale, run.db)
            return Set(
                try run.db.cachedStatement(sql: CompiledQuery.keyedIdsSQL).int64s(arguments: [
                    run.compiled.deletedMatch, high, low, Int.max,
                ]))
        }
        return try deleted(from: lower, below: upper)
    }

    /// The archive id of a row.
    func id(of row: Int64) throws -> Int64 {
        guard let keyed else { return row }
        return try keyed.id(ofKey: row, run.db) ?? row
    }

    /// The first row of the period that starts at millisecond `start`.
    func first(ofPeriodAt start: Int64) throws -> Int64 {
        let id = scale.slotBase(milliseconds: start)
        guard let keyed else { return id }
        return try keyed.slotKeyBound(id: id, scale: scale, run.db)
    }
}
