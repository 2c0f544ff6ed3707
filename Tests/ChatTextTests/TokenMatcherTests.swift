import ChatTestSupport
import ChatText
import Testing

/// The highlighting fast path must find exactly the tokens the full tokenizer finds.
@Suite struct TokenMatcherTests {
    static let texts = [
        "Meet me at Heinestraße 5 — l'arbre du jardin, café ☕️ at 10:30",
        "東京タワーで会いましょう。渋谷駅の近くです",
        "서울에서 만나요 내일 오후 세시에",
        "สวัสดีครับ พรุ่งนี้เจอกันที่ร้านกาแฟ",
        "مرحبا بكم في المدينة، مَدْرَسَة جديدة",
        "שָׁלוֹם עולם, נתראה מחר",
        "नमस्ते दुनिया, कल मिलते हैं",
        "Привет, Дмитрий! Ёлка стоит во дворе",
        "İstanbul'da ılık bir gün, Iğdır",
        "👩🏽‍💻 codes, 👍🏿 ok, ＦＵＬＬ ｗｉｄｔｈ, e\u{301}cole",
        "write to zoe@example.org or see https://docs.example.org/a/b?x=1 #release @alice",
    ]

    @Test(arguments: texts)
    func agreesWithTheTokenizer(_ text: String) {
        let all = Tokenizer.tokens(in: text, mode: .document)
        // Every other distinct token as a word, the first two characters of a third as prefixes.
        let distinct = Array(Set(all.map(\.text))).sorted()
        let words = Set(distinct.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        let prefixes = Set(distinct.enumerated().filter { $0.offset % 3 == 1 }.map { String($0.element.prefix(2)) })
        // Prefixes are byte prefixes, as in FTS5 (`👩*` matches `👩🏽‍💻`, which Swift's
        // grapheme-based hasPrefix would not).
        let expected = all.filter { t in
            words.contains(t.text) || prefixes.contains { t.text.utf8.starts(with: $0.utf8) }
        }
        let found = TokenMatcher(words: words, prefixes: prefixes).matches(in: text)
        #expect(found == expected)
        #expect(!expected.isEmpty)
    }

    @Test func nothingMatchesAnEmptyMatcherOrText() {
        #expect(TokenMatcher(words: [String](), prefixes: [String]()).matches(in: "some text").isEmpty)
        #expect(TokenMatcher(words: ["some"], prefixes: ["te"]).matches(in: "").isEmpty)
    }
}

/// With needles, the matcher skips pieces of ASCII text that hold none of them: the matches
/// must be exactly those of a full analysis, in every script and around the odd characters
/// that join a token across white space (a joiner or mark right after a space).
@Suite struct TokenMatcherNeedleTests {
    static let parts = [
        "That", "that's", "THAT", "thatcher", "hello", "World", "l'arbre", "e.g", "3.14", "1,000",
        "user@mail.example.com",
        "https://www.example.com/path/that?q=1", "@alice", "#tag", "foo_bar", "ﬁle", "ｔｈａｔ", "Thát", "straße",
        "İstanbul",
        "Дмитрий", "привет", "東京タワー", "서울특별시", "ภาษาไทย", "مرحبا", "שָׁלוֹם", "नमस्ते", "😂", "👨‍👩‍👧", "\u{200D}🅰️",
        "\u{301}that", "e\u{301}", "\u{200D}that", "ﾃｽﾄ", "1️⃣", "#️⃣", "🇩🇪", "www.that.org", "x1.com", "mple.x1.com",
        // Latin beside other scripts, and characters that fold to ASCII letters or digits.
        "thatनमस्ते", "नमस्तेthat।", "th\u{064B}at", "ب\u{064B}that", "ｔhat", "①", "㎏", "Ⅻ", "\u{0966}\u{0967}", "that।",
        "Ⓣⓗⓐⓣ", "ʰ", "٣", "हैं?", "—।",
        // Runs that start a word after white space, or may join the one before.
        "東", "京", "ｶ", "\u{FF9E}", "ﾞ", "१२", "\u{094D}", "ー", "々", "ข", "\u{0E31}", "한", "ㄱ", "\u{200C}", "\u{FE0F}",
    ]
    static let spaces = [" ", "  ", "\n", "\t", " \u{200D}", "\u{00A0}", "\u{3000}", ""]

