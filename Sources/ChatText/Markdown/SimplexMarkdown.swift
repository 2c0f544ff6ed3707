import ChatModel

/// SimpleX Chat's markdown parser (MARKDOWN.md), piece for piece.
public enum SimplexMarkdown {
    /// Parses one line into pieces (§1); never empty: `""` gives one empty plain piece.
    /// A `\n` in `line` is an ordinary non-space character.
    public static func parseMarkdown(_ line: String) -> [FormattedText] {
        var line = line
        return line.withUTF8 { b in
            var parser = MarkdownParser(b)
            var pieces: [MarkdownPiece] = []
            parser.parseLine(0, b.count, into: &pieces)
            return pieces.map { $0.formattedText(in: b) }
        }
    }

    /// Parses a whole message (§3): nil when nothing in it is formatted, else the pieces of
    /// its lines joined by plain `"\n"` pieces, adjacent pieces of equal format merged.
    /// - Complexity: O(n); a message without any character that can start a format is
    ///   rejected in one byte scan.
    public static func parseMaybeMarkdownList(_ text: String) -> [FormattedText]? {
        parseMaybeMarkdownList(text, usingFastPath: true)
    }

    /// `parseMaybeMarkdownList`, optionally without the byte-scan rejection (for tests).
    static func parseMaybeMarkdownList(_ text: String, usingFastPath: Bool) -> [FormattedText]? {
        var text = text
        return text.withUTF8 { parseList($0, usingFastPath: usingFastPath) }
    }

    /// Whether `b` contains a character that could begin some format. Markers, `#`, `!`,
    /// `@` (mentions, names, emails), `/` (commands and every URI scheme), `[`, a `.` before
    /// an ASCII letter (bare domains), and at least three digits (the shortest phone).
    static func mayContainFormat(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0
        var i = 0
        let n = b.count
        while i < n {
            switch b[i] {
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"), UInt8(ascii: "#"),
                UInt8(ascii: "!"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "["):
                return true
            case UInt8(ascii: "."):
                if i + 1 < n, MarkdownCharacters.isLetter(b[i + 1]) { return true }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if digits >= 3 { return true }
            default:
                break
            }
            i += 1
        }
        return false
    }

    private static func parseList(_ b: UnsafeBufferPointer<UInt8>, usingFastPath: Bool) -> [FormattedText]? {
        let n = b.count
        guard n > 0, !usingFastPath || mayContainFormat(b) else { return nil }
        var lines: [Range<Int>] = []
        var start = 0
        for k in 0..<n where b[k] == UInt8(ascii: "\n") {
            lines.append(start..<k)
            start = k + 1
        }
        if start < n { lines.append(start..<n) }

        if lines.count == 1, let line = lines.first {
            var s = line.lowerBound
            while s < line.upperBound, b[s] == UInt8(ascii: " ") { s += 1 }
            if s + 1 < line.upperBound, b[s] == UInt8(ascii: "/") {
                let command = Format.command(b.string(s + 1, line.upperBound))
                return [FormattedText(b.string(line.lowerBound, line.upperBound), command)]
            }
        }

        var parser = MarkdownParser(b)
        var pieces: [MarkdownPiece] = []
        for (index, line) in lines.enumerated() {
            if index > 0 {
                // The `\n` that ended the previous line.
                pieces.append(MarkdownPiece(nil, line.lowerBound - 1, line.lowerBound))
            }
            parser.parseLine(line.lowerBound, line.upperBound, into: &pieces)
        }
        guard pieces.contains(where: { $0.format != nil }) else { return nil }

        var result: [FormattedText] = []
        result.reserveCapacity(pieces.count)
        var current = pieces[0]
        for piece in pieces.dropFirst() {
            if piece.format == current.format {
                current = current.joined(piece, in: b)
            } else {
                result.append(current.formattedText(in: b))
                current = piece
            }
        }
        result.append(current.formattedText(in: b))
        return result
    }
}
