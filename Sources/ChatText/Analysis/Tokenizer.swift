// The files of Analysis/ are the only Swift files that talk to CChatICU: they own every unsafe
// pointer and C callback.
import CChatICU

/// The analyser that the FTS5 tokenizer "chat" runs, callable from Swift.
package enum Tokenizer {
    /// A query string that the tokenizer takes as one token, verbatim: for terms read from the
    /// index vocabulary, which re-analysis could split (`mple.x1.com` is one host token in a
    /// document, but `mple.x1` and `com` as a word).
    package static func verbatim(_ term: String) -> String {
        String(UnicodeScalar(UInt8(CCHATICU_VERBATIM))) + term
    }

    /// Returns the tokens of `s`, exactly as the FTS5 tokenizer produces them.
    /// - Complexity: O(n).
    package static func tokens(in s: String, mode: TokenizerMode) -> [AnalyzedToken] {
        var copy = s
        return copy.withUTF8 { bytes -> [AnalyzedToken] in
            guard bytes.count < Int(Int32.max) else { return [] }
            let collector = TokenCollector(bytes: bytes)
            let cMode = Int32(mode == .query ? CCHATICU_MODE_QUERY : CCHATICU_MODE_DOCUMENT)
            withExtendedLifetime(collector) {
                let ctx = Unmanaged.passUnretained(collector).toOpaque()
                _ = cchaticu_tokenize(bytes.baseAddress, Int32(bytes.count), cMode, ctx) {
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
}
