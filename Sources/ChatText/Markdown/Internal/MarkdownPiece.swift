import ChatModel

/// A piece under construction, a plain value (no references) so that arrays of pieces copy
/// as bytes. Its text is a byte range of the message, or a string in the parser's table; its
/// format is a code: payload-free formats have fixed codes, others index the format table.
struct MarkdownPiece {
    /// `0` plain, `1...15` the fixed formats, `dynamicBase...` an index into the format table.
    var code: Int
    /// Byte range of the text; `lo < 0` means the text is `strings[-lo - 1]`.
    var lo: Int
    var hi: Int

    static let plainCode = 0
    static let dynamicBase = 100

    init(code: Int, _ lo: Int, _ hi: Int) {
        self.code = code
        self.lo = lo
        self.hi = hi
    }

    /// A plain piece of bytes `lo..<hi`.
    static func plain(_ lo: Int, _ hi: Int) -> MarkdownPiece { MarkdownPiece(code: plainCode, lo, hi) }

    var isPlain: Bool { code == MarkdownPiece.plainCode }

    /// The fixed code of a payload-free format, or nil.
    static func fixedCode(_ format: Format) -> Int? {
        switch format {
        case .bold: 1
        case .italic: 2
        case .strikeThrough: 3
        case .snippet: 4
        case .secret: 5
        case .small: 6
        case .uri: 7
        case .email: 8
        case .phone: 9
        case .colored(.red): 10
        case .colored(.green): 11
        case .colored(.blue): 12
        case .colored(.yellow): 13
        case .colored(.cyan): 14
        case .colored(.magenta): 15
        default: nil
        }
    }

    /// The format of a fixed code.
    static func fixedFormat(_ code: Int) -> Format? {
        switch code {
        case 1: .bold
        case 2: .italic
        case 3: .strikeThrough
        case 4: .snippet
        case 5: .secret
        case 6: .small
        case 7: .uri
        case 8: .email
        case 9: .phone
        case 10: .colored(.red)
        case 11: .colored(.green)
        case 12: .colored(.blue)
        case 13: .colored(.yellow)
        case 14: .colored(.cyan)
        case 15: .colored(.magenta)
        default: nil
        }
    }
}

/// What one fragment yields: a piece, or a span with the punctuation split off its end.
struct MarkdownFragment {
    var span: MarkdownPiece
    var punctuation: MarkdownPiece
    var isPair: Bool

    static func one(_ piece: MarkdownPiece) -> MarkdownFragment {
        MarkdownFragment(span: piece, punctuation: piece, isPair: false)
    }

    static func pair(_ span: MarkdownPiece, _ punctuation: MarkdownPiece) -> MarkdownFragment {
        MarkdownFragment(span: span, punctuation: punctuation, isPair: true)
    }
}
