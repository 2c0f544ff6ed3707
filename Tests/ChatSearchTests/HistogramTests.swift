import ChatArchive
import ChatIndex
import ChatTestSupport
import Foundation
import Testing

@testable import ChatSearch

/// A histogram counts what the search finds, per UTC month or ISO week, from the index.
@Suite struct HistogramTests {
    /// 400 items of "tide N" in chat `h1`, one every 9 hours from 2023-11-01; in chat `h2` one
    /// sentence per script and items on either side of period bounds, one deleted.
    static let fixture = Result {
        var lines = [Lines.chat("h1", name: "Tides"), Lines.chat("h2", name: "Scripts")]
        let start = Timestamp(year: 2023, month: 11, day: 1)?.milliseconds ?? 0
        for n in 0..<400 {
            let ts = Timestamp(milliseconds: start + Int64(n) * 9 * 3_600_000).rfc3339
            lines.append(Lines.item("h1", "t\(n)", ts: ts, text: "tide \(n) " + (n % 3 == 0 ? "spring" : "neap")))
        }
        for (k, text) in TextSamples.scripts.enumerated() {
            lines.append(Lines.item("h2", "s\(k)", ts: "2024-0\(1 + k % 6)-1\(k % 9)T12:00:00Z", text: text))
        }
        lines += [
            Lines.item("h2", "b1", ts: "2024-01-31T23:59:59.999Z", text: "edge january"),
            Lines.item("h2", "b2", ts: "2024-02-01T00:00:00Z", text: "edge february"),
            // 23:00 UTC on February 29th, though March in its own zone.
            Lines.item("h2", "b3", ts: "2024-03-01T01:00:00+02:00", text: "edge leap"),
            // Sunday 2024-03-03 23:59 and Monday 2024-03-04 00:00, UTC.
            Lines.item("h2", "b4", ts: "2024-03-03T23:59:00Z", text: "edge sunday"),
            Lines.item("h2", "b5", ts: "2024-03-04T00:00:00Z", text: "edge monday"),
            Lines.item("h2", "b6", ts: "2024-03-05T10:00:00Z", text: "edge gone", deleted: true),
        ]
        return try TestArchive.make(jsonl: lines.joined(separator: "\n")).0
    }

    static let utc: Calendar = {
        var c = Calendar(identifier: .iso8601)
        c.timeZone = TimeZone(identifier: "UTC") ?? c.timeZone
        return c
    }()

    /// The start of the UTC month or ISO week holding `t`, by Foundation's calendar.
    static func periodStart(_ t: Timestamp, _ period: HistogramPeriod) -> Int64 {
        let date = Date(timeIntervalSince1970: Double(t.milliseconds) / 1000)
        let unit: Calendar.Component = period == .month ? .month : .weekOfYear
        let start = utc.dateInterval(of: unit, for: date)?.start ?? date
        return Int64((start.timeIntervalSince1970 * 1000).rounded())
    }

    /// Every hit of the search fetched, counted per period: what the histogram must say.
    static func fetchedCounts(_ query: String, _ period: HistogramPeriod, options: SearchOptions) async throws
        -> [Int64: Int]
    {
        var o = options
        o.limit = 10_000
        let hits = try await fixture.get().search(query, options: o).hits
        return Dictionary(grouping: hits) { periodStart($0.item.timestamp, period) }.mapValues(\.count)
    }

