import ChatArchive
import ChatModel
import ChatSearch
import ChatTestSupport
import Foundation
import Testing

/// Result types are `Encodable`: the CLI's and the web app's JSON is their encoding through our
/// streaming writer, and an app's `JSONEncoder` reads the same members and values.
@Suite struct EncodableResultsTests {
    @Test func everyResultOfTheSampleExportsEncodesAlikeBothWays() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let report = try archive.ingestSync([TestArchive.corpusPath])
        #expect(report.itemsAdded > 100)
        try expectSameJSON(report, "ingest report")
        let rows = try await archive.chats(limit: 1000)
        #expect(rows.count > 10)
        try expectSameJSON(rows, "chat list")
        var spans = 0
        for row in rows {
            let window = try await archive.items(in: row.chatId, window: .last(500))
            spans += window.spans.count
            try expectSameJSON(window, "window of \(row.chatId)")
            let initial = try await archive.items(in: row.chatId, window: .initial(20))
            try expectSameJSON(initial, "initial window of \(row.chatId)")
        }
        #expect(spans > 0, "the sample exports have formatted messages")
        for q in ["a", "the", "привет", "你好", "😀", "http", "café"] {
            let page = try await archive.search(q, options: SearchOptions(limit: 200))
            try expectSameJSON(page, "search \(q)")
        }
        try expectSameJSON(try await archive.stats(), "stats")
    }

    /// The CLI's and the web app's documents for chat pages, search pages and windows are
    /// written by hand (``JSONBytes``): byte for byte what the `Encodable` conformances write.
    @Test func theHandWrittenDocumentsAreTheEncodedOnes() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        _ = try archive.ingestSync([TestArchive.corpusPath])
        func same(_ direct: String, _ value: some Encodable, _ what: String) throws {
            let streamed = try JSONStreamEncoder.string(value)
            #expect(direct == streamed, "\(what): \(direct.prefix(400)) vs \(streamed.prefix(400))")
        }
        let page = try await archive.chats(matching: nil, filter: .all, limit: 1000, after: nil)
        #expect(page.rows.count > 10)
        try same(ArchiveJSON.chats(page), page, "chat page")
        try same(ArchiveJSON.chats(page.rows), ["chats": page.rows], "chat rows")
        for row in page.rows {
            let window = try await archive.items(in: row.chatId, window: .last(500))
            try same(ArchiveJSON.items(window), window, "window of \(row.chatId)")
            let initial = try await archive.items(in: row.chatId, window: .initial(10))
            try same(ArchiveJSON.items(initial), initial, "initial window of \(row.chatId)")
            for kind in MediaKind.allCases {
                let media = try await archive.media(in: row.chatId, kind: kind, limit: 2)
                try same(ArchiveJSON.media(media), media, "\(kind) of \(row.chatId)")
            }
        }
        for q in ["a", "the", "привет", "你好", "😀", "http", "café", "script", "is:unread", "has:file"] {
            let hits = try await archive.search(q, options: SearchOptions(limit: 500))
            try same(ArchiveJSON.search(hits), hits, "search \(q)")
            for period in HistogramPeriod.allCases {
                let h = try await archive.histogram(q, by: period)
                try same(ArchiveJSON.histogram(h), h, "histogram of \(q) per \(period)")
            }
        }
        let estimated = SearchHistogram(
            period: .week,
            buckets: [
                .init(
                    start: Timestamp(milliseconds: -62_135_596_800_001), end: Timestamp(milliseconds: 0),
                    count: Int.max,
                    isExact: false),
                .init(start: Timestamp(milliseconds: 0), end: Timestamp(milliseconds: 1), count: 0, isExact: true),
            ],
            estimate: .init(countedMatches: 1, sampledMatches: Int.min, sampledSpans: 0, matchesPerSpan: 48))
        try same(ArchiveJSON.histogram(estimated), estimated, "estimated histogram")
        // Every optional member, strings that need escapes, extreme numbers and times.
        let odd = "quote \" backslash \\ nul \u{0} bell \u{7} del \u{7F} ls \u{2028} ps \u{2029} ⁨bidi⁩ e\u{301} 👩‍👩‍👧"
        var item = ArchivedItem(
            id: Int64.max, chatId: odd, sourceId: "", timestamp: Timestamp(milliseconds: -62_135_596_800_001),
            direction: .rcv, sender: odd, contentType: .voice, text: odd, isEdited: true, isDeleted: true,
            isUnread: true, isPinned: true, file: FileRef(name: odd, size: nil, path: nil),
            preview: LinkPreview(uri: "javascript:alert(1)", title: odd, description: ""), duration: 0,
            quote: Quote(itemSourceId: nil, text: odd),
            reactions: [Reaction(emoji: "👍🏽", count: -3), Reaction(emoji: odd, count: 1, isMine: true)],
            status: .delivered
        )
        item.isFloatingTime = true
        item.wallClock = odd
        item.isTimeUnknown = true
        item.moreFiles = [FileRef(name: "a", size: Int64.min, path: "b/ü"), FileRef(name: "", size: 0, path: nil)]
        var window = ItemWindow(items: [item], navInfo: NavigationInfo(afterTotal: 0, afterUnread: Int.max))
        window.spans = [item.id: [StoredSpan(start: 0, end: 4, formatJSON: #"{"type":"bold"}"#)]]
        try same(ArchiveJSON.items(window), window, "odd window")
        let hitPage = SearchPage(hits: [SearchHit(item: item, ranges: [0..<1, 3..<9], snippet: odd)], nextCursor: odd)
        try same(ArchiveJSON.search(hitPage), hitPage, "odd hit")
        let mediaPage = MediaPage(items: [item], spans: window.spans, nextCursor: odd)
        try same(ArchiveJSON.media(mediaPage), mediaPage, "odd media page")
        let times = [0, 1, 999, 1_000, 253_402_300_799_999, 253_402_300_800_000, -1].map(Timestamp.init(milliseconds:))
        for t in times {
            var plain = ArchivedItem(
                id: 0, chatId: "c", sourceId: "s", timestamp: t, direction: .snd, contentType: .text, text: "")
            plain.moreFiles = []
            let one = ItemWindow(items: [plain], navInfo: nil)
            try same(ArchiveJSON.items(one), one, "time \(t.milliseconds)")
        }
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
        try expectSameJSON(Nested(), "nested")
        #expect(try JSONStreamEncoder.string([Double.nan, 1e300, -0.5]) == "[null,1e+300,-0.5]")
        #expect(try JSONStreamEncoder.string(Optional<Int>.none) == "null")
    }

    @Test func rawFormatsAreWrittenAsTheyAreAndParsedForOtherEncoders() throws {
        let span = StoredSpan(start: 0, end: 4, formatJSON: #"{"type":"colored","color":"red"}"#)
        #expect(try JSONStreamEncoder.string(span) == #"{"start":0,"end":4,"format":{"type":"colored","color":"red"}}"#)
        try expectSameJSON(span, "span")
        #expect(span.format == .colored(.red))
    }
}
