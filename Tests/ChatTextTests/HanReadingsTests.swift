import CChatICU
import ChatTestSupport
import ChatText
import Foundation
import Testing

/// Name search transliterates text of ASCII and Han characters from a built-in table of
/// readings instead of compiling ICU's Han-Latin rules in each process. Both halves are
/// checked against ICU itself: the table, and what is made of it for whole texts.
@Suite struct HanReadingsTests {
    static func icu(_ s: String) -> String? {
        var copy = s
        return copy.withUTF8 { bytes -> String? in
            var out: UnsafeMutablePointer<UInt8>?
            var length: Int32 = 0
            guard cchaticu_transliterate_with_icu(bytes.baseAddress, Int32(bytes.count), &out, &length) == 0, let out
            else { return nil }
            defer { cchaticu_free(out) }
            return String(decoding: UnsafeBufferPointer(start: out, count: Int(length)), as: UTF8.self)
        }
    }

    static var builtIn: [UInt8] {
        var rows: UnsafePointer<UInt8>?
        var length: Int32 = 0
        _ = cchaticu_han_readings(&rows, &length)
        return rows.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
    }

    /// The ideographs of the table, in its order.
    static var ideographs: [Character] {
        String(decoding: builtIn, as: UTF8.self).split(separator: "\n").flatMap { row in
            row.split(separator: "\t").last.map(Array.init) ?? []
        }
    }

    @Test func theTableIsWhatICUReadsEachIdeographAlone() throws {
        var out: UnsafeMutablePointer<UInt8>?
        var length: Int32 = 0
        #expect(cchaticu_han_readings_from_icu(&out, &length) == 0)
        let fromICU = out.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
        cchaticu_free(out)
        if fromICU != Self.builtIn {
            // A newer ICU reads some ideographs otherwise: the file to build in instead.
            let path = NSTemporaryDirectory() + "/han-readings-from-icu.txt"
            try Data(fromICU).write(to: URL(fileURLWithPath: path))
            Issue.record("Sources/CChatICU/cchaticu_han_readings.inc differs from ICU's readings: rows in \(path)")
        }
        #expect(Self.ideographs.count > 40_000)
    }

    @Test func wordsReadAsICUReadsThem() {
        let cases: [(String, String)] = [
            ("東京", "dong jing"), ("北京大学", "bei jing da xue"), ("家人群", "jia ren qun"),
            // ICU's four readings that depend on the next character, a space between allowed.
            ("重庆", "chong qing"), ("重", "zhong"), ("重 庆", "chong qing"), ("藏文", "zang wen"), ("沈阳", "shen yang"),
            ("秘鲁", "bi lu"),
            // Spaces around ASCII: before an ideograph or `(` after a letter, after `.` or `)`.
            ("ABC東京", "abc dong jing"), ("東京ABC", "dong jingabc"), ("東(京)", "dong (jing)"), ("a(東", "a (dong"),
            ("東,京", "dong, jing"), ("9東", "9dong"), ("東9", "dong9"), ("東 京", "dong jing"),
        ]
        for (text, expected) in cases {
            #expect(TextNormalizer.transliterate(text) == expected, "\(text)")
            #expect(Self.icu(text) == expected, "ICU: \(text)")
        }
    }

    @Test func randomTextsReadAsICUReadsThem() {
        let ideographs = Self.ideographs
        let context: [Character] = ["藏", "文", "重", "庆", "沈", "阳", "秘", "鲁"]
        let ascii = (32..<127).map { Character(UnicodeScalar(UInt8($0))) } + ["\t", "\n"]
        var rng = SplitMix64(seed: 36)
        var differ: [String] = []
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<4: text.append(ideographs.randomElement(using: &rng)!)
                case 4..<6: text.append(context.randomElement(using: &rng)!)
                case 6: text.append(" ")
                default: text.append(ascii.randomElement(using: &rng)!)
                }
            }
            if TextNormalizer.transliterate(text) != Self.icu(text) { differ.append(text) }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
    }

    @Test func otherScriptsStillGoThroughICU() {
        // Kana, an ideograph without a reading, full-width letters, Cyrillic, broken UTF-8-free
        // mixes: the same answer as ICU's, whichever way each takes.
        for text in ["東京タワー", "〆切", "ＡＢＣ東京", "Москва 東京", "東京\u{301}", "🇯🇵東京", "東京。"] {
            #expect(TextNormalizer.transliterate(text) == Self.icu(text), "\(text)")
        }
    }
}
