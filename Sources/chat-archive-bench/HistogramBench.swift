import ChatArchive
import Foundation
import GRDB

/// `--histogram-accuracy`: how far a histogram's estimate is from the exact counts, and what
/// each costs, on a kept archive: for the API bench's mid word, a frequent word, two CJK words and
/// every message, per month.
struct HistogramBench {
    let archive: Archive
    let repeats: Int
    /// The estimate's knobs (`nil`: the library's).
    let counted: Int?
    let spans: Int?
    let perSpan: Int?

    func run() throws {
        let db = archive.database.writer
        let word = try db.read { db in try APIBench.onePercentWord(db) }
        var options = SearchOptions()
        if let counted { options.histogramCountedMatches = counted }
        if let spans { options.histogramSpans = spans }
        if let perSpan { options.histogramMatchesPerSpan = perSpan }
        print(
            "knobs: \(options.histogramCountedMatches) counted, \(options.histogramSpans) spans of \(options.histogramMatchesPerSpan)"
        )
        print(
            "| query | months with ≥ 20 | median error | p90 error | total ÷ exact | estimate p50 / p99 ms | exact p50 ms |"
        )
        print("|---|---|---|---|---|---|---|")
        for query in [word, "the", "你", "東京", ""] {
            let exact = try db.read { db in
                try MessageSearch.histogram(query, period: .month, exact: true, options: options, in: db)
            }
            let estimate = try db.read { db in
                try MessageSearch.histogram(query, period: .month, exact: false, options: options, in: db)
            }
            let byStart = Dictionary(uniqueKeysWithValues: estimate.buckets.map { ($0.start, $0.count) })
            let errors = exact.buckets.filter { $0.count >= 20 }.map { b in
                abs(Double(byStart[b.start] ?? 0) - Double(b.count)) / Double(b.count)
            }.sorted()
            let quick = try Latency.measure(repeats: repeats) { _ in
                try db.read { db in
                    try MessageSearch.histogram(query, period: .month, exact: false, options: options, in: db).buckets
                        .count
                }
            }
            let slow = try Latency.measure(repeats: max(1, repeats / 20)) { _ in
                try db.read { db in
                    try MessageSearch.histogram(query, period: .month, exact: true, options: options, in: db).buckets
                        .count
                }
            }
            func pct(_ q: Double) -> String {
                errors.isEmpty
                    ? "-" : String(format: "%.0f%%", 100 * errors[min(errors.count - 1, Int(q * Double(errors.count)))])
            }
            let ratio = exact.total == 0 ? 1 : Double(estimate.total) / Double(exact.total)
            print(
                "| \(query.isEmpty ? "(every message)" : query) (\(exact.total)) | \(errors.count) | \(pct(0.5)) | \(pct(0.9)) | "
                    + String(format: "%.2f", ratio) + " | \(fmt(quick.p50)) / \(fmt(quick.p99)) | \(fmt(slow.p50)) |")
        }
    }
}
