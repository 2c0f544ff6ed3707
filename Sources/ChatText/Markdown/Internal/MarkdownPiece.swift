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

/// The merging tree of <doc:MarkdownGrammar> ("How pieces are assembled"), folded from the right.
///
/// The tree is never built: the rules only look at whether the accumulator is a leaf, and
/// whether a node's left child is a leaf, so the leaves and those two facts are enough.
struct MarkdownTree {
    /// Leaves, last first (reused from line to line).
    private var reversed: [MarkdownPiece] = []
    private var isLeaf = false
    private var leftIsLeaf = false

    /// The leaves of `fragments` combined from the right, appended left to right to `out`.
    mutating func fold(
        _ fragments: [MarkdownFragment], lineStart: Int, into out: inout [MarkdownPiece], store: inout MarkdownStore
    ) {
        reversed.removeAll(keepingCapacity: true)
        isLeaf = false
        leftIsLeaf = false
        var k = fragments.count
        while k > 0 {
            k -= 1
            prepend(fragments[k], store: &store)
        }
        if reversed.isEmpty {
            out.append(.plain(lineStart, lineStart))
        } else {
            var j = reversed.count
            while j > 0 {
                j -= 1
                out.append(reversed[j])
            }
        }
    }

    /// `acc = fragment ⊕ acc`.
    private mutating func prepend(_ fragment: MarkdownFragment, store: inout MarkdownStore) {
        if !fragment.isPair {
            let piece = fragment.span
            if store.isEmpty(piece) { return }  // rule 1
            guard let first = reversed.last else {
                reversed.append(piece)
                isLeaf = true
                return
            }
            if (isLeaf || leftIsLeaf) && store.sameFormat(first, piece) {
                // rules 2 and 3: join with the leftmost leaf.
                reversed[reversed.count - 1] = store.joined(piece, first)
            } else {
                reversed.append(piece)
                isLeaf = false
            }
            leftIsLeaf = true
            return
        }
        let span = fragment.span
        let punctuation = fragment.punctuation
        guard let first = reversed.last else {
            reversed.append(punctuation)
            reversed.append(span)
            isLeaf = false
            leftIsLeaf = true
            return
        }
        if isLeaf && store.sameFormat(first, punctuation) {
            // rule 4: node(span, punctuation + leaf).
            reversed[reversed.count - 1] = store.joined(punctuation, first)
            reversed.append(span)
            leftIsLeaf = true
        } else {
            reversed.append(punctuation)
            reversed.append(span)
            leftIsLeaf = false
        }
        isLeaf = false
    }
}
