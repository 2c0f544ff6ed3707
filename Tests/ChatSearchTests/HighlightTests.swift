import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// Every hit's `ranges` (UTF-16 `[start, end)` into the display text) cover exactly the
/// occurrences that matched, in every script, and the snippet shows the first one.
///
/// A range covers the whole token that matched: a prefix or infix match highlights the word it
/// matched (`eed` → `seed`), an emoji component highlights its whole grapheme, and a phrase is
/// one range from its first to its last word. Distinct occurrences are distinct ranges, even
/// when they touch (`😂😂`); overlapping ones (CJK pairs of `哈哈哈`) are merged.
@Suite struct HighlightTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var query: String
        var expected: [String]
        init(_ name: String, _ text: String, _ query: String, _ expected: [String]) {
            self.name = name
            self.text = text
            self.query = query
            self.expected = expected
        }
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case("accents fold", "Café au lait, CAFE noir, café", "cafe", ["Café", "CAFE", "café"]),
        Case("accented query", "Café crème", "CAFÉ", ["Café"]),
        Case("combining acute in the text", "cafe\u{301} crème", "café", ["cafe\u{301}"]),
        Case("combining acute in the query", "café crème", "cafe\u{301}", ["café"]),
        Case("ß finds ss", "Die Strasse ist lang", "straße", ["Strasse"]),
        Case("ss finds ß", "Die Straße ist lang", "STRASSE", ["Straße"]),
        Case("infix with ß", "Wir wohnen in der Heinestraße 5", "straße", ["Heinestraße"]),
        Case("Turkish dotted capital I", "İstanbul çok güzel", "istanbul", ["İstanbul"]),
        Case("Turkish query", "istanbul is big", "İSTANBUL", ["istanbul"]),
        Case("full-width text", "ＨＥＬＬＯ　ｗｏｒｌｄ", "hello", ["ＨＥＬＬＯ"]),
        Case("full-width query", "hello world", "ｗｏｒｌｄ", ["world"]),
        Case("ligature", "ﬁnancial news", "financial", ["ﬁnancial"]),
        Case("Greek final sigma", "Ο Οδυσσέας ήρθε", "οδυσσεας", ["Οδυσσέας"]),
        Case("Chinese pair", "我们明天去北京吧", "北京", ["北京"]),
        Case("Chinese, twice", "北京欢迎你，北京", "北京", ["北京", "北京"]),
        Case("Chinese, touching occurrences", "東京東京", "東京", ["東京", "東京"]),
        Case("Chinese, overlapping occurrences", "哈哈哈", "哈哈", ["哈哈哈"]),
        Case("Chinese three characters", "我们明天去北京吧", "明天去", ["明天去"]),
        Case("Chinese single character", "東京都に住んでいます", "京", ["京"]),
        Case("Japanese katakana", "東京タワーに行きました", "タワー", ["タワー"]),
        Case("Japanese across scripts", "東京タワーに行きました", "京タ", ["京タ"]),
        Case("Korean", "안녕하세요 여러분", "하세요", ["하세요"]),
        Case("Korean word", "안녕하세요 여러분", "여러분", ["여러분"]),
        Case("Thai", "ผมชอบกินข้าวผัด", "ข้าว", ["ข้าว"]),
        Case("Arabic with harakat", "مَرْحَبًا بِالْعَالَم", "مرحبا", ["مَرْحَبًا"]),
        Case("Hebrew with niqqud", "שָׁלוֹם עוֹלָם", "שלום", ["שָׁלוֹם"]),
        Case("Hindi", "नमस्ते दुनिया", "दुनिया", ["दुनिया"]),
        Case("Russian ё", "Ёлка и ёжик", "елка", ["Ёлка"]),
        Case("Russian short prefix", "Ёлка и ёжик", "ёж", ["ёжик"]),
        Case("emoji, touching", "I love pizza 😂😂 so much", "😂", ["😂", "😂"]),
        Case("ZWJ sequence", "family 👨‍👩‍👧 photo", "👨‍👩‍👧", ["👨‍👩‍👧"]),
        Case("ZWJ component highlights the grapheme", "family 👨‍👩‍👧 photo", "👧", ["👨‍👩‍👧"]),
        Case("skin tone", "thanks 👍🏽!", "👍", ["👍🏽"]),
        Case("skin tone in the query", "thanks 👍🏽!", "👍🏽", ["👍🏽"]),
        Case("infix", "plant the seed, then water", "eed", ["seed"]),
        Case("short last word is a prefix", "hello world, wonderful", "hello wo", ["hello", "world", "wonderful"]),
        Case("long last word is an infix", "hello world, wonderful", "wor", ["world"]),
        Case("phrase, twice", "the quick brown fox, brown fox", "\"brown fox\"", ["brown fox", "brown fox"]),
        Case("phrase and word", "the quick brown fox jumps", "\"quick brown\" jumps", ["quick brown", "jumps"]),
        Case("hyphenated prefix", "send an e-mail today", "e-mai", ["e-mail"]),
        Case("OR", "a bear and a fox", "bear OR fox", ["bear", "fox"]),
        Case("excluded words are not highlighted", "a bear and a fox", "bear -wolf", ["bear"]),
        Case("mixed scripts", "Zoë said 你好 to Дмитрий", "zoe", ["Zoë"]),
        Case("mixed scripts, Cyrillic", "Zoë said 你好 to Дмитрий", "дмитрий", ["Дмитрий"]),
        // The mention's sigil form `@zoe` is a token of its own at that position and contains the query.
        Case("@mention", "ping @zoë about it", "zoe", ["@zoë"]),
        Case("@mention, short prefix", "ping @zoë about it", "zo", ["zoë"]),
        Case("@mention by its sigil", "ping @zoë about it", "@zoe", ["@zoë"]),
        Case(
            "far into a long text",
            String(repeating: "lorem ipsum dolor sit amet ", count: 20) + "the needle is here "
                + String(repeating: "more ", count: 30),
            "needle", ["needle"]),
    ]

    static let fixture = Result {
        var lines: [String] = []
        for (k, c) in cases.enumerated() {
            lines.append(Lines.chat("c\(k)", name: "Case \(k)"))
            lines.append(Lines.item("c\(k)", "i\(k)", ts: "2024-05-01T10:00:00Z", text: c.text))
        }
        return try TestArchive.make(jsonl: lines.joined(separator: "\n")).0
    }

    static func substrings(_ text: String, _ ranges: [Range<Int>]) -> [String] {
        let u = Array(text.utf16)
        return ranges.map { String(decoding: u[$0], as: UTF16.self) }
    }

    @Test(arguments: cases.indices)
    func rangesCoverExactlyTheMatches(_ k: Int) async throws {
        let c = Self.cases[k]
        let archive = try Self.fixture.get()
        let page = try await archive.search(c.query, options: SearchOptions(chat: "c\(k)"))
        let hit = try #require(page.hits.first, "\(c.name): \(c.query) finds \(c.text)")
        #expect(hit.item.text == c.text)
        #expect(Self.substrings(hit.item.text, hit.ranges) == c.expected, "\(c.name)")
        // Ranges are sorted, disjoint and inside the text.
        let count = hit.item.text.utf16.count
        #expect(hit.ranges.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= count && !$0.isEmpty })
        #expect(zip(hit.ranges, hit.ranges.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
        // The snippet shows the first match in brackets.
        let first = try #require(c.expected.first)
        #expect(hit.snippet.contains("[" + first + "]"), "\(hit.snippet)")
    }

    @Test func snippetCutsLongTextsAroundTheFirstMatch() async throws {
        let k = try #require(Self.cases.firstIndex { $0.name == "far into a long text" })
        let archive = try Self.fixture.get()
        let hit = try #require(try await archive.search("needle", options: SearchOptions(chat: "c\(k)")).hits.first)
        #expect(hit.snippet.hasPrefix("…"))
        #expect(hit.snippet.hasSuffix("…"))
        #expect(hit.snippet.contains("the [needle] is here"))
        #expect(hit.snippet.count < 120)
    }

    @Test func snippetNeverCutsASurrogatePair() async throws {
        let text = String(repeating: "😂", count: 60) + " needle " + String(repeating: "😂", count: 60)
        let (archive, _) = try TestArchive.make(
            jsonl: [Lines.chat("e"), Lines.item("e", "1", ts: "2024-05-01T10:00:00Z", text: text)].joined(
                separator: "\n"))
        let hit = try #require(try await archive.search("needle").hits.first)
        #expect(!hit.snippet.unicodeScalars.contains("\u{FFFD}"))
        #expect(hit.snippet.contains("[needle]"))
    }

    /// A hit found only in a hyperlink's hidden target (`[label](url)`) marks the link's shown
    /// text, so that it never opens without a highlight; a word of the shown text marks itself.
    @Test func aMatchInAHiddenLinkTargetMarksTheLinkText() async throws {
        let text =
            "Schau mal: [東京の地図 📍](https://maps.example.org/tokyo-station) und [שלום](https://salam.example.net/ar) bis später"
        let (archive, _) = try TestArchive.make(
            jsonl: [Lines.chat("l"), Lines.item("l", "1", ts: "2024-05-01T10:00:00Z", text: text)].joined(
                separator: "\n"))
        for (query, shown) in [("tokyo", ["東京の地図 📍"]), ("maps.example.org", ["東京の地図 📍"]), ("salam", ["שלום"])] {
            let hit = try #require(try await archive.search(query).hits.first, "\(query)")
            #expect(Self.substrings(hit.item.text, hit.ranges) == shown, "\(query): \(hit.item.text)")
            #expect(hit.snippet.contains("[" + shown[0] + "]"), "\(hit.snippet)")
        }
        let plain = try #require(try await archive.search("später").hits.first)
        #expect(Self.substrings(plain.item.text, plain.ranges) == ["später"])
    }
}