    /// The non-empty periods of a histogram, and checks that its periods are contiguous.
    static func counts(_ h: SearchHistogram) -> [Int64: Int] {
        for (a, b) in zip(h.buckets, h.buckets.dropFirst()) { #expect(a.end == b.start, "contiguous periods") }
        for b in h.buckets { #expect(periodStart(b.start, h.period) == b.start.milliseconds, "starts a period") }
        return Dictionary(
            uniqueKeysWithValues: h.buckets.filter { $0.count > 0 }.map { ($0.start.milliseconds, $0.count) })
    }

    static let queries =
        ["", "tide", "spring", "edge", "-spring tide", "\"tide 1\"", "ti"]
        + TextSamples.scripts.map {
            String($0.split(separator: " ").first ?? "")
        }

    @Test(arguments: queries, [nil, "h1", "h2"] as [String?])
    func countsEqualTheFetchedHitsPerPeriod(_ query: String, chat: String?) async throws {
        let archive = try Self.fixture.get()
        for period in HistogramPeriod.allCases {
            for keys in [true, false] {
                var options = SearchOptions(chat: chat)
                options.usesChatKeys = keys
                let want = try await Self.fetchedCounts(query, period, options: options)
                let h = try await archive.histogram(query, by: period, options: options)
                #expect(h.isExact)
                #expect(h.buckets.allSatisfy { $0.isExact })
                #expect(Self.counts(h) == want, "\(query) in \(chat ?? "all") per \(period)")
                #expect(h.total == want.values.reduce(0, +))
            }
        }
    }

    @Test func periodsAreUTCMonthsAndMondayWeeks() async throws {
        let archive = try Self.fixture.get()
        let months = try await archive.histogram("edge", by: .month)
        #expect(
            months.buckets.map(\.start.rfc3339) == [
                "2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z", "2024-03-01T00:00:00Z",
            ])
        #expect(months.buckets.map(\.count) == [1, 2, 2], "the 23:59:59.999 item in January, 01:00+02:00 in February")
        let weeks = try await archive.histogram("edge", by: .week)
        let sunday = try #require(weeks.buckets.first { $0.start.rfc3339 == "2024-02-26T00:00:00Z" })
        let monday = try #require(weeks.buckets.first { $0.start.rfc3339 == "2024-03-04T00:00:00Z" })
        #expect(sunday.count == 2, "February 29th and Sunday 23:59")
        #expect(monday.count == 1, "Monday 00:00; the deleted item left out")
        #expect(monday.end.rfc3339 == "2024-03-11T00:00:00Z")
        let deleted = try await archive.histogram("edge", by: .week, options: SearchOptions(includeDeleted: true))
        #expect(deleted.buckets.last?.count == 2)
    }

    @Test func theEmptyQueryIsAChatsActivity() async throws {
        let archive = try Self.fixture.get()
        let h = try await archive.histogram("", by: .month, options: SearchOptions(chat: "h1"))
        #expect(h.total == 400)
        #expect(h.buckets.first?.start.rfc3339 == "2023-11-01T00:00:00Z")
        // 30 days of November at 9 hours apart: items 0 through 79.
        #expect(h.buckets.first?.count == 80)
    }

    @Test func nothingFoundIsAnEmptyExactHistogram() async throws {
        let archive = try Self.fixture.get()
        for query in ["zzzqqq", "from:nobody tide", "in:nochat"] {
            let h = try await archive.histogram(query, by: .week)
            #expect(h.buckets.isEmpty)
            #expect(h.isExact)
        }
    }

    @Test func anUnknownChatIsTheSearchsError() async throws {
        let archive = try Self.fixture.get()
        await #expect {
            _ = try await archive.histogram("tide", by: .month, options: SearchOptions(chat: "nope"))
        } throws: { ($0 as? ArchiveError)?.code == .unknownChat }
    }

    /// Options that estimate all but the newest 60 matches, reading `perSpan` per span.
    static func estimating(chat: String?, keys: Bool, perSpan: Int) -> SearchOptions {
        var options = SearchOptions(chat: chat)
        options.usesChatKeys = keys
        options.histogramCountedMatches = 60
        options.histogramMatchesPerSpan = perSpan
        return options
    }

    /// Past the counted matches, older periods are estimated and say so; counted periods stay
    /// exact, and `exact` counts everything.
    @Test(arguments: [nil, "h1"] as [String?], [true, false])
    func aFrequentQueryIsEstimatedUnlessExactIsAskedFor(chat: String?, keys: Bool) async throws {
        let archive = try Self.fixture.get()
        for period in HistogramPeriod.allCases {
            let options = Self.estimating(chat: chat, keys: keys, perSpan: 5)
            let want = try await Self.fetchedCounts("tide", period, options: options)
            let h = try await archive.histogram("tide", by: period, options: options)
            let estimate = try #require(h.estimate)
            #expect(estimate.countedMatches == 60)
            #expect(estimate.sampledMatches > 0)
            #expect(estimate.matchesPerSpan == 5)
            #expect(h.buckets.contains { !$0.isExact })
            for b in h.buckets where b.isExact {
                #expect(b.count == want[b.start.milliseconds] ?? 0, "an exact period is exact: \(b.start)")
            }
            #expect(h.buckets.first.map { Self.periodStart($0.start, period) } == want.keys.min())
            #expect(h.buckets.last?.start.milliseconds == want.keys.max())
            let exact = try await archive.histogram("tide", by: period, options: options, exact: true)
            #expect(exact.isExact)
            #expect(Self.counts(exact) == want)
        }
    }

