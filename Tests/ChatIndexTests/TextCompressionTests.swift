import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// A new archive stores its messages' text compressed with a dictionary trained on its first
/// texts (format 13), and answers every read exactly as an archive that stores text as it is:
/// search hits, their texts and ranges, relevance order, windows, chat previews, counters,
/// edits, a rebuild and `check`.
@Suite struct TextCompressionTests {
    static let extras = [
        "", " *bold* and _italic_", " https://example.com/route?id=7", " @Zoë look", " `code span`", " call me at 5",
    ]

    /// 1,500 messages over five chats, every script, with markup, links and mentions.
    static func lines() -> [String] {
        var lines: [String] = []
        var rng = SplitMix64(seed: 3)
        for c in 0..<5 {
            lines.append(Lines.chat("g\(c)", name: "Chat \(c)"))
            lines.append(Lines.member("g\(c)", "m1", "Zoë"))
            lines.append(Lines.member("g\(c)", "me", "Lena", isUser: true))
            for k in 0..<300 {
                let n = c * 300 + k
                let text =
                    TextSamples.scripts[Int(rng.next() % UInt64(TextSamples.scripts.count))] + " n\(n)"
                    + Self.extras[Int(rng.next() % UInt64(Self.extras.count))]
                let ts = Timestamp(milliseconds: 1_714_557_600_000 + Int64(n) * 61_000 + Int64(c)).rfc3339
                lines.append(
                    Lines.item("g\(c)", "i\(n)", ts: ts, text: text, member: k % 3 == 0 ? "me" : "m1", unread: k > 280))
            }
        }
        return lines
    }

    static func ingest(training: Int, whileReading: Bool? = nil) throws -> Archive {
        let path = try TestArchive.writeFile(lines().joined(separator: "\n"))
        let archive = try Archive(path: TestArchive.temporaryPath())
        var options = IngestOptions(batchSize: 200, compressesText: training > 0)
        options.textTrainingTexts = training
        options.compressesWhileReading = whileReading
        let report = try archive.ingestSync([path], options: options)
        #expect(report.itemsAdded == 1_500)
        return archive
    }

