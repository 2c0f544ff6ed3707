import ChatIndex
import ChatModel
import GRDB

extension MessageSearch {
    /// How many of the newest matches a histogram counts one by one before it estimates the
    /// older periods (see ``SearchHistogram/Estimate``): about what the API's budget per request
    /// affords (SearchPerformance.md in ChatSearch.docc).
    package static let histogramCountedMatches = 4_096
    /// The most matches read in one sampled span of the older periods.
    package static let histogramMatchesPerSpan = 32
    /// The most spans the older periods are sampled in (one per period up to this many).
    static let histogramSpans = 32

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
        return try run.histogram(period: period, exact: exact)
    }
}

extension SearchRun {
    /// See ``MessageSearch/histogram(_:period:exact:options:in:)``.
    ///
    /// Archive ids follow time, so the newest matches come from the index newest first without
    /// reading any item, and a period is a range of ids; an estimated span is one seek into the
    /// index and a bounded read.
    func histogram(period: HistogramPeriod, exact: Bool) throws -> SearchHistogram {
        let scale = try ArchiveIds.scale(db)
        let counted = options.histogramCountedMatches
        let newest = try self.newest(below: compiled.maxRowid, count: exact ? Int.max : counted + 1)
        guard let newestId = newest.first, var oldestId = newest.last else {
            return SearchHistogram(period: period, buckets: [], estimate: nil)
        }
        let isComplete = exact || newest.count <= counted
        let exactIds = isComplete ? newest[...] : newest.prefix(counted)
        // Every match at or above `split` is counted; the older ones are estimated.
        let split = exactIds[exactIds.endIndex - 1]
        if !isComplete {
            oldestId = try ascending(from: compiled.minRowid, below: split, count: 1, scale: scale).first ?? split
        }
        var starts: [Int64] = []
        var start = period.start(of: oldestId / scale)
        let last = period.start(of: newestId / scale)
        while start <= last {
            starts.append(start)
            start = period.end(ofPeriodAt: start)
        }
        var counts = [Double](repeating: 0, count: starts.count)
        var isExact = [Bool](repeating: true, count: starts.count)
        var p = starts.count - 1
        for id in exactIds {
            while p > 0 && id / scale < starts[p] { p -= 1 }
            counts[p] += 1
        }
        var estimate: SearchHistogram.Estimate? = nil
        if !isComplete {
            let sample = try sampleOlder(from: oldestId, below: split, scale: scale, periods: starts, period: period)
            for p in starts.indices {
                counts[p] += sample.counts[p]
                isExact[p] = isExact[p] && sample.isExact[p]
            }
            if isExact.contains(false) {
                estimate = SearchHistogram.Estimate(
                    countedMatches: exactIds.count, sampledMatches: sample.read, sampledSpans: sample.spans,
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

    /// The matches in `[lower, upper)` per period, from a few spans read in full and the rest
    /// estimated: the range is cut into spans of whole periods, and in each the first `matchesPerSpan`
    /// matches are read (a span that holds fewer is exact) and counted where they fall; the rest of
    /// a span is its matches' rate times its length, spread over the periods it overlaps. A
    /// search costs FTS5 a parse of its expression and a seek per term, so the spans are few
    /// whatever the periods (weeks over years share them: see SearchPerformance.md).
    private func sampleOlder(
        from lower: Int64, below upper: Int64, scale: Int64, periods starts: [Int64], period: HistogramPeriod
    ) throws -> (counts: [Double], isExact: [Bool], read: Int, spans: Int) {
        let slot = { (ms: Int64) in ArchiveIds.slotBase(milliseconds: ms, scale: scale) }
        let ranges = starts.map { slot($0)..<slot(period.end(ofPeriodAt: $0)) }
        var counts = [Double](repeating: 0, count: starts.count)
        var isExact = [Bool](repeating: true, count: starts.count)
        // Spans start at period bounds, so that a burst in one period is not spread over others;
        // with more periods than spans, each span holds several whole periods.
        let older = ranges.indices.filter { ranges[$0].lowerBound < upper && ranges[$0].upperBound > lower }
        let spans = max(1, min(MessageSearch.histogramSpans, older.count))
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
        for j in 0..<(bounds.count - 1) {
            let (a, b) = (bounds[j], bounds[j + 1])
            let ids = try ascending(from: a, below: b, count: perSpan, scale: scale)
            read += ids.count
            for id in ids { counts[index(id)] += 1 }
            guard ids.count == perSpan, let lastRead = ids.last, lastRead > a, lastRead + 1 < b else { continue }
            // The unread rest of the span at the rate of the matches read: n - 1 gaps over the
            // ids from the span's start to the last one read.
            let rate = Double(perSpan - 1) / Double(lastRead - a)
            for p in index(lastRead + 1)...index(b - 1) {
                let overlap = min(b, ranges[p].upperBound) - max(lastRead + 1, ranges[p].lowerBound)
                guard overlap > 0 else { continue }
                counts[p] += rate * Double(overlap)
                isExact[p] = false
            }
        }
        return (counts, isExact, read, bounds.count - 1)
    }

    /// Up to `count` matches with archive ids in `[lower, upper)`, oldest first.
    func ascending(from lower: Int64, below upper: Int64, count: Int, scale: Int64) throws -> [Int64] {
        if let keyed {
            let low = try keyed.slotKeyBound(id: lower, scale: scale, db)
            let high = try keyed.slotKeyBound(id: upper, scale: scale, db)
            return try Int64.fetchAll(
                db.cachedStatement(sql: compiled.keyedMatchesSQL(descending: false)),
                arguments: [compiled.match, high, low, count])
        }
        return try Int64.fetchAll(
            db.cachedStatement(sql: compiled.matchesSQL(ascending: true) + " LIMIT ?"),
            arguments: [compiled.match, upper, lower, count])
    }
}
