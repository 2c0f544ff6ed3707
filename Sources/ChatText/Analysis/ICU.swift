// The only Swift file that talks to CChatICU: it owns every unsafe pointer and C callback.
import CChatICU

/// Search normalisation shared by documents, queries and names.
package enum TextNormalizer {
    /// Returns `s` folded for search: NFKC, full case folding, optional marks removed
    /// (Latin/Greek/Cyrillic accents, Hebrew points, Arabic harakat and tatweel), Latin letters
    /// without a decomposition folded (`ł` → `l`), variation selectors dropped.
    /// - Complexity: O(n); pure ASCII input never reaches ICU.
    package static func normalize(_ s: String) -> String {
        convert(s) { cchaticu_normalize($0, $1, $2, $3) }
    }

    /// Returns a lower-cased ASCII transliteration of `s` for name search
    /// (`Дмитрий` → `dmitrij`, `Łukasz` → `lukasz`).
    /// - Complexity: O(n) but slow (about 3 MB/s): use it on names, not on messages.
    package static func transliterate(_ s: String) -> String {
        convert(s) { cchaticu_transliterate($0, $1, $2, $3) }
    }

    private static func convert(
        _ s: String,
        _ body: (
            UnsafePointer<UInt8>?, Int32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
            UnsafeMutablePointer<Int32>
        ) -> Int32
    ) -> String {
        var copy = s
        return copy.withUTF8 { bytes -> String in
            guard bytes.count < Int(Int32.max) else { return s.lowercased() }
            var out: UnsafeMutablePointer<UInt8>?
            var length: Int32 = 0
            let rc = body(bytes.baseAddress, Int32(bytes.count), &out, &length)
            guard rc == 0, let out else { return s.lowercased() }
            defer { cchaticu_free(out) }
            return String(decoding: UnsafeBufferPointer(start: out, count: Int(length)), as: UTF8.self)
        }
    }
}

/// One token produced by the analyser.
package struct AnalyzedToken: Sendable, Hashable {
    /// The normalised token, as stored in the full-text index.
    package var text: String
    /// Where the token comes from, in UTF-16 code units of the analysed string.
    package var utf16Range: Range<Int>
    /// True when the token shares the position of the previous one (an alternative form).
    package var isColocated: Bool

    /// Creates a token.
    package init(text: String, utf16Range: Range<Int>, isColocated: Bool) {
        self.text = text
        self.utf16Range = utf16Range
        self.isColocated = isColocated
    }
}

/// Whether text is analysed as a document (indexed) or as a query.
package enum TokenizerMode: Sendable, Hashable {
    /// Document: every findable form is emitted, alternatives co-located.
    case document
    /// Query: one token per position, so that a query matches the document's forms.
    case query
}

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

/// Collects tokens and converts byte offsets to UTF-16 offsets with a moving cursor
/// (tokens arrive almost in order, so the whole conversion is one pass).
private final class TokenCollector {
    var cursor: UTF16Cursor
    var tokens: [AnalyzedToken] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        cursor = UTF16Cursor(bytes: bytes)
    }

    func add(token: UnsafePointer<UInt8>?, length: Int, start: Int, end: Int, isColocated: Bool) {
        let text = token.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
        let lower = cursor.utf16Offset(ofByte: start)
        let upper = max(lower, cursor.utf16Offset(ofByte: end))
        tokens.append(AnalyzedToken(text: text, utf16Range: lower..<upper, isColocated: isColocated))
    }
}

/// Converts UTF-8 byte offsets of a text to UTF-16 offsets, moving from the last answer.
private struct UTF16Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var bytePosition = 0
    var utf16Position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func utf16Offset(ofByte target: Int) -> Int {
        let target = min(max(target, 0), bytes.count)
        while bytePosition < target {
            let byte = bytes[bytePosition]
            if byte & 0xC0 != 0x80 { utf16Position += byte >= 0xF0 ? 2 : 1 }
            bytePosition += 1
        }
        while bytePosition > target {
            bytePosition -= 1
            let byte = bytes[bytePosition]
            if byte & 0xC0 != 0x80 { utf16Position -= byte >= 0xF0 ? 2 : 1 }
        }
        return utf16Position
    }
}

