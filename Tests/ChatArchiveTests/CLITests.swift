import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// End-to-end tests of the built `chat-archive` binary on the Corpus.
@Suite(.serialized) struct CLITests {
    static var binary: String { ChildProcess.chatArchiveBinary }

    @discardableResult
    func run(_ args: [String], env: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let r = try ChildProcess.run(Self.binary, args, environment: env)
        return (r.status ?? -(r.signal ?? 1), r.out, r.err)
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
        #expect(window["counts"]?["after"]?.numberValue == window["navInfo"]?["afterTotal"]?.numberValue)

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

    @Test(arguments: ["A", "é", "./A", "sub/../B", "sub/C"])
    func anArchiveNamedRelativeToTheWorkingFolderOpensAsAnyOther(name: String) throws {
        // Linux Foundation's path functions stop the process on a one-character path.
        let folder = TestTemporary.folder("relative")
        let sample = TestArchive.corpusPath + "/sample/chats-1.jsonl"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        let archive = name
        for args in [["ingest", "--archive", archive, sample], ["stats", "--archive", archive]] {
            let r = try ChildProcess.run(Self.binary, args, shellPrefix: "cd '\(folder)'")
            #expect(r.status == 0, "\(args): \(r.err)")
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/" + archive))
        // A folder given as the archive is named as one, in one sentence.
        let dot = try ChildProcess.run(Self.binary, ["stats", "--archive", "."], shellPrefix: "cd '\(folder)'")
        #expect(dot.status == 1 && dot.err.contains("is a folder"), "\(dot.err)")
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

    @Test func searchHistogramPrintsBarsOrTheJSONDocument() throws {
        let archive = TestArchive.temporaryPath()
        #expect(
            try run(["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-1.jsonl"]).status == 0)
        let doc = try json(try run(["search", "--archive", archive, "--histogram", "month", "--json", ""]).out)
        #expect(doc["period"]?.stringValue == "month")
        #expect(doc["exact"]?.boolValue == true)
        let buckets = doc["buckets"]?.arrayValue ?? []
        #expect(!buckets.isEmpty)
        let total = buckets.compactMap { $0["count"]?.numberValue }.reduce(0, +)
        #expect(doc["total"]?.numberValue == total)
        let all = try json(try run(["search", "--archive", archive, "--limit", "10000", "--json", ""]).out)
        #expect(Double(all["hits"]?.arrayValue?.count ?? -1) == total, "the histogram counts what search finds")
        let text = try run(["search", "--archive", archive, "--histogram", "week", ""])
        #expect(text.status == 0)
        #expect(text.out.contains("█"))
        #expect(text.out.contains("per week (UTC)"))
        #expect(try run(["search", "--archive", archive, "--histogram", "day", "x"]).status == 2)
        #expect(try run(["search", "--archive", archive, "--exact", "x"]).status == 2)
        #expect(try run(["search", "--archive", archive, "--histogram", "month", "--chat", "nope", "x"]).status == 1)
    }

    @Test func searchCountSaysHowManyMatchInAll() throws {
        let archive = TestArchive.temporaryPath()
        #expect(
            try run(["ingest", "--archive", archive, TestArchive.corpusPath + "/sample/chats-1.jsonl"]).status == 0)
        let all = try json(try run(["search", "--archive", archive, "--limit", "10000", "--json", ""]).out)
        let n = all["hits"]?.arrayValue?.count ?? -1
        let doc = try json(try run(["search", "--archive", archive, "--limit", "2", "--count", "--json", ""]).out)
        #expect(doc["hits"]?.arrayValue?.count == 2)
        #expect(doc["count"]?["total"]?.numberValue == Double(n))
        #expect(doc["count"]?["exact"]?.boolValue == true)
        #expect(all["count"] == nil, "no count unless asked for")
        let text = try run(["search", "--archive", archive, "--limit", "2", "--count", ""])
        #expect(text.out.hasPrefix("\(n) matches\n"))
        #expect(try run(["search", "--archive", archive, "--count", "zzzqqq"]).out.hasPrefix("no matches"))
        #expect(try run(["search", "--archive", archive, "--count", "--histogram", "month", "x"]).status == 2)
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

    /// `ingest --compress-text` end to end: 20,600 messages in every script, written in batches of
    /// 5,000, so the dictionary is trained on the first 20,000 and the last 600 are stored
    /// compressed. The compressed archive answers the CLI's searches, windows and counters
    /// exactly as an archive of the same file ingested with `--no-compress-text`, and passes
    /// `check`; an ingest without either option compresses, as `--compress-text` does.
    @Test func ingestCompressTextAnswersAsThePlainArchive() throws {
        var lines: [String] = []
        for c in 0..<4 {
            lines.append(Lines.chat("c\(c)", name: "Chat \(c)"))
            lines.append(Lines.member("c\(c)", "m", "Zoë"))
        }
        let scripts = TextSamples.scripts
        for n in 0..<20_600 {
            let text =
                scripts[n % scripts.count] + " n\(n)" + (n % 7 == 0 ? " *bold* https://example.com/p?n=\(n)" : "")
            let ts = Timestamp(milliseconds: 1_714_557_600_000 + Int64(n) * 1_000).rfc3339
            lines.append(Lines.item("c\(n % 4)", "i\(n)", ts: ts, text: text, member: "m"))
        }
        let file = try TestArchive.writeFile(lines.joined(separator: "\n"))
        let plain = TestArchive.temporaryPath()
        let compressed = TestArchive.temporaryPath()
        let byDefault = TestArchive.temporaryPath()
        for (archive, flags) in [
            (plain, ["--no-compress-text"]), (compressed, ["--compress-text"]), (byDefault, [String]()),
        ] {
            let r = try run(["ingest", "--archive", archive, "--json", "--batch-size", "5000"] + flags + [file])
            #expect(r.status == 0, "\(r.err)")
            #expect(try json(r.out)["itemsAdded"]?.numberValue == 20_600)
        }
        let blobs = try DatabaseQueue(path: compressed).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE typeof(text) = 'blob'") ?? 0
        }
        #expect(blobs >= 500, "texts stored compressed: \(blobs)")
        let plainBlobs = try DatabaseQueue(path: plain).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE typeof(text) = 'blob'") ?? 0
        }
        #expect(plainBlobs == 0)
        let defaultBlobs = try DatabaseQueue(path: byDefault).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE typeof(text) = 'blob'") ?? 0
        }
        #expect(defaultBlobs == blobs)

