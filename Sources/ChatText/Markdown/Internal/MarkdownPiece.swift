import ChatModel

/// A piece under construction: its text is a byte range of the message when possible, so
/// plain pieces cost no allocation until they are returned.
struct MarkdownPiece {
    enum Text {
        case range(Int, Int)
        case string(String)
    }

    var format: Format?
    var text: Text

    init(_ format: Format?, _ lo: Int, _ hi: Int) {
        self.format = format
        self.text = .range(lo, hi)
    }

    /// Whether the text is empty.
    var isEmpty: Bool {
        switch text {
        case .range(let lo, let hi): lo == hi
        case .string(let s): s.isEmpty
        }
    }

    /// The text as a string.
    func string(in b: UnsafeBufferPointer<UInt8>) -> String {
        switch text {
        case .range(let lo, let hi): b.string(lo, hi)
        case .string(let s): s
        }
    }

    /// `self` with `next`'s text appended.
    func joined(_ next: MarkdownPiece, in b: UnsafeBufferPointer<UInt8>) -> MarkdownPiece {
        var result = self
        if case .range(let lo, let hi) = text, case .range(let lo2, let hi2) = next.text, hi == lo2 {
            result.text = .range(lo, hi2)
        } else {
            result.text = .string(string(in: b) + next.string(in: b))
        }
        return result
    }

    /// The finished piece.
    func formattedText(in b: UnsafeBufferPointer<UInt8>) -> FormattedText {
        FormattedText(string(in: b), format)
    }
}

/// What one fragment yields: a piece, or a span with the punctuation split off its end.
enum MarkdownFragment {
    case one(MarkdownPiece)
    case pair(MarkdownPiece, MarkdownPiece)
}

/// The merging tree of MARKDOWN.md §2, folded from the right.
///
/// The tree is never built: the rules only look at whether the accumulator is a leaf, and
/// whether a node's left child is a leaf, so the leaves and those two facts are enough.
struct MarkdownTree {
    /// Leaves, last first.
    private var reversed: [MarkdownPiece] = []
    private var isLeaf = false
    private var leftIsLeaf = false

    /// The leaves of `fragments` combined from the right, appended left to right to `out`.
    static func fold(
        _ fragments: [MarkdownFragment], lineStart: Int, into out: inout [MarkdownPiece],
        in b: UnsafeBufferPointer<UInt8>
    ) {
        var tree = MarkdownTree()
        tree.reversed.reserveCapacity(fragments.count + 1)
        for fragment in fragments.reversed() { tree.prepend(fragment, in: b) }
        if tree.reversed.isEmpty {
            out.append(MarkdownPiece(nil, lineStart, lineStart))
        } else {
            out.append(contentsOf: tree.reversed.reversed())
        }
    }

    /// `acc = fragment ⊕ acc`.
    private mutating func prepend(_ fragment: MarkdownFragment, in b: UnsafeBufferPointer<UInt8>) {
        switch fragment {
        case .one(let piece):
            if piece.isEmpty { return }  // rule 1
            guard let first = reversed.last else {
                reversed.append(piece)
                isLeaf = true
                return
            }
            if (isLeaf || leftIsLeaf) && first.format == piece.format {
                // rules 2 and 3: join with the leftmost leaf.
                reversed[reversed.count - 1] = piece.joined(first, in: b)
            } else {
                reversed.append(piece)
                isLeaf = false
            }
            leftIsLeaf = true
        case .pair(let span, let punctuation):
            guard let first = reversed.last else {
                reversed.append(punctuation)
                reversed.append(span)
                isLeaf = false
                leftIsLeaf = true
                return
            }
            if isLeaf && first.format == punctuation.format {
                // rule 4: node(span, punctuation + leaf).
                reversed[reversed.count - 1] = punctuation.joined(first, in: b)
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
}
