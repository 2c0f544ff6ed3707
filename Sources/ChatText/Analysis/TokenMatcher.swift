// The files of Analysis/ are the only Swift files that talk to CChatICU: they own every unsafe
// pointer and C callback.
import CChatICU

/// Finds the tokens of a text that equal one of a set of terms or start with one of a set of
/// prefixes, with the analyser that indexed it: the fast path of highlighting (no string is
/// made for a token that does not match).
package final class TokenMatcher: @unchecked Sendable {
    private let handle: OpaquePointer?

    /// - Parameters:
    ///   - words: normalised tokens that match whole.
    ///   - prefixes: normalised tokens that match any token they start.
    ///   - needles: substrings one of which every word and prefix contains (the query words
    ///     they expand); text pieces of ASCII without one are then not analysed, and the
    ///     positions of ``positionedMatches(in:)`` count only the pieces that are. Ignored
    ///     unless every term contains one of them.
    package init<W: Sequence<String>, P: Sequence<String>>(words: W, prefixes: P, needles: [String] = []) {
        handle = cchaticu_matcher_new()
        let words = Array(words)
        let prefixes = Array(prefixes)
        for (terms, isPrefix) in [(words, Int32(0)), (prefixes, Int32(1))] {
            for var t in terms {
                t.withUTF8 { b in cchaticu_matcher_add(handle, b.baseAddress, Int32(b.count), isPrefix) }
            }
        }
        let needleBytes = needles.map { Array($0.utf8) }
        func covered(_ term: String) -> Bool {
            let t = Array(term.utf8)
            return needleBytes.contains { n in
                !n.isEmpty && n.count <= t.count
                    && (0...(t.count - n.count)).contains { t[$0..<($0 + n.count)].elementsEqual(n) }
            }
        }
        if !needleBytes.isEmpty, words.allSatisfy(covered), prefixes.allSatisfy(covered) {
            for n in needleBytes {
                n.withUnsafeBufferPointer { cchaticu_matcher_add_needle(handle, $0.baseAddress, Int32($0.count)) }
            }
        }
    }

    deinit { cchaticu_matcher_free(handle) }

    /// Whether the analyser turns `scalar`, alone or beside others of its kind, into no ASCII
    /// letter or digit: with needles that are ASCII words, pieces made of such scalars (and
    /// ASCII without letters or digits) are not analysed.
    package static func yieldsNoASCII(_ scalar: Unicode.Scalar) -> Bool {
        cchaticu_scalar_yields_no_ascii(scalar.value) != 0
    }

    /// The matching tokens of `s`, in order, with their UTF-16 ranges in `s`.
    package func matches(in s: String) -> [AnalyzedToken] {
        var copy = s
        return copy.withUTF8 { bytes -> [AnalyzedToken] in
            guard bytes.count < Int(Int32.max) else { return [] }
            let collector = TokenCollector(bytes: bytes)
            withExtendedLifetime(collector) {
                let ctx = Unmanaged.passUnretained(collector).toOpaque()
                _ = cchaticu_matcher_run(handle, bytes.baseAddress, Int32(bytes.count), ctx) {
                    ctx, flags, token, length, start, end in
                    guard let ctx else { return 1 }
                    let collector = Unmanaged<TokenCollector>.fromOpaque(ctx).takeUnretainedValue()
                    collector.add(
                        token: token, length: Int(length), start: Int(start), end: Int(end),
                        isColocated: flags & Int32(CCHATICU_TOKEN_COLOCATED) != 0)
                    return 0
                }
            }
            return collector.tokens
        }
    }

    /// The matching tokens of `s` with their positions (co-located tokens share one, as in
    /// FTS5) and their UTF-8 and UTF-16 ranges in `s`, in order.
    package func positionedMatches(in s: String) -> [TokenMatch] {
        final class Sink {
            var cursor: UTF16Cursor
            var found: [TokenMatch] = []
            init(_ bytes: UnsafeBufferPointer<UInt8>) { cursor = UTF16Cursor(bytes: bytes) }
        }
        var copy = s
        return copy.withUTF8 { bytes -> [TokenMatch] in
            guard bytes.count < Int(Int32.max) else { return [] }
            let sink = Sink(bytes)
            withExtendedLifetime(sink) {
                let ctx = Unmanaged.passUnretained(sink).toOpaque()
                _ = cchaticu_matcher_find(handle, bytes.baseAddress, Int32(bytes.count), ctx) {
                    ctx, position, token, length, start, end in
                    guard let ctx else { return 1 }
                    let sink = Unmanaged<Sink>.fromOpaque(ctx).takeUnretainedValue()
                    let text =
                        token.map {
                            String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
                        } ?? ""
                    let lower = Int(start)
                    let upper = max(Int(start), Int(end))
                    let lower16 = sink.cursor.utf16Offset(ofByte: lower)
                    let upper16 = max(lower16, sink.cursor.utf16Offset(ofByte: upper))
                    sink.found.append(
                        TokenMatch(
                            text: text, position: Int(position), utf8Range: lower..<upper, utf16Range: lower16..<upper16
                        ))
                    return 0
                }
            }
            return sink.found
        }
    }
}
