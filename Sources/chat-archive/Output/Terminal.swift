import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Terminal facts and styling for human output.
enum Terminal {
    static let stdoutIsTerminal = isatty(1) == 1
    static let stderrIsTerminal = isatty(2) == 1
    /// Colour only on a terminal, and never when `NO_COLOR` is set.
    static let useColor: Bool = stdoutIsTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty

    static func bold(_ s: String) -> String { useColor ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    static func dim(_ s: String) -> String { useColor ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    static func highlight(_ s: String) -> String { useColor ? "\u{1B}[1;33m\(s)\u{1B}[0m" : "[\(s)]" }
    static func cyan(_ s: String) -> String { useColor ? "\u{1B}[36m\(s)\u{1B}[0m" : s }

    /// `text` with the UTF-16 `ranges` highlighted.
    static func highlighted(_ text: String, ranges: [Range<Int>]) -> String {
        guard !ranges.isEmpty else { return text }
        let u = Array(text.utf16)
        var out = ""
        var pos = 0
        for r in ranges where r.lowerBound >= pos && r.upperBound <= u.count {
            out += String(decoding: u[pos..<r.lowerBound], as: UTF16.self)
            out += highlight(String(decoding: u[r], as: UTF16.self))
            pos = r.upperBound
        }
        return out + String(decoding: u[pos...], as: UTF16.self)
    }

    static func eprint(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

    /// Redraws one progress line on stderr.
    static func progressLine(_ label: String, done: Int64, total: Int64) {
        let pct = total > 0 ? Double(done) / Double(total) : 0
        FileHandle.standardError.write(Data(String(format: "\r\u{1B}[K%@ %3.0f%%", label, pct * 100).utf8))
        if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
