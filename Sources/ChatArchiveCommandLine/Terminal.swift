import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Terminal facts and styling for human output.
package enum Terminal {
    package static let stdoutIsTerminal = isatty(1) == 1
    package static let stderrIsTerminal = isatty(2) == 1
    /// Colour only on a terminal, and never when `NO_COLOR` is set.
    package static let useColor: Bool =
        stdoutIsTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty

    package static func bold(_ s: String) -> String { useColor ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    package static func dim(_ s: String) -> String { useColor ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    package static func highlight(_ s: String) -> String { useColor ? "\u{1B}[1;33m\(s)\u{1B}[0m" : "[\(s)]" }
    package static func cyan(_ s: String) -> String { useColor ? "\u{1B}[36m\(s)\u{1B}[0m" : s }

    /// `s` safe to print: an archive's names and texts come from other people's exports, and a
    /// control character in them (an escape sequence that sets the window title, hides or
    /// rewrites lines, a carriage return) must show as a character, not act on the terminal.
    /// C0 controls and DEL become their control pictures (U+2400 block), C1 and bidi controls U+FFFD;
    /// each stays one UTF-16 unit, so match ranges keep their offsets. Tabs stay, and line
    /// breaks too unless `singleLine`, which makes them spaces.
    package static func visible(_ s: String, singleLine: Bool = false) -> String {
        guard s.unicodeScalars.contains(where: { isControl($0.value, singleLine: singleLine) }) else { return s }
        var out = String.UnicodeScalarView()
        for c in s.unicodeScalars {
            out.append(isControl(c.value, singleLine: singleLine) ? picture(c.value, singleLine: singleLine) : c)
        }
        return String(out)
    }

    @inline(__always)
    private static func isControl(_ v: UInt32, singleLine: Bool) -> Bool {
        (v < 0x20 && v != 0x09 && (v != 0x0A || singleLine)) || (v >= 0x7F && v < 0xA0) || isBidiControl(v)
    }

    /// Bidi overrides, embeddings, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E,
    /// U+200F, U+061C): in a name or a file name they reorder what follows ("U+202E evil" prints as
    /// "live"), so they show as U+FFFD instead.
    @inline(__always)
    private static func isBidiControl(_ v: UInt32) -> Bool {
        v >= 0x061C
            && ((v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069) || v == 0x200E || v == 0x200F
                || v == 0x061C)
    }

    /// What a control character shows as (see ``visible(_:singleLine:)``).
    private static func picture(_ v: UInt32, singleLine: Bool) -> Unicode.Scalar {
        if v == 0x0A && singleLine { return " " }
        if v < 0x20 { return Unicode.Scalar(0x2400 + v)! }
        return v == 0x7F ? "\u{2421}" : "\u{FFFD}"
    }

    /// `text` with the UTF-16 `ranges` highlighted (control characters shown, see ``visible(_:singleLine:)``).
    package static func highlighted(_ text: String, ranges: [Range<Int>]) -> String {
        guard !ranges.isEmpty else { return visible(text) }
        let u = Array(text.utf16)
        return highlighted(units: u, window: 0..<u.count, ranges: ranges)
    }

    /// The UTF-16 units `u[window]` as text, with the `ranges` (offsets in the window) highlighted.
    private static func highlighted(units u: [UInt16], window: Range<Int>, ranges: [Range<Int>]) -> String {
        var out = ""
        var pos = 0
        let start = window.lowerBound
        for r in ranges where r.lowerBound >= pos && r.upperBound <= window.count {
            out += string(u, start + pos..<start + r.lowerBound)
            out += highlight(string(u, start + r.lowerBound..<start + r.upperBound))
            pos = r.upperBound
        }
        return out + string(u, start + pos..<window.upperBound)
    }

    /// The UTF-16 units `u[range]` as a string, a lone surrogate as U+FFFD and control characters
    /// as ``visible(_:singleLine:)`` shows them. Transcoded here:
    /// `String(decoding:as: UTF16.self)` takes the standard library's generic path, several
    /// times dearer, which showed in a whole `chat-archive search` process.
    package static func string(_ u: [UInt16], _ range: Range<Int>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count * 3)
        var i = range.lowerBound
        while i < range.upperBound {
            let c = u[i]
            i += 1
            if c < 0x7F && (c >= 0x20 || c == 0x0A || c == 0x09) {
                bytes.append(UInt8(c))
                continue
            }
            var v = UInt32(c)
            if isControl(v, singleLine: false) {
                v = picture(v, singleLine: false).value
            } else if UTF16.isLeadSurrogate(c), i < range.upperBound, UTF16.isTrailSurrogate(u[i]) {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i]) - 0xDC00)
                i += 1
            } else if UTF16.isLeadSurrogate(c) || UTF16.isTrailSurrogate(c) {
                v = 0xFFFD
            }
            if v < 0x800 {
                bytes.append(UInt8(0xC0 | v >> 6))
            } else if v < 0x10000 {
                bytes.append(UInt8(0xE0 | v >> 12))
                bytes.append(UInt8(0x80 | (v >> 6) & 0x3F))
            } else {
                bytes.append(UInt8(0xF0 | v >> 18))
                bytes.append(UInt8(0x80 | (v >> 12) & 0x3F))
                bytes.append(UInt8(0x80 | (v >> 6) & 0x3F))
            }
            bytes.append(UInt8(0x80 | v & 0x3F))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A long text cut to the places that matched: up to `maxPieces` excerpts of `context` UTF-16
    /// units on each side of a match, highlighted, joined by `…`; short texts stay whole.
    package static func excerpt(_ text: String, ranges: [Range<Int>], context: Int = 60, maxPieces: Int = 3) -> String {
        let u = Array(text.utf16)
        guard u.count > 4 * context else { return highlighted(text, ranges: ranges) }
        guard !ranges.isEmpty else { return string(u, 0..<boundary(u, 4 * context)) + "…" }
        // Windows around the matches, merged where they touch.
        var windows: [(range: Range<Int>, matches: [Range<Int>])] = []
        for r in ranges where r.upperBound <= u.count {
            var lower = boundary(u, max(0, r.lowerBound - context))
            var upper = boundary(u, min(u.count, r.upperBound + context))
            // Cut at a space when one is near, not inside a word.
            if lower > 0, let space = u[lower..<r.lowerBound].prefix(20).firstIndex(of: 0x20) { lower = space + 1 }
            if upper < u.count, let space = u[r.upperBound..<upper].suffix(20).lastIndex(of: 0x20) { upper = space }
            let shifted = (r.lowerBound - lower)..<(r.upperBound - lower)
            if let last = windows.last, lower <= last.range.upperBound {
                let start = last.range.lowerBound
                windows[windows.count - 1] = (
                    start..<max(last.range.upperBound, upper),
                    last.matches + [(r.lowerBound - start)..<(r.upperBound - start)]
                )
            } else {
                if windows.count == maxPieces { break }
                windows.append((lower..<upper, [shifted]))
            }
        }
        var out = ""
        for (k, w) in windows.enumerated() {
            if k > 0 || w.range.lowerBound > 0 { out += k > 0 ? " … " : "…" }
            out += highlighted(units: u, window: w.range, ranges: w.matches)
        }
        if let last = windows.last, last.range.upperBound < u.count { out += "…" }
        let shown = windows.reduce(0) { $0 + $1.matches.count }
        if shown < ranges.count { out += dim(" (+\(ranges.count - shown) more)") }
        return out
    }

    /// `i` moved forward off a trailing surrogate, so that no cut splits a character's UTF-16 pair.
    private static func boundary(_ u: [UInt16], _ i: Int) -> Int {
        var i = i
        while i > 0, i < u.count, UTF16.isTrailSurrogate(u[i]) { i += 1 }
        return i
    }

    package static func eprint(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

    /// Redraws one progress line on stderr.
    package static func progressLine(_ label: String, done: Int64, total: Int64) {
        let pct = total > 0 ? Double(done) / Double(total) : 0
        FileHandle.standardError.write(Data(String(format: "\r\u{1B}[K%@ %3.0f%%", label, pct * 100).utf8))
        if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
