import ChatModel
import ChatText

/// Finds the places in a display text that a query matched, with the same analyser that
/// indexed it, so highlights always agree with the match.
///
/// The analysis runs in C (``TokenMatcher``): only the tokens that can take part in a match
/// become Swift values, so highlighting a page of hits costs about one analysis per text.
struct Highlighter: Sendable {
    /// Single tokens (and their infix expansions) that match whole.
    var words = Set<String>()
    /// Tokens that also match as prefixes (byte prefixes, as FTS5's `term*`).
    var prefixes = Set<String>()
    /// Token sequences that match at consecutive positions.
    var phrases: [[String]] = []
    /// The last token of a prefix phrase.
    var lastPrefix: String?
    /// The query tokens that every word and prefix above contains (their expansions contain
    /// them): pieces of ASCII text without one need no analysis.
    var needles = Set<String>()
    /// Every token that can take part in a match; made by ``prepare()``.
    private var matcher: TokenMatcher?

    /// One matched place: the same range in UTF-16 and in UTF-8 code units of the text.
    struct Match: Equatable {
        var utf16: Range<Int>
        var utf8: Range<Int>
    }

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

    /// Builds the matcher once the query is compiled (calling it again rebuilds it).
    mutating func prepare() {
        var all = words
        var allPrefixes = prefixes
        for phrase in phrases { all.formUnion(phrase) }
        if let lastPrefix { allPrefixes.insert(lastPrefix) }
        // Phrases need every token's position: all the text is analysed for them.
        matcher = TokenMatcher(words: all, prefixes: allPrefixes, needles: phrases.isEmpty ? Array(needles) : [])
    }

    /// The shown text of each hyperlink whose hidden target (`[label](url)`) the query matches:
    /// what a hit found only by such a target marks. Sorted; spans outside the text are skipped.
    func hiddenLinkMatches(in text: String, spans: [StoredSpan]) -> [Match] {
        let utf16 = text.utf16
        var out: [Match] = []
        for s in spans.sorted(by: { $0.start < $1.start }) {
            guard case .hyperLink(_, let target)? = s.format, 0 <= s.start, s.start < s.end, s.end <= utf16.count,
                !matches(in: target).isEmpty
            else { continue }
            let lower = utf16.index(utf16.startIndex, offsetBy: s.start)
            let upper = utf16.index(utf16.startIndex, offsetBy: s.end)
            // Offsets inside a surrogate pair have no UTF-8 position: such a span is skipped.
            guard let l8 = lower.samePosition(in: text.utf8), let u8 = upper.samePosition(in: text.utf8),
                out.last.map({ $0.utf16.upperBound <= s.start }) ?? true
            else { continue }
            let start8 = text.utf8.distance(from: text.utf8.startIndex, to: l8)
            let end8 = text.utf8.distance(from: text.utf8.startIndex, to: u8)
            out.append(Match(utf16: s.start..<s.end, utf8: start8..<end8))
        }
        return out
    }

    /// UTF-16 `[start, end)` ranges of every matched occurrence, sorted; overlapping ones merged.
    func ranges(in text: String) -> [Range<Int>] {
        matches(in: text).map(\.utf16)
    }

