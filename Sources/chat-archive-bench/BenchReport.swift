import Foundation

/// The bench's findings: a table for people, JSON for machines.
struct BenchReport {
    var messages: Int
    var notes: [(String, String)] = []
    var rows: [(String, String)] = []
    var latencies: [(name: String, ours: Latency, baseline: Latency?, baselineName: String)] = []
    var values: [String: Double] = [:]

    mutating func note(_ k: String, _ v: String) { notes.append((k, v)) }

    /// The row every query table starts with: ``Latency/machineNoise(repeats:)``, and how the
    /// rows were timed.
    mutating func addNoiseRow(repeats: Int) {
        if Latency.rounds > 1 {
            note(
                "timing",
                "each call timed in \(Latency.rounds) rounds, its fastest kept; p99 of round 1 shown beside")
        }
        latencies.append(
            (
                name: "machine: fixed arithmetic (noise floor)", ours: Latency.machineNoise(repeats: repeats),
                baseline: nil, baselineName: ""
            ))
    }
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
            if let f = l.ours.firstRoundP99 { line += String(format: "   (p99 of round 1: %.3f)", f) }
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
            if let f = l.ours.firstRoundP99 { s += ",\"firstRoundP99ms\":\(f)" }
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
    /// With more than one round: the p99 of the first round alone, as one round would have
    /// measured it (the machine's stalls included).
    var firstRoundP99: Double? = nil

    /// Rounds each measurement makes over its calls (`--rounds`): each call `i` is timed once a
    /// round and its fastest time kept, so the percentiles are those of the calls' own costs,
    /// not of the moments the host paused this machine (ChatArchive's ServingPerformance, the
    /// noise row).
    nonisolated(unsafe) static var rounds = 1

    /// Times `body` `repeats` times after one warm-up call.
    static func measure(repeats: Int, rounds: Int = rounds, _ body: (Int) throws -> Int) rethrows -> Latency {
        try measure(repeats: repeats, rounds: rounds, between: {}, body)
    }

    /// Times `body(i)` for `i` in `0..<repeats` after one warm-up call, `rounds` times over, keeping
    /// each `i`'s fastest time (a call must do the same work each round: draw its inputs from
    /// `i`); `between` runs before each timed call, untimed (a sample of state the row reports
    /// beside its latencies). Calls that write must measure one round.
    static func measure(
        repeats: Int, rounds: Int = rounds, between: () throws -> Void, _ body: (Int) throws -> Int
    ) rethrows -> Latency {
        var times = [Double](repeating: .infinity, count: repeats)
        var first: [Double] = []
        var hits = 0
        _ = try body(0)  // warm up
        for round in 0..<max(1, rounds) {
            for i in 0..<repeats {
                try between()
                let t = DispatchTime.now().uptimeNanoseconds
                hits = try body(i)
                times[i] = min(times[i], Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
            }
            if round == 0 { first = times }
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
        func pct(_ sorted: [Double], _ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        let sorted = times.sorted()
        return Latency(
            p50: pct(sorted, 0.5), p99: pct(sorted, 0.99), hits: hits,
            firstRoundP99: rounds > 1 ? pct(first.sorted(), 0.99) : nil)
    }

    /// The machine's own noise: a fixed piece of arithmetic, about a query's length (ChatArchive's
    /// ServingPerformance, the noise row), timed like a query. Its p50 is its cost; what its p99
    /// adds is the host pausing this machine, which every row beside it meets as well.
    static func machineNoise(repeats: Int) -> Latency {
        measure(repeats: repeats) { i in
            // A chain the optimiser cannot shorten: each step needs the last one's bits.
            var x = UInt64(truncatingIfNeeded: i) | 1
            for _ in 0..<1_000_000 { x = (x &* 6_364_136_223_846_793_005) ^ (x >> 29) }
            return Int(truncatingIfNeeded: x >> 60)
        }
    }
}