    /// Chat `w`: 300 items "wave N" 5 hours apart from 2024-01-01, every fourth after the first
    /// deleted, and five sharing the last millisecond of January and five the last of Sunday
    /// 2024-01-14, whose ids spill into the next period.
    static let waves = Result {
        var lines = [Lines.chat("w", name: "Waves")]
        let start = Timestamp(year: 2024, month: 1, day: 1)?.milliseconds ?? 0
        for n in 0..<300 {
            let ts = Timestamp(milliseconds: start + Int64(n) * 5 * 3_600_000).rfc3339
            lines.append(Lines.item("w", "w\(n)", ts: ts, text: "wave \(n)", deleted: n % 4 == 1))
        }
        for k in 0..<5 {
            lines.append(Lines.item("w", "m\(k)", ts: "2024-01-31T23:59:59.999Z", text: "wave month \(k)"))
            lines.append(
                Lines.item("w", "s\(k)", ts: "2024-01-14T23:59:59.999Z", text: "wave sunday \(k)", deleted: k == 2))
        }
        return try TestArchive.make(jsonl: lines.joined(separator: "\n")).0
    }

    /// A chat's activity (no query) is counted from its items' positions, exactly, by their
    /// times: the five items of January's last millisecond stay in January though their ids
    /// spill into February (a search's histogram places them by id), and deleted items are
    /// left out unless asked for.
    @Test(arguments: [true, false], [false, true])
    func aChatsActivityCountsItsItemsByTime(keys: Bool, includeDeleted: Bool) async throws {
        let archive = try Self.waves.get()
        for period in HistogramPeriod.allCases {
            var options = SearchOptions(chat: "w", includeDeleted: includeDeleted)
            options.usesChatKeys = keys
            options.limit = 10_000
            let hits = try await archive.search("", options: options).hits
            #expect(hits.count == (includeDeleted ? 310 : 234))
            let want = Dictionary(grouping: hits) { Self.periodStart($0.item.timestamp, period) }.mapValues(\.count)
            // Tight knobs: were the activity estimated as a search is, it would say so.
            options.histogramCountedMatches = 20
            options.histogramMatchesPerSpan = 4
            let h = try await archive.histogram("", by: period, options: options)
            #expect(h.estimate == nil)
            #expect(h.buckets.allSatisfy { $0.isExact })
            #expect(Self.counts(h) == want, "\(period), keys \(keys), deleted \(includeDeleted)")
            let january = try #require(h.buckets.first { $0.start.rfc3339 == "2024-01-01T00:00:00Z" })
            if period == .month { #expect(january.count == want[january.start.milliseconds]) }
        }
    }

    /// Deleted matches, in the newest counted and in the older sampled periods, leave every
    /// exact count, and a period holds the items whose ids it holds (the search's rule for
    /// `after:` and `before:`), in both indexes.
    @Test(arguments: [true, false], [nil, 40])
    func deletedMatchesAndSpilledIdsCountAsTheSearchFindsThem(keys: Bool, counted: Int?) async throws {
        let archive = try Self.waves.get()
        for period in HistogramPeriod.allCases {
            var options = SearchOptions(chat: "w")
            options.usesChatKeys = keys
            options.limit = 10_000
            let hits = try await archive.search("wave", options: options).hits
            let live = 300 - 75 + 10 - 1
            #expect(hits.count == live)
            // A period holds the ids it spans, by the archive's scale (seconds in a new archive).
            let scale = try await archive.database.writer.read { try ArchiveIds.scale($0) }
            #expect(scale == .seconds)
            let want = Dictionary(grouping: hits) {
                Self.periodStart(Timestamp(milliseconds: scale.milliseconds(ofId: $0.item.id)), period)
            }.mapValues(\.count)
            if let counted {
                options.histogramCountedMatches = counted
                options.histogramMatchesPerSpan = 4
            }
            let h = try await archive.histogram("wave", by: period, options: options)
            let isEstimated = counted != nil
            #expect(h.isExact != isEstimated)
            for b in h.buckets where b.isExact {
                #expect(b.count == want[b.start.milliseconds] ?? 0, "\(period) \(b.start), keys \(keys)")
            }
            let exact = try await archive.histogram("wave", by: period, options: options, exact: true)
            #expect(Self.counts(exact) == want, "\(period), keys \(keys)")
            // Spans that read every match they hold are exact: their deleted matches looked up.
            options.histogramMatchesPerSpan = 1_000
            let spans = try await archive.histogram("wave", by: period, options: options)
            #expect(spans.buckets.allSatisfy { $0.isExact })
            #expect(Self.counts(spans) == want, "\(period), keys \(keys), spans read whole")
        }
    }

    /// Chat `d`: an export that keeps only dates, every item at midnight. One item a day over
    /// 2023 and 2024, and 30 more on the first of each month: bursts of items sharing a
    /// millisecond, which take consecutive ids, at every period start.
    static let dates = Result {
        var lines = [Lines.chat("d", name: "Dates"), Lines.chat("e", name: "Elsewhere")]
        let start = Timestamp(year: 2023, month: 1, day: 1)?.milliseconds ?? 0
        var n = 0
        for day in 0..<731 {
            let ts = Timestamp(milliseconds: start + Int64(day) * 86_400_000)
            let isFirst = ts.rfc3339.dropFirst(8).hasPrefix("01T")
            for _ in 0..<(isFirst ? 31 : 1) {
                lines.append(Lines.item("d", "d\(n)", ts: ts.rfc3339, text: "tally \(n)"))
                n += 1
            }
            if day % 7 == 0 { lines.append(Lines.item("e", "e\(day)", ts: ts.rfc3339, text: "tally weekly")) }
        }
        return try TestArchive.make(jsonl: lines.joined(separator: "\n")).0
    }

    /// Bursts at every period start do not stand for the time after them: each estimated
    /// period stays within a small factor of its exact count, in one chat and in all.
    @Test(arguments: [nil, "d"] as [String?], [true, false])
    func burstsOfOneMillisecondAreNotExtrapolated(chat: String?, keys: Bool) async throws {
        let archive = try Self.dates.get()
        for period in HistogramPeriod.allCases {
            let options = Self.estimating(chat: chat, keys: keys, perSpan: 6)
            let h = try await archive.histogram("tally", by: period, options: options)
            let exact = try await archive.histogram("tally", by: period, options: options, exact: true)
            #expect(h.estimate != nil)
            let want = Self.counts(exact)
            // A burst read as a rate would put one match in each millisecond of a period
            // (billions); here a period may lose the unread part of its burst, never gain more
            // than the counted matches' rate gives it.
            for b in h.buckets where !b.isExact {
                let w = want[b.start.milliseconds] ?? 0
                #expect(b.count <= 2 * w + 6, "\(period) \(b.start): \(b.count) for \(w), chat \(chat ?? "-")")
            }
            #expect(
                h.total * 2 >= exact.total && h.total <= exact.total * 3 / 2, "\(period): \(h.total) for \(exact.total)"
            )
        }
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z", "1969-12-29T00:00:00Z"),
        (
            Timestamp(year: 2024, month: 12, day: 31, hour: 23)?.milliseconds ?? 0, "2024-12-01T00:00:00Z",
            "2024-12-30T00:00:00Z"
        ),
        (Timestamp(year: 2024, month: 2, day: 29)?.milliseconds ?? 0, "2024-02-01T00:00:00Z", "2024-02-26T00:00:00Z"),
    ])
    func periodArithmetic(_ ms: Int64, month: String, week: String) {
        #expect(Timestamp(milliseconds: HistogramPeriod.month.start(of: ms)).rfc3339 == month)
        #expect(Timestamp(milliseconds: HistogramPeriod.week.start(of: ms)).rfc3339 == week)
        let december = HistogramPeriod.month.start(of: ms)
        #expect(HistogramPeriod.month.start(of: HistogramPeriod.month.end(ofPeriodAt: december) - 1) == december)
    }
}