    /// Every matched occurrence, sorted; overlapping ones merged.
    func matches(in text: String) -> [Match] {
        guard !isEmpty, !text.isEmpty else { return [] }
        var copy = self
        if copy.matcher == nil { copy.prepare() }
        guard let matcher = copy.matcher else { return [] }
        let tokens = matcher.positionedMatches(in: text)
        guard !tokens.isEmpty else { return [] }
        var found: [Match] = []
        for t in tokens where words.contains(t.text) || prefixes.contains(where: { t.text.utf8.starts(with: $0.utf8) })
        {
            found.append(Match(utf16: t.utf16Range, utf8: t.utf8Range))
        }
        if !phrases.isEmpty {
            // Tokens grouped by position (they arrive in position order).
            var groups: [(position: Int, tokens: ArraySlice<TokenMatch>)] = []
            var i = tokens.startIndex
            while i < tokens.endIndex {
                var j = i + 1
                while j < tokens.endIndex, tokens[j].position == tokens[i].position { j += 1 }
                groups.append((tokens[i].position, tokens[i..<j]))
                i = j
            }
            for phrase in phrases where !phrase.isEmpty {
                for g in groups.indices where g + phrase.count <= groups.count {
                    var match: Match? = nil
                    for (k, want) in phrase.enumerated() {
                        let group = groups[g + k]
                        let isLast = k == phrase.count - 1
                        guard group.position == groups[g].position + k,
                            let hit = group.tokens.first(where: {
                                $0.text == want
                                    || (isLast && lastPrefix == want && $0.text.utf8.starts(with: want.utf8))
                            })
                        else {
                            match = nil
                            break
                        }
                        match =
                            match.map {
                                Match(
                                    utf16: min(
                                        $0.utf16.lowerBound, hit.utf16Range.lowerBound)..<max(
                                            $0.utf16.upperBound, hit.utf16Range.upperBound),
                                    utf8: min(
                                        $0.utf8.lowerBound, hit.utf8Range.lowerBound)..<max(
                                            $0.utf8.upperBound, hit.utf8Range.upperBound))
                            } ?? Match(utf16: hit.utf16Range, utf8: hit.utf8Range)
                    }
                    if let match { found.append(match) }
                }
            }
        }
        found.sort { $0.utf16.lowerBound < $1.utf16.lowerBound }
        var merged: [Match] = []
        for m in found {
            // Overlapping matches (CJK pairs) merge; touching ones stay apart: one range per occurrence.
            if let last = merged.last, m.utf16.lowerBound < last.utf16.upperBound {
                merged[merged.count - 1] = Match(
                    utf16: last.utf16.lowerBound..<max(last.utf16.upperBound, m.utf16.upperBound),
                    utf8: last.utf8.lowerBound..<max(last.utf8.upperBound, m.utf8.upperBound))
            } else {
                merged.append(m)
            }
        }
        return merged
    }

    /// A short excerpt around the first match, matches in `[brackets]`, `…` where cut;
    /// `context` UTF-16 code units on each side, never cutting a scalar.
    /// - Complexity: O(length of the excerpt) after one copy of the text's bytes.
    static func snippet(_ text: String, matches: [Match], context: Int = 40) -> String {
        var copy = text
        return copy.withUTF8 { b -> String in
            func piece(_ r: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self)
            }
            func length(_ lead: UInt8) -> Int { lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4 }
            /// The byte offset `units` UTF-16 code units after `from` (or the end).
            func forward(_ from: Int, _ units: Int) -> Int {
                var i = from
                var n = 0
                while i < b.count, n < units {
                    let l = length(b[i])
                    n += l == 4 ? 2 : 1
                    i = min(b.count, i + l)
                }
                return i
            }
            guard let first = matches.first, first.utf8.upperBound <= b.count else {
                let end = forward(0, 2 * context)
                return end >= b.count ? text : piece(0..<end) + "…"
            }
            var start = first.utf8.lowerBound
            var n = 0
            while start > 0, n < context {
                start -= 1
                while start > 0, b[start] & 0xC0 == 0x80 { start -= 1 }
                n += length(b[start]) == 4 ? 2 : 1
            }
            let end = forward(first.utf8.upperBound, context)
            var out = start > 0 ? "…" : ""
            var pos = start
            for m in matches where m.utf8.lowerBound >= pos && m.utf8.upperBound <= end {
                out += piece(pos..<m.utf8.lowerBound)
                out += "[" + piece(m.utf8) + "]"
                pos = m.utf8.upperBound
            }
            out += piece(pos..<end)
            if end < b.count { out += "…" }
            return out
        }
    }
}
