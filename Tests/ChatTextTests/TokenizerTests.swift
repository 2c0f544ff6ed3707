import ChatText
import Testing

/// One row of a tokenizer table. Expected tokens are written as text, co-located ones
/// prefixed with "+".
struct TokenizationCase: CustomTestStringConvertible, Sendable {
    let name: String
    let input: String
    let expected: [String]
    var testDescription: String { name }

    init(_ name: String, _ input: String, _ expected: [String]) {
        self.name = name
        self.input = input
        self.expected = expected
    }
}

func rendered(_ tokens: [AnalyzedToken]) -> [String] {
    tokens.map { ($0.isColocated ? "+" : "") + $0.text }
}

let documentCases: [TokenizationCase] = [
    .init("words and punctuation", "Hello, World!", ["hello", "world"]),
    .init("apostrophe", "Don't", ["don't", "+don", "+t"]),
    .init("elision", "l'arbre", ["l'arbre", "+l", "+arbre"]),
    .init("typographic apostrophe", "l’arbre", ["l'arbre", "+l", "+arbre"]),
    .init("abbreviation", "e.g. this", ["e.g", "+e", "+g", "this"]),
    .init("decimal number", "3.14", ["3.14", "+3", "+14"]),
    .init("thousands separator", "1,000 people", ["1,000", "+1", "+000", "people"]),
    .init("version", "v2.0", ["v2.0", "+v2", "+0"]),
    .init("letters and digits", "covid19 test", ["covid19", "test"]),
    .init("underscore", "foo_bar", ["foo_bar", "+foo", "+bar"]),
    .init("only underscores", "___", []),
    .init("mention", "@alice hi", ["alice", "+@alice", "hi"]),
    .init("tag", "#tag", ["tag", "+#tag"]),
    .init("hash after a word is no tag", "C# rocks", ["c", "rocks"]),
    .init("mention with a dot", "@alice.smith", ["alice.smith", "+@alice.smith", "+alice", "+smith"]),
    .init("emoji", "lol 😂", ["lol", "😂"]),
    .init("two emoji", "😂😂", ["😂", "😂"]),
    .init("skin tone", "👍🏽", ["👍🏽", "+👍"]),
    .init("ZWJ family", "👨‍👩‍👧", ["👨\u{200D}👩\u{200D}👧", "+👨", "+👩", "+👧"]),
    .init("ZWJ with skin tone", "👩🏽‍💻", ["👩🏽\u{200D}💻", "+👩\u{200D}💻", "+👩", "+💻"]),
    .init("variation selector", "❤️", ["❤"]),
    .init("flag", "🇫🇷", ["🇫🇷"]),
    .init("keycap", "1️⃣", ["1\u{20E3}"]),
    .init(
        "URL", "https://www.youtube.com/watch?v=abc",
        ["https", "www.youtube.com", "+youtube.com", "+youtube", "watch", "v", "abc"]),
    .init(
        "URL in a sentence", "see http://Example.com/A-B, ok",
        ["see", "http", "example.com", "+example", "a", "b", "ok"]),
    .init(
        "www host", "www.example.co.uk/path",
        ["www.example.co.uk", "+example.co.uk", "+co.uk", "+example", "+co", "path"]),
    .init("URL with port and user", "http://bob@host.org:8080/x", ["http", "bob", "host.org", "+host", "8080", "x"]),
    .init(
        "e-mail address", "bob.smith@example.com",
        ["bob.smith@example.com", "+bob.smith", "+bob", "+smith", "+example.com", "+example"]),
    .init("Han run", "東京", ["東京", "+東", "京"]),
    .init("longer Han run", "東京都", ["東京", "+東", "京都", "+京", "都"]),
    .init("Han then Latin", "東京tower", ["東京", "+東", "京", "tower"]),
    .init("Hangul", "서울에서", ["서울", "+서", "울에", "+울", "에서", "+에", "서"]),
    .init("Thai by code point", "ภาษา", ["ภา", "+ภ", "าษ", "+า", "ษา", "+ษ", "า"]),
    .init("half-width katakana", "ｶﾞｷﾞ", ["ガギ", "+ガ", "ギ"]),
    .init("Japanese punctuation splits runs", "東京、大阪", ["東京", "+東", "京", "大阪", "+大", "阪"]),
    .init("digits next to Han", "2024年", ["2024", "年"]),
    .init("German", "Straße", ["strasse"]),
    .init("full width", "ＡＢＣ", ["abc"]),
    .init("Russian", "Привет, мир", ["привет", "мир"]),
    .init("Hebrew with niqqud", "שָׁלוֹם", ["שלום"]),
    .init("Arabic with harakat", "مُحَمَّد", ["محمد"]),
    .init("Turkish suffix", "İstanbul'da", ["istanbul'da", "+istanbul", "+da"]),
    .init("Hindi", "नमस्ते दुनिया", ["नमस्ते", "दुनिया"]),
    .init("Greek", "Καλημέρα κόσμε", ["καλημερα", "κοσμε"]),
    .init("empty", "", []),
    .init("only spaces", "  \n\t ", []),
    // Mixed texts: ASCII pieces between white space skip ICU, the others go through it; the
    // tokens must be the same as when the whole text went through ICU.
    .init("ASCII words around an emoji", "see you 😂 at the café, ok?", ["see", "you", "😂", "at", "the", "cafe", "ok"]),
    .init("keycap after ASCII words", "press *️⃣ then 1️⃣ now", ["press", "*\u{20E3}", "then", "1\u{20E3}", "now"]),
    .init("tag after a non-ASCII word", "über #tag C# x", ["uber", "tag", "+#tag", "c", "x"]),
    .init("combining mark after a space", "a \u{301}b cafe\u{301}", ["a", "b", "cafe"]),
    .init(
        "apostrophe word next to Cyrillic", "don't Привет l'arbre",
        ["don't", "+don", "+t", "привет", "l'arbre", "+l", "+arbre"]),
    .init("tabs and new lines between scripts", "x\tДа\ny\r\nz", ["x", "да", "y", "z"]),
    // Letters, digits and marks of alphabetic scripts take our own word breaker; these rows are
    // what ICU's gives (checked against it on 1.1M texts when the fast path was written).
    .init(
        "Cyrillic with a combining accent", "при\u{301}вет, мир! 3,5 км", ["привет", "мир", "3,5", "+3", "+5", "км"]),
    .init("Devanagari with vowel signs and digits", "नमस्ते दुनिया१२", ["नमस्ते", "दुनिया१२"]),
    .init("Greek with tonos", "καλημέρα κόσμε", ["καλημερα", "κοσμε"]),
    .init("Arabic with harakat", "مَرْحَبًا بِكُم", ["مرحبا", "بكم"]),
    .init("a mark after '_' makes ICU's segment a non-word", "cy_\u{300} ok", ["ok"]),
    .init("a mark after mid-word punctuation", "a.\u{301}b c·d", ["a.b", "+a", "+b", "c·d", "+c", "+d"]),
]

