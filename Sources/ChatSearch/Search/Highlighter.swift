import ChatText

/// Finds the places in a display text that a query matched, with the same analyser that
/// indexed it, so highlights always agree with the match.
struct Highlighter: Sendable {
    /// Single tokens (and their infix expansions) that match whole.
    var words = Set<String>()
    /// Tokens that also match as prefixes.
    var prefixes = Set<String>()
    /// Token sequences that match at consecutive positions.
    var phrases: [[String]] = []
    /// The last token of a prefix phrase.
    var lastPrefix: String?

    var isEmpty: Bool { words.isEmpty && prefixes.isEmpty && phrases.isEmpty }

    static func isNoSpaceScript(_ s: String) -> Bool {
        s.unicodeScalars.contains { u in
            switch u.value {
            case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F, 0xF900...0xFAFF, 0x20000...0x2FFFF:
                return true
            default: return false
            }
        }
    }

    /// UTF-16 `[start, end)` ranges of every matched occurrence, sorted; overlapping ones merged.
    func ranges(in text: String) -> [Range<Int>] {
        guard !isEmpty, !text.isEmpty else { return [] }
        let tokens = Tokenizer.tokens(in: text, mode: .document)
        // Group tokens by position (colocated tokens share one).
        var positions: [[AnalyzedToken]] = []
        for t in tokens {
            if t.isColocated, !positions.isEmpty { positions[positions.count - 1].append(t) } else { positions.append([t]) }
        }
        var found: [Range<Int>] = []
        for (p, group) in positions.enumerated() {
            for t in group {
                if words.contains(t.text) || prefixes.contains(where: { t.text.hasPrefix($0) }) {
                    found.append(t.utf16Range)
                }
            }
            for phrase in phrases where !phrase.isEmpty && p + phrase.count <= positions.count {
                var ok = true
                var lower = Int.max
                var upper = 0
                for (k, want) in phrase.enumerated() {
                    let isLast = k == phrase.count - 1
                    guard
                        let hit = positions[p + k].first(where: {
                            $0.text == want || (isLast && lastPrefix == want && $0.text.hasPrefix(want))
                        })
                    else {
                        ok = false
                        break
                    }
                    lower = min(lower, hit.utf16Range.lowerBound)
                    upper = max(upper, hit.utf16Range.upperBound)
                }
                if ok { found.append(lower..<upper) }
            }
        }
        found.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for r in found {
            // Overlapping matches (CJK pairs) merge; touching ones stay apart: one range per occurrence.
            if let last = merged.last, r.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// A short excerpt around the first range, matches in `[brackets]`, `…` where cut.
    static func snippet(_ text: String, ranges: [Range<Int>], context: Int = 40) -> String {
        let u = Array(text.utf16)
        guard let first = ranges.first else {
            return u.count <= 2 * context ? text : String(decoding: u[0..<cut(u, 2 * context)], as: UTF16.self) + "…"
        }
        var start = max(0, first.lowerBound - context)
        var end = min(u.count, first.upperBound + context)
        // Do not cut surrogate pairs.
        while start > 0, UTF16.isTrailSurrogate(u[start]) { start -= 1 }
        while end < u.count, UTF16.isTrailSurrogate(u[end]) { end += 1 }
        var out = start > 0 ? "…" : ""
        var pos = start
        for r in ranges where r.lowerBound >= start && r.upperBound <= end {
            out += String(decoding: u[pos..<r.lowerBound], as: UTF16.self)
            out += "[" + String(decoding: u[r], as: UTF16.self) + "]"
            pos = r.upperBound
        }
        out += String(decoding: u[pos..<end], as: UTF16.self)
        if end < u.count { out += "…" }
        return out
    }

    private static func cut(_ u: [UInt16], _ n: Int) -> Int {
        var e = min(n, u.count)
        while e < u.count, e > 0, UTF16.isTrailSurrogate(u[e]) { e += 1 }
        return e
    }
}
