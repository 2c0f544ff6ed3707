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
        let expected = all.filter { t in words.contains(t.text) || prefixes.contains { t.text.utf8.starts(with: $0.utf8) } }
        let found = TokenMatcher(words: words, prefixes: prefixes).matches(in: text)
        #expect(found == expected)
        #expect(!expected.isEmpty)
    }

    @Test func nothingMatchesAnEmptyMatcherOrText() {
        #expect(TokenMatcher(words: [String](), prefixes: [String]()).matches(in: "some text").isEmpty)
        #expect(TokenMatcher(words: ["some"], prefixes: ["te"]).matches(in: "").isEmpty)
    }
}