    @Test func needlesSkipOnlyWhatCannotMatch() {
        var g = SplitMix64(seed: 99)
        let texts = (0..<400).map { _ in
            (0..<(1 + g.next(below: 10))).map { _ in
                Self.parts[g.next(below: Self.parts.count)] + Self.spaces[g.next(below: Self.spaces.count)]
            }.joined()
        }
        let tokens = Array(Set(texts.flatMap { Tokenizer.tokens(in: $0, mode: .document).map(\.text) })).sorted()
        var scenarios = 0
        for _ in 0..<150 {
            let t = Array(tokens[g.next(below: tokens.count)])
            guard !t.isEmpty else { continue }
            let length = 1 + g.next(below: min(4, t.count))
            let start = g.next(below: t.count - length + 1)
            let needle = String(t[start..<(start + length)])
            // As the compiler builds them: the terms containing the word, the word as a prefix.
            let words = tokens.filter { $0.contains(needle) }
            let prefixes = g.next(below: 2) == 0 ? [needle] : []
            let full = TokenMatcher(words: words, prefixes: prefixes)
            let skipping = TokenMatcher(words: words, prefixes: prefixes, needles: [needle])
            for text in texts {
                let a = full.positionedMatches(in: text).map { "\($0.text) \($0.utf8Range) \($0.utf16Range)" }
                let b = skipping.positionedMatches(in: text).map { "\($0.text) \($0.utf8Range) \($0.utf16Range)" }
                #expect(a == b, "needle \(needle.debugDescription) in \(text.debugDescription)")
                let c = full.matches(in: text)
                let d = skipping.matches(in: text)
                #expect(c == d, "needle \(needle.debugDescription) in \(text.debugDescription)")
            }
            scenarios += 1
        }
        #expect(scenarios > 100)
    }
}

/// The blocks whose pieces the matcher skips for ASCII needles: no scalar of them may become an
/// ASCII letter or digit under the analyser, alone or as a token.
@Suite struct ScalarsWithoutASCIITests {
    static func hasASCIIAlnum(_ s: String) -> Bool {
        s.utf8.contains { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
    }

    @Test func everyScalarOfTheBlocksStaysWithoutASCII() {
        var checked = 0
        var wrong: [String] = []
        for v in UInt32(0x80)...0x10FFFF {
            guard let u = Unicode.Scalar(v), TokenMatcher.yieldsNoASCII(u) else { continue }
            let s = String(Character(u))
            // Alone, and beside itself (a mark after a mark, a letter after a letter).
            for text in [s, s + s, s + s + s] {
                let tokens = Tokenizer.tokens(in: text, mode: .document).map(\.text)
                if Self.hasASCIIAlnum(TextNormalizer.normalize(text)) || tokens.contains(where: Self.hasASCIIAlnum) {
                    wrong.append(String(v, radix: 16))
                    break
                }
            }
            checked += 1
        }
        #expect(wrong.isEmpty, "scalars that yield ASCII: \(wrong.prefix(40))")
        #expect(checked > 100_000)
        // Mixed: marks after letters of other blocks, ASCII punctuation and spaces between.
        let sample = (UInt32(0x370)...0x1FAFF).compactMap(Unicode.Scalar.init).filter(TokenMatcher.yieldsNoASCII)
        let glue: [Unicode.Scalar] = [" ", "-", ".", "'", "?", "@", "#", "_", "/", ":"]
        var g = SplitMix64(seed: 7)
        for _ in 0..<3_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<(1 + g.next(below: 12)) {
                text.append(
                    g.next(below: 4) == 0 ? glue[g.next(below: glue.count)] : sample[g.next(below: sample.count)])
            }
            let s = String(text)
            #expect(
                !Tokenizer.tokens(in: s, mode: .document).map(\.text).contains(where: Self.hasASCIIAlnum),
                "\(s.debugDescription)")
        }
        #expect(
            !TokenMatcher.yieldsNoASCII("a") && !TokenMatcher.yieldsNoASCII("①") && !TokenMatcher.yieldsNoASCII("ｔ"))
    }
}