let queryCases: [TokenizationCase] = [
    .init("apostrophe", "Don't", ["don't"]),
    .init("elision", "l'arbre", ["l'arbre"]),
    .init("part", "arbre", ["arbre"]),
    .init("mention", "@alice", ["@alice"]),
    .init("plain name", "alice", ["alice"]),
    .init("tag", "#tag", ["#tag"]),
    .init("skin tone", "👍🏽", ["👍🏽"]),
    .init("two Han characters", "東京", ["東京"]),
    .init("one Han character", "東", ["東"]),
    .init("three Han characters", "東京都", ["東京", "京都"]),
    .init("Han then Latin keeps positions", "東京tower", ["東京", "京", "tower"]),
    .init("URL", "https://www.youtube.com/watch", ["https", "www.youtube.com", "watch"]),
    .init("host", "youtube.com", ["youtube.com"]),
    .init("e-mail address", "bob@example.com", ["bob@example.com"]),
    .init("number", "3.14", ["3.14"]),
    .init("German", "Straße", ["strasse"]),
    .init("Korean", "서울", ["서울"]),
]

/// A text and the UTF-16 ranges of its document tokens, in order.
struct RangeCase: CustomTestStringConvertible, Sendable {
    let name: String
    let input: String
    let expected: [(String, Range<Int>)]
    var testDescription: String { name }
}

