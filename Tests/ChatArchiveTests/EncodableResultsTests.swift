import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// Result types are `Encodable`: the CLI's and the web app's JSON is their encoding through our
/// streaming writer, and an app's `JSONEncoder` reads the same members and values.
@Suite struct EncodableResultsTests {
    /// Both encodings, parsed: equal as JSON values (member order aside).
    static func expectSameJSON<T: Encodable>(_ value: T, _ what: String) throws {
        let streamed = try JSONStreamEncoder.string(value)
        let foundation = try JSONEncoder().encode(value)
        let a = try JSONParser.parse(Array(streamed.utf8))
        let b = try JSONParser.parse(Array(foundation))
        #expect(
            sorted(a) == sorted(b),
            "\(what): \(streamed.prefix(300)) vs \(String(decoding: foundation.prefix(300), as: UTF8.self))")
    }

    /// `value` with every object's members sorted by name.
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let a): .array(a.map(sorted))
        case .object(let o): .object(o.map { ($0.0, sorted($0.1)) }.sorted { $0.0 < $1.0 })
        default: value
        }
    }

    @Test func everyResultOfTheSampleExportsEncodesAlikeBothWays() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let report = try archive.ingestSync([TestArchive.corpusPath])
        #expect(report.itemsAdded > 100)
        try Self.expectSameJSON(report, "ingest report")
        let rows = try await archive.chats(limit: 1000)
        #expect(rows.count > 10)
        try Self.expectSameJSON(rows, "chat list")
        var spans = 0
        for row in rows {
            let window = try await archive.items(chat: row.chatId, .last(500))
            spans += window.spans.count
            try Self.expectSameJSON(window, "window of \(row.chatId)")
            let initial = try await archive.items(chat: row.chatId, .initial(20))
            try Self.expectSameJSON(initial, "initial window of \(row.chatId)")
        }
        #expect(spans > 0, "the sample exports have formatted messages")
        for q in ["a", "the", "привет", "你好", "😀", "http", "café"] {
            let page = try await archive.search(q, options: SearchOptions(limit: 200))
            try Self.expectSameJSON(page, "search \(q)")
        }
        try Self.expectSameJSON(try await archive.stats(), "stats")
    }

    @Test func membersAreListedInContractOrder() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        _ = try archive.ingestSync([TestArchive.corpusPath + "/sample/chats-1.jsonl"])
        let page = try await archive.search("a", options: SearchOptions(limit: 1))
        let hit = try #require(page.hits.first)
        let text = try JSONStreamEncoder.string(hit)
        let keys = [
            "\"id\":", "\"chatId\":", "\"sourceId\":", "\"ts\":", "\"dir\":", "\"sender\":", "\"text\":",
            "\"ranges\":", "\"edited\":", "\"snippet\":",
        ]
        let positions = keys.map { text.range(of: $0)?.lowerBound }
        #expect(!positions.contains(nil), "\(text)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(text)")
    }

    @Test func stringsInEveryScriptSurviveARoundTrip() throws {
        let texts = [
            "中文搜索", "日本語のテキスト", "한국어 메시지", "ภาษาไทย", "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया",
            "Привет, мир", "Straße ÄÖÜ", "İstanbul ıi", "👩‍👩‍👧‍👦 🇺🇦", "ＦＵＬＬＷＩＤＴＨ", "e\u{301}\u{323}",
            "quote \" backslash \\ slash / tab \t newline \n nul \u{0} bell \u{7} del \u{7F} ls \u{2028}",
        ]
        let streamed = try JSONStreamEncoder.string(texts)
        let decoded = try JSONDecoder().decode([String].self, from: Data(streamed.utf8))
        #expect(decoded == texts)
    }

    /// Containers nested by hand, `superEncoder`, values that write nothing, and every primitive.
    @Test func theWriterFollowsTheEncodableRules() throws {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        struct Nested: Encodable {
            enum K: String, CodingKey { case a, b, c, d, e, f }
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: K.self)
                var inner = c.nestedContainer(keyedBy: K.self, forKey: .a)
                try inner.encode(1, forKey: .b)
                var list = inner.nestedUnkeyedContainer(forKey: .c)
                try list.encode(true)
                try list.encodeNil()
                var deeper = list.nestedContainer(keyedBy: K.self)
                try deeper.encode(2.5, forKey: .d)
                try c.encode(Nothing(), forKey: .b)
                try c.encode(Int64.min, forKey: .c)
                try c.encode([[Int]](), forKey: .d)
                let sup = c.superEncoder(forKey: .e)
                var single = sup.singleValueContainer()
                try single.encode("s")
                _ = c.superEncoder(forKey: .f)
            }
        }
        let text = try JSONStreamEncoder.string(Nested())
        #expect(
            text == #"{"a":{"b":1,"c":[true,null,{"d":2.5}]},"b":{},"c":-9223372036854775808,"d":[],"e":"s","f":{}}"#)
        try Self.expectSameJSON(Nested(), "nested")
        #expect(try JSONStreamEncoder.string([Double.nan, 1e300, -0.5]) == "[null,1e+300,-0.5]")
        #expect(try JSONStreamEncoder.string(Optional<Int>.none) == "null")
    }

    @Test func rawFormatsAreWrittenAsTheyAreAndParsedForOtherEncoders() throws {
        let span = StoredSpan(start: 0, end: 4, formatJSON: #"{"type":"colored","color":"red"}"#)
        #expect(try JSONStreamEncoder.string(span) == #"{"start":0,"end":4,"format":{"type":"colored","color":"red"}}"#)
        try Self.expectSameJSON(span, "span")
        #expect(span.format == .colored(.red))
    }
}
