import ChatModel

/// The formats and joined texts that pieces refer to, and the bytes of the message.
struct MarkdownStore {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var formats: [Format] = []
    private(set) var strings: [String] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The code of `format`, adding it to the table when it has a payload.
    mutating func code(_ format: Format) -> Int {
        if let fixed = MarkdownPiece.fixedCode(format) { return fixed }
        formats.append(format)
        return MarkdownPiece.dynamicBase + formats.count - 1
    }

    /// The format of a piece.
    func format(_ piece: MarkdownPiece) -> Format? {
        if piece.code >= MarkdownPiece.dynamicBase { return formats[piece.code - MarkdownPiece.dynamicBase] }
        return MarkdownPiece.fixedFormat(piece.code)
    }

    /// Whether two pieces have equal formats.
    func sameFormat(_ a: MarkdownPiece, _ b: MarkdownPiece) -> Bool {
        if a.code == b.code { return true }
        guard a.code >= MarkdownPiece.dynamicBase, b.code >= MarkdownPiece.dynamicBase else { return false }
        return format(a) == format(b)
    }

    func isEmpty(_ piece: MarkdownPiece) -> Bool {
        piece.lo < 0 ? strings[-piece.lo - 1].isEmpty : piece.lo == piece.hi
    }

    /// The text of a piece.
    func string(_ piece: MarkdownPiece) -> String {
        piece.lo < 0 ? strings[-piece.lo - 1] : bytes.string(piece.lo, piece.hi)
    }

    /// `first` with `next`'s text appended (formats are already equal).
    mutating func joined(_ first: MarkdownPiece, _ next: MarkdownPiece) -> MarkdownPiece {
        var result = first
        if first.lo >= 0, next.lo >= 0, first.hi == next.lo {
            result.hi = next.hi
        } else {
            strings.append(string(first) + string(next))
            result.lo = -strings.count
            result.hi = 0
        }
        return result
    }

    /// The finished piece.
    func formattedText(_ piece: MarkdownPiece) -> FormattedText {
        FormattedText(string(piece), format(piece))
    }
}