let rangeCases: [RangeCase] = [
    RangeCase(name: "emoji", input: "a 😂 b", expected: [("a", 0..<1), ("😂", 2..<4), ("b", 5..<6)]),
    RangeCase(name: "skin tone", input: "👍🏽 ok", expected: [("👍🏽", 0..<4), ("👍", 0..<4), ("ok", 5..<7)]),
    RangeCase(name: "combining accent", input: "e\u{301}cole x", expected: [("ecole", 0..<6), ("x", 7..<8)]),
    RangeCase(name: "precomposed accent", input: "Ça va", expected: [("ca", 0..<2), ("va", 3..<5)]),
    RangeCase(
        name: "Han and Latin", input: "東京tower",
        expected: [("東京", 0..<2), ("東", 0..<1), ("京", 1..<2), ("tower", 2..<7)]),
    RangeCase(
        name: "supplementary Han", input: "𠀋𠀋 x",
        expected: [("𠀋𠀋", 0..<4), ("𠀋", 0..<2), ("𠀋", 2..<4), ("x", 5..<6)]),
    RangeCase(
        name: "half-width katakana merge", input: "ｶﾞｷ",
        expected: [("ガキ", 0..<3), ("ガ", 0..<2), ("キ", 2..<3)]),
    RangeCase(name: "elision parts", input: "l’arbre", expected: [("l'arbre", 0..<7), ("l", 0..<1), ("arbre", 2..<7)]),
    RangeCase(
        name: "URL host", input: "→ https://www.x.org",
        expected: [("https", 2..<7), ("www.x.org", 10..<19), ("x.org", 14..<19), ("x", 14..<15)]),
]

/// Simulates an FTS5 phrase query: the query tokens must occur at consecutive positions of
/// the document (co-located tokens share a position).
func phraseMatches(document: String, query: String) -> Bool {
    var positions: [[String]] = []
    for token in Tokenizer.tokens(in: document, mode: .document) {
        if token.isColocated, !positions.isEmpty {
            positions[positions.count - 1].append(token.text)
        } else {
            positions.append([token.text])
        }
    }
    let phrase = Tokenizer.tokens(in: query, mode: .query).map(\.text)
    guard !phrase.isEmpty, phrase.count <= positions.count else { return false }
    for start in 0...(positions.count - phrase.count)
    where phrase.indices.allSatisfy({ positions[start + $0].contains(phrase[$0]) }) {
        return true
    }
    return false
}

@Suite("Tokenizer")
struct TokenizerTests {
    @Test("document tokens", arguments: documentCases)
    func documentTokens(_ c: TokenizationCase) {
        let tokens = rendered(Tokenizer.tokens(in: c.input, mode: .document))
        #expect(tokens.map { Array($0.utf8) } == c.expected.map { Array($0.utf8) }, "\(tokens)")
    }

    @Test("query tokens", arguments: queryCases)
    func queryTokens(_ c: TokenizationCase) {
        let tokens = rendered(Tokenizer.tokens(in: c.input, mode: .query))
        #expect(tokens.map { Array($0.utf8) } == c.expected.map { Array($0.utf8) }, "\(tokens)")
    }