    static func compressedRows(_ archive: Archive) async throws -> Int {
        try await archive.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE typeof(text) = 'blob'") ?? 0
        }
    }

    static let queries = [
        "東京", "北京", "서울", "ฝนตก", "الاجتماع", "בפגישה", "दिल्ली", "Москве", "strasse", "istanbul", "🎉", "full", "café",
        "\"see you\"", "example", "bold", "n7", "from:Zoë", "has:link", "-bold", "mentions:Zoë", "e", "is:unread",
    ]

    /// Every query's hits (ids, texts, ranges, snippets) in each order and scope.
    static func answers(_ archive: Archive) async throws -> [String] {
        var out: [String] = []
        for q in queries {
            for options in [
                SearchOptions(limit: 40), SearchOptions(limit: 40, order: .relevance),
                SearchOptions(chat: "g2", limit: 40), SearchOptions(chat: "g3", limit: 40, order: .relevance),
            ] {
                let page = try await archive.search(q, options: options)
                out.append(
                    "\(q) \(page.nextCursor ?? "-"): "
                        + page.hits.map { "\($0.item.sourceId)|\($0.item.text)|\($0.ranges)|\($0.snippet)" }.joined(
                            separator: "; "))
            }
        }
        for chat in ["g0", "g4"] {
            let window = try await archive.items(in: chat, window: .initial(30))
            out.append(window.items.map { "\($0.sourceId)|\($0.text)" }.joined(separator: "; "))
        }
        let chats = try await archive.chats(matching: "", filter: .all)
        out.append(chats.map { "\($0.chatId)|\($0.preview.text)" }.joined(separator: "; "))
        out.append("\(try await archive.stats().textBytes)")
        return out
    }

    @Test func aCompressedArchiveAnswersAsOneThatStoresTextAsItIs() async throws {
        let compressed = try Self.ingest(training: 300)
        let plain = try Self.ingest(training: 0)
        #expect(try await Self.compressedRows(plain) == 0)
        let rows = try await Self.compressedRows(compressed)
        #expect(rows > 1_000, "the texts after the first 300 are stored compressed (\(rows))")
        let expected = try await Self.answers(plain)
        #expect(expected.filter { $0.split(separator: ";").count >= 10 }.count >= 40, "pages full of hits")
        #expect(try await Self.answers(compressed) == expected)
        #expect(try await compressed.check().isEmpty)

        // Edits and deletions read the old text back (to remove its words from the indexes).
        for archive in [compressed, plain] {
            var edited = Item(
                chatSourceId: "g2", sourceId: "i700",
                timestamp: Timestamp(milliseconds: 1_714_557_600_000 + 700 * 61_000 + 2),
                direction: .rcv, memberSourceId: "m1", content: MessageContent(type: .text, text: "edited Zürich 東京タワー")
            )
            edited.isEdited = true
            try await archive.upsert(items: [edited])
            try await archive.deleteItems(["i950", "i951"], in: "g3")
        }
        #expect(try await compressed.search("zurich").hits.map(\.item.sourceId) == ["i700"])
        #expect(try await Self.answers(compressed) == Self.answers(plain))
        #expect(try await compressed.check().isEmpty)

        // A rebuild reads every text back.
        try compressed.database.rebuildIndexes(chunk: 333)
        #expect(try await Self.answers(compressed) == Self.answers(plain))
        #expect(try await compressed.check().isEmpty)
    }

    /// Texts compressed on the thread that reads the export (when the writer is the busier
    /// one) are stored byte for byte as the writer stores them, and read back alike.
    @Test func textsCompressedWhileReadingAreStoredAsTheWriterStoresThem() async throws {
        let byReader = try Self.ingest(training: 300, whileReading: true)
        let byWriter = try Self.ingest(training: 300, whileReading: false)
        let adaptive = try Self.ingest(training: 300)
        func stored(_ archive: Archive) async throws -> [String] {
            try await archive.database.writer.read { db in
                try String.fetchAll(db, sql: "SELECT sourceId || ':' || hex(text) FROM item ORDER BY sourceId")
            }
        }
        let expected = try await stored(byWriter)
        #expect(try await Self.compressedRows(byReader) > 1_000)
        #expect(try await stored(byReader) == expected)
        #expect(try await stored(adaptive) == expected)
        #expect(try await Self.answers(byReader) == Self.answers(byWriter))
        #expect(try await byReader.check().isEmpty)
    }

    /// Live writes into a new archive never train (an app's archive stores its text as it is
    /// until an ingest trains a dictionary); once one is stored they compress with it.
    @Test func liveWritesCompressOnceAnIngestTrainedTheDictionary() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let item = { (n: Int) in
            Item(
                chatSourceId: "g0", sourceId: "live\(n)",
                timestamp: Timestamp(milliseconds: 1_800_000_000_000 + Int64(n)),
                direction: .rcv, memberSourceId: "m1",
                content: MessageContent(type: .text, text: "Встреча завтра в Москве, see you there n\(n)"))
        }
        try await archive.upsert(
            chats: [Chat(sourceId: "g0", type: .group, displayName: "Live")],
            members: [Member(chatSourceId: "g0", sourceId: "m1", displayName: "Zoë")], items: [])
        for n in 0..<400 { try await archive.upsert(items: [item(n)]) }
        #expect(try await Self.compressedRows(archive) == 0)
        let path = try TestArchive.writeFile(Self.lines().joined(separator: "\n"))
        var options = IngestOptions(batchSize: 200, compressesText: true)
        options.textTrainingTexts = 300
        _ = try archive.ingestSync([path], options: options)
        let before = try await Self.compressedRows(archive)
        #expect(before > 1_000)
        for n in 400..<420 { try await archive.upsert(items: [item(n)]) }
        #expect(try await Self.compressedRows(archive) == before + 20)
        let hits = try await archive.search("москве", options: SearchOptions(chat: "g0", limit: 1_000)).hits
        #expect(hits.filter { $0.item.sourceId.hasPrefix("live") }.count == 420)
        #expect(hits.allSatisfy { $0.item.text.contains("Москве") })
        #expect(try await archive.check().isEmpty)
    }
}
