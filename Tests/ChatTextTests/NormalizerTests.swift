import ChatText
import Testing

/// One row of a normaliser table: what goes in and the exact bytes that must come out.
struct NormalizationCase: CustomTestStringConvertible, Sendable {
    let name: String
    let input: String
    let expected: String
    var testDescription: String { name }

    init(_ name: String, _ input: String, _ expected: String) {
        self.name = name
        self.input = input
        self.expected = expected
    }
}

/// Compares UTF-8 bytes: Swift's `==` treats canonically equivalent strings as equal, which
/// would hide the difference between composed and decomposed output.
func sameBytes(_ a: String, _ b: String) -> Bool { Array(a.utf8) == Array(b.utf8) }

let normalizationCases: [NormalizationCase] = [
    // German: ß, umlauts.
    .init("sharp s", "Straße", "strasse"),
    .init("capital words", "STRASSE", "strasse"),
    .init("compound with ß", "Heinestraße", "heinestrasse"),
    .init("ö and ß", "Größe", "grosse"),
    .init("capital umlaut", "Ärger", "arger"),
    .init("capital sharp s", "\u{1E9E}", "ss"),
    .init("Fußball", "Fußball", "fussball"),
    .init("Österreich", "Österreich", "osterreich"),
    // Greek: final sigma, tonos, breathings, iota subscript.
    .init("Greek capitals", "ΟΔΥΣΣΕΥΣ", "οδυσσευσ"),
    .init("Greek final sigma", "Οδυσσεύς", "οδυσσευσ"),
    .init("lone final sigma", "ς", "σ"),
    .init("Greek tonos", "άέήίόύώ", "αεηιουω"),
    .init("iota with dialytika and tonos", "ΐ", "ι"),
    .init("polytonic Greek", "Ἀθῆναι", "αθηναι"),
    .init("iota subscript", "ᾳ", "αι"),
    .init("Greece", "Ελλάδα", "ελλαδα"),
    .init("capital tonos", "ΆΈΉ", "αεη"),
    // Turkish: dotted and dotless i.
    .init("dotted capital I", "İstanbul", "istanbul"),
    .init("plain capital I", "ISTANBUL", "istanbul"),
    .init("dotless i", "ısı", "isi"),
    .init("Turkish capitals", "IŞIK", "isik"),
    .init("Turkish lower case", "ışık", "isik"),
    .init("c cedilla and g breve", "Çağlar", "caglar"),
    .init("Turkish umlaut", "Gözlük", "gozluk"),
    // Full-width and half-width forms.
    .init("full-width Latin and digits", "ＡＢＣ１２３", "abc123"),
    .init("full-width lower case", "ｈｅｌｌｏ", "hello"),
    .init("half-width katakana", "ﾊﾝｶｸ", "ハンカク"),
    .init("half-width voiced mark", "ｶﾞ", "ガ"),
    .init("ideographic space", "a\u{3000}b", "a b"),
    .init("full-width comma", "你好，世界", "你好,世界"),
    // Ligatures and compatibility characters.
    .init("fi ligature", "ﬁ", "fi"),
    .init("fl ligature", "ﬂ", "fl"),
    .init("ffi ligature", "ﬃ", "ffi"),
    .init("ij digraph", "ĳ", "ij"),
    .init("DZ with caron", "Ǆ", "dz"),
    .init("square kg", "㎏", "kg"),
    .init("circled digit", "①", "1"),
    .init("superscript", "x²", "x2"),
    .init("trade mark", "™", "tm"),
    .init("Roman numeral", "Ⅻ", "xii"),
    .init("Kelvin sign", "\u{212A}", "k"),
    .init("Angstrom sign", "\u{212B}", "a"),
    .init("micro sign", "µ", "μ"),
    .init("Arabic lam-alef ligature", "ﻻ", "لا"),
    .init("square kabushiki kaisha", "㍿", "株式会社"),
    .init("CJK compatibility ideograph", "\u{F900}", "\u{8C48}"),
    // Latin letters without a decomposition.
    .init("Polish l with stroke", "Łukasz", "lukasz"),
    .init("o with stroke", "Øresund", "oresund"),
    .init("d with stroke", "Đorđe", "dorde"),
    .init("ash", "Æsir", "aesir"),
    .init("oe ligature", "Œuvre", "oeuvre"),
    .init("thorn", "þorn", "thorn"),
    .init("capital thorn", "Þór", "thor"),
    .init("eth", "Guðmundsdóttir", "gudmundsdottir"),
    .init("eng", "ŋ", "n"),
    .init("h with stroke", "ħ", "h"),
    .init("t with stroke", "ŧ", "t"),
    .init("long s", "ſ", "s"),
    .init("kra", "ĸ", "k"),
    .init("Norwegian name", "Øystein", "oystein"),
    // Accents of Latin scripts.
    .init("e acute", "Café", "cafe"),
    .init("French", "crème brûlée", "creme brulee"),
    .init("diaeresis", "naïve", "naive"),
    .init("Spanish", "Ñandú", "nandu"),
    .init("Portuguese", "São Paulo", "sao paulo"),
    .init("Vietnamese", "Tiếng Việt", "tieng viet"),
    .init("Vietnamese name", "Nguyễn", "nguyen"),
    .init("Czech", "Černý", "cerny"),
    .init("Polish", "Żółć", "zolc"),
    .init("Czech r caron", "Dvořák", "dvorak"),
    .init("Zoë", "Zoë", "zoe"),
    .init("Icelandic", "Björk", "bjork"),
    // Combining sequences.
    .init("e + combining acute", "e\u{301}", "e"),
    .init("E + combining acute", "E\u{301}cole", "ecole"),
    .init("a + ring", "a\u{30A}", "a"),
    .init("A + diaeresis", "A\u{308}", "a"),
    .init("n + tilde", "n\u{303}", "n"),
    .init("stacked marks", "a\u{323}\u{302}", "a"),
    .init("dotless i + dot", "ı\u{307}", "i"),
    // Russian and other Cyrillic.
    .init("Russian", "Привет", "привет"),
    .init("yo", "ёлка", "елка"),
    .init("capital yo", "ЁЛКА", "елка"),
    .init("Moscow", "Москва", "москва"),
    .init("short i is a letter", "Дмитрий", "дмитрий"),
    .init("capital short i", "ЙОД", "йод"),
    .init("decomposed short i", "и\u{306}", "й"),
    .init("Ukrainian yi", "Україна", "укра\u{456}на"),
    .init("Belarusian short u", "ўсё", "ўсе"),
    .init("Cyrillic stress mark", "мо\u{301}ре", "море"),
    // Hebrew.
    .init("Hebrew with niqqud", "שָׁלוֹם", "שלום"),
    .init("Hebrew without niqqud", "שלום", "שלום"),
    .init("Genesis", "בְּרֵאשִׁית", "בראשית"),
    .init("Israel", "יִשְׂרָאֵל", "ישראל"),
    .init("Hebrew cantillation", "בְּרֵאשִׁ֖ית", "בראשית"),
    .init("Hebrew presentation form", "\u{FB2A}", "ש"),
    .init("Hebrew maqaf is kept", "בית־ספר", "בית־ספר"),
    // Arabic.
    .init("Arabic with harakat", "مُحَمَّد", "محمد"),
    .init("Arabic without harakat", "محمد", "محمد"),
    .init("Arabic book", "كِتَاب", "كتاب"),
    .init("tatweel", "العـــربية", "العربية"),
    .init("greeting with harakat", "السَّلَامُ عَلَيْكُمْ", "السلام عليكم"),
    .init("alef with madda", "قرآن", "قران"),
    .init("alef with hamza", "أحمد", "احمد"),
    .init("superscript alef", "هٰذا", "هذا"),
    // Thai, Devanagari and other scripts whose marks are spelling.
    .init("Thai tone marks kept", "ที่นี่", "ที่นี่"),
    .init("Thai greeting", "สวัสดีครับ", "สวัสดีครับ"),
    .init("Thai sara am splits under NFKC, tone mark kept", "น้ำ", "\u{E19}\u{E49}\u{E4D}\u{E32}"),
    .init("Thai language", "ภาษาไทย", "ภาษาไทย"),
    .init("Hindi vowel signs and virama kept", "हिन्दी", "हिन्दी"),
    .init("namaste", "नमस्ते", "नमस्ते"),
    .init("Bharat", "भारत", "भारत"),
    .init("Devanagari nukta kept", "\u{958}", "\u{915}\u{93C}"),
    .init("Bengali", "বাংলা", "বাংলা"),
    .init("Tamil", "தமிழ்", "தமிழ்"),
    // Hangul.
    .init("Hangul syllables", "한국어", "한국어"),
    .init("conjoining jamo compose", "\u{1112}\u{1161}\u{11AB}", "한"),
    .init("compatibility jamo", "ㅎ", "\u{1112}"),
    .init("Seoul", "서울에서", "서울에서"),
    // Chinese and Japanese.
    .init("Tokyo", "東京", "東京"),
    .init("simplified Chinese", "中文", "中文"),
    .init("katakana", "カタカナ", "カタカナ"),
    .init("hiragana", "ひらがな", "ひらがな"),
    .init("half-width katakana word", "ｶﾀｶﾅ", "カタカナ"),
    .init("combining voiced mark", "か\u{3099}", "が"),
    .init("prolonged sound mark", "ラーメン", "ラーメン"),
    // Emoji.
    .init("emoji", "😂", "😂"),
    .init("emoji variation selector", "❤️", "❤"),
    .init("text variation selector", "☺︎", "☺"),
    .init("skin tone kept", "👍🏽", "👍🏽"),
    .init("ZWJ family kept", "👨‍👩‍👧", "👨\u{200D}👩\u{200D}👧"),
    .init("rainbow flag", "🏳️‍🌈", "🏳\u{200D}🌈"),
    .init("country flag", "🇫🇷", "🇫🇷"),
    .init("keycap", "1️⃣", "1\u{20E3}"),
    .init(
        "tag sequence flag", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
        "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"),
    .init("ZWJ between letters removed", "a\u{200D}b", "ab"),
    // Invisible characters and punctuation.
    .init("empty", "", ""),
    .init("ASCII", "hello", "hello"),
    .init("ASCII mixed case", "HELLO World", "hello world"),
    .init("right single quotation mark", "don’t", "don't"),
    .init("modifier letter apostrophe", "пʼять", "п'ять"),
    .init("soft hyphen", "soft\u{AD}hyphen", "softhyphen"),
    .init("zero width space", "zero\u{200B}width", "zerowidth"),
    .init("byte order mark", "\u{FEFF}bom", "bom"),
    .init("ZWNJ", "می\u{200C}خواهم", "میخواهم"),
    // Already normalised.
    .init("normalised Latin", "cafe", "cafe"),
    .init("normalised German", "strasse", "strasse"),
    .init("normalised Russian", "елка", "елка"),
    .init("normalised Greek", "οδυσσευσ", "οδυσσευσ"),
    .init("digits and punctuation", "1,000.50 €", "1,000.50 €"),
]