        // Words of the compressed messages (n20500…), of every script, and of the whole archive.
        let queries = [
            "東京", "北京", "서울", "ฝนตก", "الاجتماع", "בפגישה", "दिल्ली", "Москве", "strasse", "istanbul", "🎉", "full",
            "café", "\"see you\"", "example", "bold", "from:Zoë", "has:link", "n20599", "n2059", "n20512",
        ]
        for q in queries {
            let a = try run(["search", "--archive", plain, "--json", "--limit", "60", q])
            let b = try run(["search", "--archive", compressed, "--json", "--limit", "60", q])
            #expect(a.status == 0 && b.status == 0, "\(q): \(a.err) \(b.err)")
            #expect(!(try json(a.out)["hits"]?.arrayValue ?? []).isEmpty, "no hits for \(q)")
            #expect(a.out == b.out, "\(q) answers differently")
        }
        let last = try json(try run(["search", "--archive", compressed, "--json", "n20599"]).out)
        let hit = try #require(last["hits"]?.arrayValue?.first)
        #expect(hit["text"]?.stringValue == scripts[20_599 % scripts.count] + " n20599")
        let id = try #require(hit["id"]?.numberValue)
        for archive in [plain, compressed] {
            #expect(try run(["check", "--archive", archive]).status == 0)
        }
        let window = ["items", "--json", "--chat", "c3", "--around", String(Int64(id)), "--count", "20"]
        #expect(
            try run(window + ["--archive", plain]).out == (try run(window + ["--archive", compressed]).out))
        let stats = try [plain, compressed].map { try json(try run(["stats", "--archive", $0, "--json"]).out) }
        #expect(stats[0]["textBytes"]?.numberValue == stats[1]["textBytes"]?.numberValue)
        #expect(stats[0]["items"]?.numberValue == stats[1]["items"]?.numberValue)
    }

    @Test func demoRuns() throws {
        let r = try run(["demo"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Heinestraße"))
    }
}
