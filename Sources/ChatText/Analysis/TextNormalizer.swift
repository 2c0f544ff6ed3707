// The files of Analysis/ are the only Swift files that talk to CChatICU: they own every unsafe
// pointer and C callback.
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
    /// - Complexity: O(n). Text in the scripts of the built-in table of readings (accented Latin,
    ///   Cyrillic, Georgian, Hebrew, Arabic, Han) is read from it; other text goes through ICU's
    ///   transliterators, which are slow and built per process on first use: use it on names,
    ///   not on messages.
    package static func transliterate(_ s: String) -> String {
        convert(s) { cchaticu_transliterate($0, $1, $2, $3) }
    }

    /// ``transliterate(_:)`` through ICU's transliterator always, never the table of readings
    /// (for the tests that compare the two).
    package static func transliterateThroughICU(_ s: String) -> String {
        convert(s) { cchaticu_transliterate_with_icu($0, $1, $2, $3) }
    }

    /// Opens, one script at a time, the transliterators of the scripts people type that the
    /// built-in table of readings does not cover (Greek, Armenian, Thai, Hangul, Kana, Indic),
    /// built from their rules on a script's first use (SearchPerformance in ChatSearch.docc): a
    /// long-running process that calls it off its requests' path answers its first name search
    /// in each script as fast as the next one.
    package static func warmTransliteration() {
        let samples = ["Ελένη", "Հայկ", "กรุงเทพ", "서울", "ひらがな", "カタカナ", "नमस्ते"]
        for sample in samples { _ = transliterate(sample) }
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
