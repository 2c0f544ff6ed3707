import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatSearch

/// User text can never cause an error: 100,000 seeded random query strings, mixing scripts,
/// FTS5 and SQL syntax, operators with odd values, control characters and odd scalars, all go
/// through the parser and the compiler, whose FTS5 expression SQLite runs; a deterministic
/// tenth of them (10,000) also run as real searches (all chats, one chat, relevance order).
/// Nothing throws, and every hit's ranges lie inside its text.
@Suite struct RandomizedQueryTests {
    static let queryCount = 100_000

    /// The seeded generator of the queries.
    typealias Generator = SplitMix64

    static let words = [
        "hiking", "hik", "fox", "brown", "café", "CAFE", "cafe\u{301}", "straße", "STRASSE", "İstanbul", "ı", "ＨＥＬＬＯ",
        "ﬁnancial", "東京", "京", "東京タワー", "北京欢迎你", "안녕하세요", "하세", "ข้าว", "ผมชอบกิน", "مَرْحَبًا", "مرحبا",
        "שָׁלוֹם", "नमस्ते", "दुनिया", "Ёлка", "ёж", "Οδυσσέας", "😂", "👨‍👩‍👧", "👍🏽", "🇩🇪", "1️⃣", "e\u{301}", "eed",
        "l'arbre", "don't", "@zoë", "#tag", "https://www.example.com/a/b?c=d", "user@example.org", "3.14", "1,000",
        "v2.0",
        "covid19", "a", "xdel", "all", "tags", "rowid", "c1", "frme", "mnme", "xlink", "tlink", "NEAR", "and", "or",
        "not",
    ]
    static let syntax = [
        "\"", "\"\"", "*", "(", ")", ":", "^", "-", "+", "NEAR(", "NEAR(a b, 3)", "AND", "OR", "NOT", "text:", "extra:",
        "tags:", "{text extra}:", "{tags}:", "- ", "--", "'; DROP TABLE item; --", "' OR 1=1 --", "%", "_", "\\", "'",
        "`", "[", "]", "{", "}", "|", ";", "/", "@", "#", ",", ".", "!", "?", "$", "&", "=", "<", ">", "~", "\\\"",
        "\"a\" *", "a*", "*a", "^a", "a:b:c", "::", "-\"", "-\"unclosed", "OR OR", "AND OR NOT",
    ]
    static let operators = [
        "from:", "in:", "has:", "mentions:", "before:", "after:", "is:", "FROM:", "Has:", "text:", "x:",
    ]
    static let values = [
        "", "zoe", "Zoë", "me", "ME", "\"Bob M\"", "\"", "\"unclosed value", "link", "image", "video", "voice", "file",
        "report", "nothing", "unread", "pinned", "2024", "2024-05", "2024-05-01", "2024-99", "2024-13-45", "2024-02-30",
        "0000-01-01", "9999-12-31", "1969-12-31", "-1", "99999999999999999999", "2024-05-01T25:00:00Z",
        "2024-05-01T10:00:00+02:00", "2024-05-01T10:00:00-13:00", "2024-05-01T10:00:00Z", "2024--01", "--", "*", "g1",
        "Hiking", "%", "_", "\\", "'", "a\u{0}b", "東京", "😂",
    ]
    /// Odd scalars: NUL, controls, noncharacters, BOM, zero-width and bidi controls, private use,
    /// lone combining marks and modifiers, the last scalar.
    static let odd: [Unicode.Scalar] = [
        "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{D}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}",
        "\u{9F}",
        "\u{A0}", "\u{AD}", "\u{300}", "\u{301}", "\u{34F}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{202E}",
        "\u{2028}", "\u{2029}", "\u{2060}", "\u{3000}", "\u{E000}", "\u{FE0F}", "\u{FEFF}", "\u{FFF9}", "\u{FFFC}",
        "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{1F3FB}", "\u{E0001}", "\u{E007F}", "\u{F0000}", "\u{10FFFD}",
        "\u{10FFFE}", "\u{10FFFF}",
    ]
    /// Blocks to draw random scalars from: Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic,
    /// Devanagari, Bengali, Tamil, Thai, Lao, Tibetan, Myanmar, Georgian, Hangul Jamo, Khmer,
    /// punctuation, symbols, CJK, Hiragana, Katakana, Hangul syllables, half/full width, emoji,
    /// CJK extension B, plus anything at all.
    static let blocks: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0xA0...0x24F, 0x370...0x3FF, 0x400...0x4FF, 0x530...0x58F, 0x590...0x5FF, 0x600...0x6FF,
        0x900...0x97F, 0x980...0x9FF, 0xB80...0xBFF, 0xE00...0xE7F, 0xE80...0xEFF, 0xF00...0xFFF, 0x1000...0x109F,
        0x10A0...0x10FF, 0x1100...0x11FF, 0x1780...0x17FF, 0x2000...0x206F, 0x2100...0x2BFF, 0x3000...0x30FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF00...0xFFEF, 0x1F000...0x1FAFF, 0x20000...0x2A6DF,
        0...0x10FFFF,
    ]

    static func randomScalar(_ g: inout Generator) -> Unicode.Scalar {
        let block = blocks[Int.random(in: 0..<blocks.count, using: &g)]
        while true {
            if let u = Unicode.Scalar(UInt32.random(in: block, using: &g)) { return u }
        }
    }

    static func randomText(_ g: inout Generator, length: Int) -> String {
        var s = String.UnicodeScalarView()
        for _ in 0..<length { s.append(randomScalar(&g)) }
        return String(s)
    }

    /// One random query: 1 to 8 pieces, glued by spaces, nothing, or other separators.
    static func query(_ g: inout Generator) -> String {
        var out = ""
        let pieces = Int.random(in: 1...8, using: &g)
        for p in 0..<pieces {
            if p > 0 { out += ["", " ", " ", " ", "  ", "\t", "\n", "\u{3000}", "\u{0}"].randomElement(using: &g)! }
            switch Int.random(in: 0..<100, using: &g) {
            case 0..<25: out += words.randomElement(using: &g)!
            case 25..<40: out += syntax.randomElement(using: &g)!
            case 40..<55: out += operators.randomElement(using: &g)! + values.randomElement(using: &g)!
            case 55..<70: out += randomText(&g, length: Int.random(in: 1...12, using: &g))
            case 70..<78: out.unicodeScalars.append(odd.randomElement(using: &g)!)
            case 78..<84:
                out +=
                    "-"
                    + (Bool.random(using: &g)
                        ? words.randomElement(using: &g)! : "\"" + words.randomElement(using: &g)!)
            case 84..<90: out += "\"" + words.randomElement(using: &g)! + " " + words.randomElement(using: &g)! + "\""
            case 90..<93: out += words.randomElement(using: &g)! + " OR " + words.randomElement(using: &g)!
            case 93..<95:
                // A very long word: longer than the tokenizer's token limit (128 bytes).
                let unit = words.randomElement(using: &g)!
                out += String(repeating: unit, count: Int.random(in: 20...150, using: &g))
            case 95..<97: out += randomText(&g, length: Int.random(in: 50...300, using: &g))
            default:
                // Syntax and operators glued to words.
                out +=
                    syntax.randomElement(using: &g)! + words.randomElement(using: &g)! + syntax.randomElement(
                        using: &g)!
            }
        }
        return out
    }

    static func makeQueries() -> [String] {
        var g = Generator(seed: 0x5EED_C0FF_EE15_600D)
        return (0..<queryCount).map { _ in query(&g) }
    }

    /// The queries, generated once for the suite.
    static let queries = makeQueries()

    /// Every tenth query also runs as real searches.
    static let searchedQueries = stride(from: 0, to: queryCount, by: 10).map { queries[$0] }

    /// A small archive in many scripts: the operator fixture and the highlight texts.
    static let fixture = Result {
        var lines = OperatorTests.lines
        for (k, c) in HighlightTests.cases.enumerated() {
            lines.append(
                Lines.item("g2", "hl\(k)", ts: "2024-06-0\(1 + k % 9)T10:\(10 + k):00Z", text: c.text, member: "w2"))
        }
        return try TestArchive.make(jsonl: lines.joined(separator: "\n")).0
    }

    @Test func generatorIsDeterministicAndVaried() {
        let a = Self.queries
        #expect(a.count == Self.queryCount)
        var g = Generator(seed: 0x5EED_C0FF_EE15_600D)
        #expect((0..<100).map { _ in Self.query(&g) } == Array(a.prefix(100)))
        #expect(Set(a).count > Self.queryCount * 9 / 10)
        #expect(a.contains { $0.unicodeScalars.contains("\u{0}") })
        #expect(a.contains { $0.unicodeScalars.contains("\u{FFFF}") })
        #expect(a.contains { $0.unicodeScalars.contains("\u{FEFF}") })
        #expect(a.contains { $0.contains("NEAR(") })
        #expect(a.contains { $0.contains("DROP TABLE") })
        #expect(a.contains { $0.contains("before:2024-99") })
        #expect(a.contains { $0.utf8.count > 1000 })
        #expect(Self.searchedQueries.count >= 10_000)
    }

    /// Every query parses and compiles (globally, or in one chat with a content filter and deleted
    /// items), and SQLite runs the compiled FTS5 expression.
    @Test func everyRandomQueryCompilesToAnExpressionSQLiteRuns() async throws {
        let archive = try Self.fixture.get()
        let failures = try await archive.database.writer.read { db -> [String] in
            var failures: [String] = []
            let chatId = try #require(try Int64.fetchOne(db, sql: "SELECT id FROM chat WHERE sourceId = 'g1'"))
            let scopes = [SearchScope(), SearchScope(chatIds: [chatId], content: .text, includeDeleted: true)]
            let match = try db.makeStatement(sql: "SELECT count(*) FROM itemFts WHERE itemFts MATCH ?")
            for (k, q) in Self.queries.enumerated() {
                do {
                    let compiled = try QueryCompiler.compile(QueryParser.parse(q), scope: scopes[k % 2], db)
                    _ = try Int.fetchOne(match, arguments: [compiled.match])
                } catch {
                    failures.append("\(q.debugDescription): \(error)")
                    if failures.count >= 50 { break }
                }
            }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.joined(separator: "\n"))")
    }

    /// Every tenth query runs as a real search in all chats, in one chat, and by relevance;
    /// every hit's ranges lie inside its text.
    @Test func randomQueriesSearchWithoutError() async throws {
        let archive = try Self.fixture.get()
        let modes = [
            SearchOptions(limit: 20), SearchOptions(chat: "g1", limit: 20), SearchOptions(limit: 20, order: .relevance),
        ]
        let (failures, pagesWithHits) = try await archive.database.writer.read { db -> ([String], Int) in
            var failures: [String] = []
            var pagesWithHits = 0
            for q in Self.searchedQueries {
                for options in modes {
                    do {
                        let page = try MessageSearch.search(q, options: options, in: db)
                        if !page.hits.isEmpty { pagesWithHits += 1 }
                        for hit in page.hits {
                            let n = hit.item.text.utf16.count
                            if !hit.ranges.allSatisfy({ $0.lowerBound >= 0 && $0.upperBound <= n }) {
                                failures.append(
                                    "ranges outside the text: \(q.debugDescription) \(hit.ranges) \(hit.item.text)")
                            }
                        }
                    } catch {
                        failures.append("\(q.debugDescription) \(options): \(error)")
                    }
                }
                if failures.count >= 50 { break }
            }
            return (failures, pagesWithHits)
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.joined(separator: "\n"))")
        // The queries are not all noise: a good share of them find something.
        #expect(pagesWithHits > Self.searchedQueries.count / 10, "\(pagesWithHits) pages with hits")
    }
}