/// The analyser's identity.
package enum Analyzer {
    /// Version of the normaliser and tokenizer rules: indexes built with another version
    /// must be rebuilt.
    package static var version: Int { Int(cchaticu_analyzer_version()) }
}

/// Registration of the FTS5 tokenizer "chat" on SQLite connections.
package enum FTS5Registration {
    /// Registers the tokenizer "chat" on `db` (an `sqlite3 *`); returns an SQLite result code.
    @discardableResult
    package static func register(on db: OpaquePointer) -> Int32 {
        cchaticu_register_fts5(UnsafeMutableRawPointer(db))
    }
}

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

/// A token that a ``TokenMatcher`` found.
package struct TokenMatch: Sendable, Hashable {
    /// The normalised token.
    package var text: String
    /// Its position among the text's token positions (co-located tokens share one).
    package var position: Int
    /// Where it comes from, in UTF-8 code units of the analysed string.
    package var utf8Range: Range<Int>
    /// Where it comes from, in UTF-16 code units of the analysed string.
    package var utf16Range: Range<Int>

    /// Creates a match.
    package init(text: String, position: Int, utf8Range: Range<Int>, utf16Range: Range<Int>) {
        self.text = text
        self.position = position
        self.utf8Range = utf8Range
        self.utf16Range = utf16Range
    }
}

/// The distinct terms of the documents added to it (whole tokens and co-located parts, no
/// character n-grams), for the archive's infix and prefix vocabulary. It remembers every term
/// it has seen and hands out each one once. Thread-safe.
package final class TermSet: @unchecked Sendable {
    private let handle: OpaquePointer?

    package init() { handle = cchaticu_vocab_new() }
    deinit { cchaticu_vocab_free(handle) }

    /// Adds the terms of a prepared document.
    package func add(_ doc: TokenizedDocument) {
        cchaticu_vocab_add_doc(handle, doc.handle)
    }

    /// Returns the terms added since the last drain that were never seen before.
    package func drain() -> [String] {
        final class Sink { var terms: [String] = [] }
        let sink = Sink()
        withExtendedLifetime(sink) {
            _ = cchaticu_vocab_drain(handle, Unmanaged.passUnretained(sink).toOpaque()) { ctx, _, token, length, _, _ in
                guard let ctx, let token else { return 0 }
                let sink = Unmanaged<Sink>.fromOpaque(ctx).takeUnretainedValue()
                sink.terms.append(
                    String(decoding: UnsafeBufferPointer(start: token, count: Int(length)), as: UTF8.self))
                return 0
            }
        }
        return sink.terms
    }
}

/// A text analysed ahead of time, on any thread, so that the FTS5 tokenizer replays its
/// tokens instead of analysing it again on the writer's thread (the ingest pipeline analyses
/// on one core while SQLite writes on the other).
///
/// Arm it on the writing thread around the statement that indexes exactly this text; the tokenizer checks the bytes, so a
/// mismatch only costs a normal analysis, never a wrong index.
package final class TokenizedDocument: @unchecked Sendable {
    fileprivate let handle: OpaquePointer?

    /// Analyses `text` as a document.
    package init(_ text: String) {
        var text = text
        handle = text.withUTF8 { buf in
            cchaticu_doc_tokenize(buf.baseAddress, Int32(buf.count))
        }
    }

    deinit { cchaticu_doc_free(handle) }

    /// Runs `body` with up to two documents armed on the calling thread.
    package static func armed<T>(_ first: TokenizedDocument?, _ second: TokenizedDocument?, _ body: () throws -> T)
        rethrows -> T
    {
        try withExtendedLifetime((first, second)) {
            cchaticu_doc_arm(first?.handle, second?.handle)
            defer { cchaticu_doc_arm(nil, nil) }
            return try body()
        }
    }
}
