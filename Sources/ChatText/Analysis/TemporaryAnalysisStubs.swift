// Temporary: replaced by the analyser helper's ICU wrapper on merge.
import CChatICU
import Foundation

public enum TextNormalizer {
    /// Interim folding (case, accents, width) until the ICU normaliser lands.
    public static func normalize(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
    public static func transliterate(_ s: String) -> String {
        (s.applyingTransform(.toLatin, reverse: false) ?? s).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}

public struct AnalyzedToken: Sendable, Hashable {
    public var text: String
    public var utf16Range: Range<Int>
    public var isColocated: Bool
}

public enum TokenizerMode { case document, query }

public enum Tokenizer {
    public static func tokens(in s: String, mode: TokenizerMode) -> [AnalyzedToken] {
        var out: [AnalyzedToken] = []
        var cur = ""
        var start = 0
        var pos = 0
        for u in s.unicodeScalars {
            if u.properties.isAlphabetic || u.properties.numericType != nil {
                if cur.isEmpty { start = pos }
                cur.unicodeScalars.append(u)
            } else if !cur.isEmpty {
                out.append(AnalyzedToken(text: cur.lowercased(), utf16Range: start..<pos, isColocated: false))
                cur = ""
            }
            pos += u.utf16.count
        }
        if !cur.isEmpty { out.append(AnalyzedToken(text: cur.lowercased(), utf16Range: start..<pos, isColocated: false)) }
        return out
    }
}

public enum Analyzer {
    public static var version: Int { Int(cchaticu_analyzer_version()) }
}

public enum FTS5Registration {
    public static func register(on db: OpaquePointer) -> Int32 { cchaticu_register_fts5(UnsafeMutableRawPointer(db)) }
}
