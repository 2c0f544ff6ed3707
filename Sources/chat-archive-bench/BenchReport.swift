import Foundation

/// The bench's findings: a table for people, JSON for machines.
struct BenchReport {
    var messages: Int
    var notes: [(String, String)] = []
    var rows: [(String, String)] = []
    var latencies: [(name: String, ours: Latency, baseline: Latency?, baselineName: String)] = []
    var values: [String: Double] = [:]

    mutating func note(_ k: String, _ v: String) { notes.append((k, v)) }
    mutating func row(_ name: String, seconds: Double, extra: String) {
        rows.append((name, "\(fmt(seconds)) s  \(extra)"))
    }

    var table: String {
        var out = "chat-archive-bench — \(messages) messages\n\n"
        for (k, v) in notes { out += "\(k): \(v)\n" }
        out += "\n"
        for (k, v) in rows { out += "\(k)\n    \(v)\n" }
        out +=
            "\nquery latency (ms)                                   ours p50   p99   | baseline p50    p99   | speed-up (p50)\n"
        for l in latencies {
            var line = l.name.padding(toLength: 52, withPad: " ", startingAt: 0)
            line += String(format: "%8.3f %7.3f", l.ours.p50, l.ours.p99)
            if let b = l.baseline {
                line += String(
                    format: "   | %8.3f %8.3f   | %6.1f× vs %@", b.p50, b.p99, b.p50 / max(l.ours.p50, 0.0001),
                    l.baselineName)
            }
            out += line + "\n"
        }
        return out
    }

    var json: String {
        var parts: [String] = ["\"messages\":\(messages)"]
        for (k, v) in values.sorted(by: { $0.key < $1.key }) { parts.append("\"\(k)\":\(v)") }
        var lat: [String] = []
        for l in latencies {
            var s = "{\"name\":\"\(l.name)\",\"p50ms\":\(l.ours.p50),\"p99ms\":\(l.ours.p99),\"hits\":\(l.ours.hits)"
            if let b = l.baseline {
                s += ",\"baseline\":\"\(l.baselineName)\",\"baselineP50ms\":\(b.p50),\"baselineP99ms\":\(b.p99)"
            }
            lat.append(s + "}")
        }
        parts.append("\"latencies\":[" + lat.joined(separator: ",") + "]")
        return "{" + parts.joined(separator: ",") + "}"
    }
}

/// Latency percentiles of repeated runs, in milliseconds.
struct Latency {
    var p50: Double
    var p99: Double
    var hits: Int

    /// Times `body` `repeats` times after one warm-up call.
    static func measure(repeats: Int, _ body: (Int) throws -> Int) rethrows -> Latency {
        try measure(repeats: repeats, between: {}, body)
    }

    /// Times `body` `repeats` times after one warm-up call; `between` runs before each timed
    /// call, untimed (a sample of state the row reports beside its latencies).
    static func measure(
        repeats: Int, between: () throws -> Void, _ body: (Int) throws -> Int
    ) rethrows -> Latency {
        var times: [Double] = []
        var hits = 0
        _ = try body(0)  // warm up
        for i in 0..<repeats {
            try between()
            let t = DispatchTime.now().uptimeNanoseconds
            hits = try body(i)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
        }
        // `BENCH_SAMPLES=FILE`: each measurement's samples in the order taken, one line per row
        // (to see whether slow ones come periodically, as a merge or a checkpoint would).
        if let path = ProcessInfo.processInfo.environment["BENCH_SAMPLES"] {
            let line = times.map { String(format: "%.3f", $0) }.joined(separator: " ") + "\n"
            if let h = FileHandle(forWritingAtPath: path) {
                h.seekToEndOfFile()
                h.write(line.data(using: .utf8)!)
            } else {
                _ = FileManager.default.createFile(atPath: path, contents: line.data(using: .utf8))
            }
        }
        times.sort()
        func pct(_ p: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * p))] }
        return Latency(p50: pct(0.5), p99: pct(0.99), hits: hits)
    }
}