    @Test("UTF-16 ranges", arguments: rangeCases)
    func ranges(_ c: RangeCase) {
        let tokens = Tokenizer.tokens(in: c.input, mode: .document)
        #expect(tokens.map(\.text) == c.expected.map(\.0))
        #expect(tokens.map(\.utf16Range) == c.expected.map(\.1))
    }

    @Test(
        "a text's query finds the text itself",
        arguments: [
            "Don't panic", "l'arbre est grand", "see https://www.youtube.com/watch?v=x now", "東京タワーに行きました",
            "서울에서 만나요", "ราคาถูกมาก", "Straße 3.14 v2.0 @alice #tag 👍🏽", "bob.smith@example.com wrote",
            "Привет, как дела?", "שָׁלוֹם עֲלֵיכֶם", "ທີ່ນີ້", "ខ្ញុំស្រលាញ់", "မင်္ဂလာပါ", "東京tower 2024年",
        ])
    func selfMatch(_ text: String) {
        #expect(phraseMatches(document: text, query: text))
    }

    @Test(
        "scripts without spaces match exact substrings only",
        arguments: [
            ("東京都庁に行きました", "東京", true), ("東京都庁に行きました", "京都", true), ("東京都庁に行きました", "都庁に行", true),
            ("東京都庁に行きました", "東都", false), ("東京都庁に行きました", "庁東", false), ("东京", "东京", true),
            ("ราคาถูกมาก", "ถูก", true), ("ราคาถูกมาก", "ราถู", false), ("서울에서 만나요", "서울", true),
            ("서울에서 만나요", "울에서", true), ("서울에서 만나요", "서에", false), ("東京tower", "京tower", true),
            ("東京tower", "東tower", false), ("tower東京", "tower東", true), ("tower東京", "tower京", false),
        ])
    func substrings(_ document: String, _ query: String, _ expected: Bool) {
        #expect(phraseMatches(document: document, query: query) == expected)
    }

    @Test(
        "documents are found by their findable forms",
        arguments: [
            ("l'arbre", "arbre"), ("Café", "cafe"), ("ＡＢＣ", "abc"), ("@alice", "alice"), ("@alice", "@alice"),
            ("#release", "release"), ("https://www.youtube.com/x", "youtube.com"),
            ("https://www.youtube.com/x", "youtube"),
            ("👍🏽", "👍"), ("👩🏽‍💻", "👩‍💻"), ("bob@example.com", "example.com"), ("bob@example.com", "bob"),
            ("Straße", "strasse"), ("strasse", "Straße"), ("İstanbul", "istanbul"), ("Οδυσσεύς", "ΟΔΥΣΣΕΥΣ"),
        ])
    func findable(_ document: String, _ query: String) {
        #expect(phraseMatches(document: document, query: query))
    }

    @Test func tokensAreCappedAt128Bytes() {
        let word = String(repeating: "ж", count: 100)
        let tokens = Tokenizer.tokens(in: word, mode: .document)
        #expect(tokens.map { $0.text.utf8.count } == [128])
        #expect(Tokenizer.tokens(in: word, mode: .query).map(\.text) == tokens.map(\.text))
        #expect(tokens.first?.utf16Range == 0..<100)
    }

    @Test func hugeInputsDoNotCrash() {
        let longWord = String(repeating: "abc", count: 34_000)
        #expect(Tokenizer.tokens(in: longWord, mode: .document).count == 1)
        let dotted = String(repeating: "a.", count: 50_000)
        #expect(Tokenizer.tokens(in: dotted, mode: .query).count == 1)
        let big = String(repeating: String(repeating: "x", count: 999) + " ", count: 10_000)
        let tokens = Tokenizer.tokens(in: big, mode: .document)
        #expect(tokens.count == 10_000)
        #expect(tokens.allSatisfy { $0.text.utf8.count == 128 })
        let han = String(repeating: "漢字", count: 50_000)
        #expect(Tokenizer.tokens(in: han, mode: .query).count == 99_999)  // bigrams
    }
}
