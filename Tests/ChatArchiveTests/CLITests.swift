import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// End-to-end tests of the built `chat-archive` binary on the Corpus.
@Suite(.serialized) struct CLITests {
    static var binary: String {
        let build = URL(fileURLWithPath: TestArchive.packagePath).appendingPathComponent(".build")
        for config in ["debug", "release"] {
            let p = build.appendingPathComponent(config).appendingPathComponent("chat-archive").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return build.appendingPathComponent("debug/chat-archive").path
    }

    @discardableResult
    func run(_ args: [String], env: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.binary)
        p.arguments = args
        var e = ProcessInfo.processInfo.environment
        e["NO_COLOR"] = "1"
        for (k, v) in env { e[k] = v }
        p.environment = e
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let r = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: r, as: UTF8.self))
    }

    func json(_ s: String) throws -> JSONValue { try JSONParser.parse(Array(s.utf8)) }

    @Test func ingestSearchChatsItemsOnTheSampleCorpus() throws {
        let archive = TestArchive.temporaryPath()
        let sample = TestArchive.corpusPath + "/sample"
        let ingest = try run([
            "ingest", "--archive", archive, "--json", sample + "/chats-1.jsonl", sample + "/chats-2.jsonl",
            sample + "/updates.jsonl",
        ])
        #expect(ingest.status == 0, "\(ingest.err)")
        let report = try json(ingest.out)
        #expect(report["itemsAdded"]?.numberValue == 480)
        #expect(report["itemsUpdated"]?.numberValue == 14)
        #expect(report["chats"]?.numberValue == 13)

        let again = try json(try run(["ingest", "--archive", archive, "--json", sample + "/updates.jsonl"]).out)
        #expect(again["itemsAdded"]?.numberValue == 0)
        #expect(again["itemsUpdated"]?.numberValue == 0)
        #expect(again["itemsUnchanged"]?.numberValue == 19)

        let search = try run(["search", "--archive", archive, "--json", "Heinestraße"])
        #expect(search.status == 0)
        let hits = try #require(try json(search.out)["hits"]?.arrayValue)
        #expect(hits.count == 6)  // 4 with Anna, 2 in the notes (infix: Heinestraße inside longer words too)
        #expect(hits.first?["ranges"]?.arrayValue?.isEmpty == false)
        let id = try #require(hits.first?["id"]?.numberValue)
        let chat = try #require(hits.first?["chatId"]?.stringValue)

        let window = try json(
            try run([
                "items", "--archive", archive, "--json", "--chat", chat, "--around", String(Int64(id)), "--count", "2",
            ]).out)
        let items = try #require(window["items"]?.arrayValue)
        #expect(items.count == 5)
        #expect(items[2]["id"]?.numberValue == id)
        #expect(window["navInfo"]?["afterTotal"]?.numberValue != nil)

        let chats = try json(try run(["chats", "--archive", archive, "--json", "--filter", "business"]).out)
        #expect(chats["chats"]?.arrayValue?.map { $0["chatId"]?.stringValue } == ["b-cafe"])

        // The chat list by pages: each page's nextCursor gives the next, every chat once.
        var listed: [String] = []
        var cursor: [String] = []
        for _ in 0..<20 {
            let page = try json(try run(["chats", "--archive", archive, "--json", "--limit", "5"] + cursor).out)
            listed += page["chats"]?.arrayValue?.compactMap { $0["chatId"]?.stringValue } ?? []
            guard let next = page["nextCursor"]?.stringValue else { break }
            cursor = ["--cursor", next]
        }
        #expect(listed.count == 13)
        #expect(Set(listed).count == 13)
        let human = try run(["chats", "--archive", archive, "--limit", "2"])
        #expect(human.out.contains("more: --cursor c"))
        let named = try json(try run(["chats", "--archive", archive, "--json", "--ids", "b-cafe,nope,g-hiking"]).out)
        #expect(named["chats"]?.arrayValue?.map { $0["chatId"]?.stringValue } == ["b-cafe", "g-hiking"])

        let paged = try json(try run(["search", "--archive", archive, "--json", "--limit", "3", "trip"]).out)
        #expect(paged["hits"]?.arrayValue?.count == 3)
        #expect(paged["nextCursor"]?.stringValue != nil)

        let hikes = try run(["search", "--archive", archive, "hikes"])
        #expect(hikes.out.contains("[hikes]"))
        #expect(try run(["check", "--archive", archive]).status == 0)
    }

    @Test func badLinesAreReportedAndUsageErrorsExitWith2() throws {
        let archive = TestArchive.temporaryPath()
        let r = try run(["ingest", "--archive", archive, "--json", TestArchive.corpusPath + "/sample-bad/bad.jsonl"])
        #expect(r.status == 0)
        let report = try json(r.out)
        #expect(report["itemsAdded"]?.numberValue == 4)
        let lines = report["errors"]?.arrayValue?.compactMap { $0["line"]?.numberValue } ?? []
        #expect(lines == [4, 5, 6, 7, 8, 9, 10, 13, 14, 15])
        let strict = try run([
            "ingest", "--archive", TestArchive.temporaryPath(), "--strict",
            TestArchive.corpusPath + "/sample-bad/bad.jsonl",
        ])
        #expect(strict.status == 1)
        #expect(try run(["search", "--archive", archive, "--order", "sideways", "x"]).status == 2)
        #expect(try run(["chats", "--archive", archive, "--cursor", "c0.1"]).status == 2)
        #expect(try run(["chats", "--archive", archive, "--ids", "a", "--filter", "groups"]).status == 2)
        #expect(try run(["items", "--archive", archive, "--chat", "bad-1", "--around", "1"]).status == 1)
    }

    /// Ingests one message into a new archive and returns the archive and the human output of `search query`.
    func searchOneMessage(_ text: String, for query: String) throws -> (archive: String, out: String) {
        let file = try TestArchive.writeFile(
            [Lines.chat("c", type: "direct"), Lines.item("c", "1", ts: "2024-05-01T10:00:00Z", text: text)].joined(
                separator: "\n"))
        let archive = TestArchive.temporaryPath()
        #expect(try run(["ingest", "--archive", archive, file]).status == 0)
        return (archive, try run(["search", "--archive", archive, query]).out)
    }

    @Test func longHitsShowTheirMatchesNotTheWholeText() throws {
        let filler = Array(repeating: "lorem ipsum dolor sit amet", count: 12).joined(separator: " ")
        let text = "needle at the start \(filler) a needle in the middle \(filler) and a needle at the end"
        let (archive, out) = try searchOneMessage(text, for: "needle")
        let body = try #require(out.split(separator: "\n").dropFirst().first)
        #expect(body.components(separatedBy: "[needle]").count == 4)  // every match shown
        #expect(body.contains(" … "))  // the text between them cut
        #expect(body.count < text.count / 2)
        // The JSON keeps the whole text.
        let hit = try #require(
            try json(try run(["search", "--archive", archive, "--json", "needle"]).out)["hits"]?.arrayValue?.first)
        #expect(hit["text"]?.stringValue == text)
        #expect(hit["ranges"]?.arrayValue?.count == 3)
    }

    /// The excerpt is cut and transcoded by UTF-16 offsets: in every script, next to emoji (two
    /// UTF-16 units each) and combining marks, each piece is exactly a piece of the text.
    @Test func longHitsInEveryScriptShowExactPiecesOfTheText() throws {
        let filler = Array(
            repeating: "東京の夜 😂👍🏽 مرحبا بالعالم שלום עולם नमस्ते दुनिया Привет мир Straße İstanbul ｆｕｌｌ e\u{301}té สวัสดี 안녕하세요",
            count: 4
        ).joined(separator: " ")
        let text = "😂needle first \(filler) 👍🏽needle in the middle 😂 \(filler) 東京needle at the end 👍🏽"
        let (_, out) = try searchOneMessage(text, for: "needle")
        let body = try #require(out.split(separator: "\n").dropFirst().first).trimmingCharacters(in: .whitespaces)
        #expect(body.components(separatedBy: "[needle]").count == 4, "\(body)")
        #expect(body.contains(" … "))
        #expect(!body.unicodeScalars.contains("\u{FFFD}"), "\(body)")
        let pieces = body.replacingOccurrences(of: "[needle]", with: "needle")
            .components(separatedBy: "…").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(pieces.count == 3, "\(pieces)")
        for piece in pieces { #expect(text.contains(piece), "not a piece of the text: \(piece)") }
    }

    @Test func demoRuns() throws {
        let r = try run(["demo"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Heinestraße"))
    }
}
