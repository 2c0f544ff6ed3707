import ChatModel

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
