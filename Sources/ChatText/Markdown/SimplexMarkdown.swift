import ChatModel

/// SimpleX Chat's markdown parser (<doc:MarkdownGrammar>), piece for piece.
package enum SimplexMarkdown {
    /// Parses one line into pieces; never empty: `""` gives one empty plain piece.
    /// A `\n` in `line` is an ordinary non-space character.
    package static func parseMarkdown(_ line: String) -> [FormattedText] {
        var line = line
        return line.withUTF8 { b in
            var parser = MarkdownParser(b)
            var pieces: [MarkdownPiece] = []
            parser.parseLine(0, b.count, into: &pieces)
            return pieces.map { parser.store.formattedText($0) }
        }
    }

    /// Parses a whole message (<doc:MarkdownGrammar>): nil when nothing in it is formatted, else the pieces of
    /// its lines joined by plain `"\n"` pieces, adjacent pieces of equal format merged.
    /// - Complexity: O(n); a message without any character that can start a format is
    ///   rejected in one byte scan.
    package static func parseMaybeMarkdownList(_ text: String) -> [FormattedText]? {
        parseMaybeMarkdownList(text, usingFastPath: true)
    }

    /// `parseMaybeMarkdownList`, optionally without the byte-scan rejection (for tests).
    static func parseMaybeMarkdownList(_ text: String, usingFastPath: Bool) -> [FormattedText]? {
        var text = text
        return text.withUTF8 { parseList($0, usingFastPath: usingFastPath) }
    }

    /// Whether `b` contains a character that could begin some format: markers, `#`, `!`, `@`
    /// (mentions, names, emails), `/` (commands and every URI scheme), `[`, a `.` before an
    /// ASCII letter (bare domains), or a run of at least 7 phone characters (digits, space,
    /// `+ - . ( )`) holding at least 3 digits (the shortest phone, `+1 (2)3`).
    static func mayContainFormat(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var runLength = 0
        var runDigits = 0
        var i = 0
        let n = b.count
        while i < n {
            switch b[i] {
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"), UInt8(ascii: "#"),
                UInt8(ascii: "!"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "["):
                return true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                runLength += 1
                runDigits += 1
                if runLength >= 7 && runDigits >= 3 { return true }
            case UInt8(ascii: "."):
                if i + 1 < n, MarkdownCharacters.isLetter(b[i + 1]) { return true }
                runLength += 1
                if runLength >= 7 && runDigits >= 3 { return true }
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "("), UInt8(ascii: ")"):
                runLength += 1
                if runLength >= 7 && runDigits >= 3 { return true }
            default:
                runLength = 0
                runDigits = 0
            }
            i += 1
        }
        return false
    }

    private static func parseList(_ b: UnsafeBufferPointer<UInt8>, usingFastPath: Bool) -> [FormattedText]? {
        let n = b.count
        guard n > 0, !usingFastPath || mayContainFormat(b) else { return nil }
        // Lines split on `\n`; a final `\n` adds no empty line.
        let firstNewline = b.firstIndex(of: UInt8(ascii: "\n")) ?? n
        if firstNewline >= n - 1 {
            // Exactly one line: maybe a whole-line command.
            var s = 0
            while s < firstNewline, b[s] == UInt8(ascii: " ") { s += 1 }
            if s + 1 < firstNewline, b[s] == UInt8(ascii: "/") {
                return [FormattedText(b.string(0, firstNewline), .command(b.string(s + 1, firstNewline)))]
            }
        }

        var parser = MarkdownParser(b)
        var pieces: [MarkdownPiece] = []
        pieces.reserveCapacity(16)
        var lineStart = 0
        var lineEnd = firstNewline
        while true {
            parser.parseLine(lineStart, lineEnd, into: &pieces)
            guard lineEnd + 1 < n else { break }
            // The `\n` that ended this line.
            pieces.append(.plain(lineEnd, lineEnd + 1))
            lineStart = lineEnd + 1
            lineEnd = lineStart
            while lineEnd < n, b[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        }
        guard pieces.contains(where: { !$0.isPlain }) else { return nil }

        var store = parser.store
        var result: [FormattedText] = []
        result.reserveCapacity(pieces.count)
        var current = pieces[0]
        for piece in pieces.dropFirst() {
            if store.sameFormat(piece, current) {
                current = store.joined(current, piece)
            } else {
                result.append(store.formattedText(current))
                current = piece
            }
        }
        result.append(store.formattedText(current))
        return result
    }
}