@Suite("Normaliser")
struct NormalizerTests {
    @Test("normalises", arguments: normalizationCases)
    func normalizes(_ c: NormalizationCase) {
        let result = TextNormalizer.normalize(c.input)
        #expect(
            sameBytes(result, c.expected),
            "\(c.input) → \(result.unicodeScalars.map { String($0.value, radix: 16) }), expected \(c.expected)")
    }

    @Test("normalising twice changes nothing", arguments: normalizationCases)
    func idempotent(_ c: NormalizationCase) {
        let once = TextNormalizer.normalize(c.input)
        #expect(sameBytes(TextNormalizer.normalize(once), once))
    }

    @Test(
        "transliterates names to ASCII",
        arguments: [
            ("Дмитрий", "dmitrij"), ("Łukasz", "lukasz"), ("Černý", "cerny"), ("Zoë", "zoe"),
            ("Москва", "moskva"), ("Сергей", "sergej"), ("Ελλάδα", "ellada"), ("Straße", "strasse"),
            ("İstanbul", "istanbul"), ("Björk Guðmundsdóttir", "bjork gudmundsdottir"), ("ALICE", "alice"),
            ("Øystein", "oystein"), ("Nguyễn", "nguyen"), ("서울", "seoul"), ("東京", "dong jing"),
            ("ﾊﾝｶｸ", "hankaku"), ("", ""),
        ])
    func transliterates(_ input: String, _ expected: String) {
        #expect(TextNormalizer.transliterate(input) == expected)
    }

    /// Version 2: the vocabulary holds co-located parts too. Changing the tokens or the
    /// vocabulary an analyser produces must bump the version (archives rebuild on open).
    @Test func analyzerVersionIsTwo() {
        #expect(Analyzer.version == 2)
    }
}
