import ChatModel

/// The length of a histogram's periods, in UTC.
public enum HistogramPeriod: String, Sendable, Hashable, CaseIterable {
    /// Calendar months, from the first day at 00:00 UTC.
    case month
    /// Weeks from Monday 00:00 UTC (ISO 8601 weeks).
    case week

    private static let day: Int64 = 86_400_000

    /// The start of the period that holds `milliseconds` (UTC).
    package func start(of milliseconds: Int64) -> Int64 {
        let days = Self.floorDivide(milliseconds, Self.day)
        switch self {
        case .month:
            let c = Timestamp(milliseconds: days * Self.day).components
            return Timestamp.days(year: c.year, month: c.month, day: 1) * Self.day
        case .week:
            // Day 0, 1970-01-01, was a Thursday: three days after a Monday.
            return (days - Self.floorModulo(days + 3, 7)) * Self.day
        }
    }

    /// The start of the period after the one that starts at `start`.
    package func end(ofPeriodAt start: Int64) -> Int64 {
        switch self {
        case .week: return start + 7 * Self.day
        case .month:
            let c = Timestamp(milliseconds: start).components
            let (year, month) = c.month == 12 ? (c.year + 1, 1) : (c.year, c.month + 1)
            return Timestamp.days(year: year, month: month, day: 1) * Self.day
        }
    }

    /// The starts of the periods from the one that holds `first` to the one that holds `last`.
    package func starts(from first: Int64, through last: Int64) -> [Int64] {
        var starts: [Int64] = []
        var start = self.start(of: first)
        while start <= last {
            starts.append(start)
            start = end(ofPeriodAt: start)
        }
        return starts
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
    private static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivide(a, b) * b }
}

/// How many items a search matches per period: a picture of when something was said.
///
/// Periods run from the one holding the oldest match to the one holding the newest, empty ones
/// included. Counts follow the search's own rules (an item is in a period when its archive id
/// is, as for `after:` and `before:`), so a period's count is what the search narrowed to it with
/// `after:START before:END` finds. A frequent query's older periods may be estimated (see
/// ``estimate``): counting every match of a word in a large archive costs more than a request may.
public struct SearchHistogram: Sendable, Hashable {
    /// One period and its count.
    public struct Bucket: Sendable, Hashable {
        /// The period's first instant.
        public var start: Timestamp
        /// The next period's first instant.
        public var end: Timestamp
        /// The matches in the period (estimated when ``isExact`` is false).
        public var count: Int
        /// Whether ``count`` is exact.
        public var isExact: Bool

        /// A bucket (for previews and tests of apps that embed the library).
        public init(start: Timestamp, end: Timestamp, count: Int, isExact: Bool) {
            self.start = start
            self.end = end
            self.count = count
            self.isExact = isExact
        }
    }

    /// How the counts of a histogram that is not exact were estimated.
    ///
    /// The newest ``countedMatches`` matches were counted one by one. The time before them, back
    /// to the oldest match, was cut into spans at period bounds (one period each, or several when
    /// there are more periods than spans), and ``sampledSpans`` reads of up to ``matchesPerSpan``
    /// matches each were counted where they fall: one at each span's start, and more inside
    /// spans whose rates were in doubt. A span a read covers is exact; the unread rest of one is
    /// estimated from the match rates the reads on either side show, spread over the periods it
    /// overlaps (those periods' ``Bucket/isExact`` is false).
    public struct Estimate: Sendable, Hashable {
        /// The newest matches, counted exactly.
        public var countedMatches: Int
        /// The matches read in the sampled spans.
        public var sampledMatches: Int
        /// The reads of the older time: one per span, and one more per gap read again.
        public var sampledSpans: Int
        /// The most matches read in one span.
        public var matchesPerSpan: Int

        /// An estimate's description (for previews and tests of apps that embed the library).
        public init(countedMatches: Int, sampledMatches: Int, sampledSpans: Int, matchesPerSpan: Int) {
            self.countedMatches = countedMatches
            self.sampledMatches = sampledMatches
            self.sampledSpans = sampledSpans
            self.matchesPerSpan = matchesPerSpan
        }
    }

    /// The periods' length.
    public var period: HistogramPeriod
    /// The periods, oldest first (empty when nothing matches).
    public var buckets: [Bucket]
    /// How the counts were estimated; `nil` when every count is exact.
    public var estimate: Estimate?

    /// Whether every count is exact.
    public var isExact: Bool { estimate == nil }
    /// The sum of the counts.
    public var total: Int { buckets.reduce(0) { $0 + $1.count } }

    /// A histogram (for previews and tests of apps that embed the library).
    public init(period: HistogramPeriod, buckets: [Bucket], estimate: Estimate?) {
        self.period = period
        self.buckets = buckets
        self.estimate = estimate
    }
}
