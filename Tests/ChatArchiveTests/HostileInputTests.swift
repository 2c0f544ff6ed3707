import ChatArchive
import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

/// Hostile and broken input (issue 6, part 3): each gives a clear error (file and line or byte
/// offset) or a safe result, never a crash, never loses what the archive already held, and
/// keeps memory bounded.
///
/// Every test first stores a good export, then ingests the hostile one into the same archive,
/// then checks that the good items are all still there and that `check()` finds nothing wrong.
@Suite struct HostileInputTests {
    /// An archive that already holds a good export: chat `good`, items that all say "keepsake".
    struct Fixture {
        static let goodItems = 40
        let path = TestArchive.temporaryPath()

        init() throws {
            var lines = [Lines.chat("good", name: "Good chat")]
            for k in 0..<Self.goodItems {
                lines.append(
                    Lines.item(
                        "good", "g\(k)", ts: "2024-01-01T10:\(String(format: "%02d", k)):00Z",
                        text: "keepsake number \(k)"))
            }
            let report = try Archive(path: path).ingestSync([
                try TestArchive.writeFile(lines.joined(separator: "\n"), name: "good.jsonl")
            ])
            #expect(report.itemsAdded == Self.goodItems)
        }

        func ingest(_ file: String, format: String = "auto") throws -> IngestReport {
            try Archive(path: path).ingestSync([file], options: IngestOptions(format: format))
        }

        func cli(_ args: [String]) throws -> ChildProcess.Result {
            try ChildProcess.run(ChildProcess.chatArchiveBinary, args + ["--archive", path])
        }

        /// The good items are all there and findable, plus `extra` items in other chats, and
        /// the archive and its indexes are healthy.
        func expectIntact(extra: Int? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
            let archive = try Archive(path: path)
            let good = try await archive.database.writer.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM item JOIN chat ON chat.id = item.chatId WHERE chat.sourceId = 'good'"
                )
            }
            #expect(good == Self.goodItems, sourceLocation: sourceLocation)
            let found = try await archive.search("keepsake", options: SearchOptions(limit: 100)).hits.count
            #expect(found == Self.goodItems, sourceLocation: sourceLocation)
            if let extra {
                #expect(try await archive.stats().items == Self.goodItems + extra, sourceLocation: sourceLocation)
            }
            #expect(try await archive.check() == [], sourceLocation: sourceLocation)
        }
    }

    static let header = Lines.chat("h", name: "Hostile")
    static func item(_ id: String, _ text: String) -> String {
        Lines.item("h", id, ts: "2024-02-01T10:00:00Z", text: text)
    }

    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let path = TestArchive.temporaryPath(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The peak memory allowed to a `chat-archive ingest` of one huge record.
    static let memoryBound = 300 << 20

    // MARK: Truncated files

    @Test func truncatedJSONLinesReportsTheCutLineAndKeepsTheRest() async throws {
        let f = try Fixture()
        let text = [
            Self.header, Self.item("1", "first survives"), Self.item("2", "second survives"),
            Self.item("3", "cut here"),
        ].joined(separator: "\n")
        let bytes = Array(text.utf8)
        let path = try Self.write(Array(bytes.prefix(bytes.count - 25)), name: "cut.jsonl")
        let r = try f.ingest(path)
        #expect(r.itemsAdded == 2)
        let e = try #require(r.errors.first)
        #expect(e.location.file.hasSuffix("cut.jsonl"))
        #expect(e.location.line == 4)
        #expect(e.message.contains("invalid JSON"))
        try await f.expectIntact(extra: 2)
    }

    /// Bidi overrides in a chat name, a sender and a file name print as U+FFFD: "U+202E evil U+202C Eve"
    /// never shows as "live Eve".
    @Test func bidiControlsInNamesNeverReorderTheTerminalsText() async throws {
        let f = try Fixture()
        let lines = [
            Lines.chat("b", name: "\\u202Eevil\\u202C chat"),
            Lines.member("b", "m1", "\\u202Eevil\\u202C Eve"),
            Lines.item(
                "b", "1", ts: "2024-03-01T10:00:00Z", text: "bidi tarnkappe \u{2066}x\u{2069}", member: "m1",
                type: "file",
                extra: #""file":{"name":"\u202Egnp.exe","path":"f.exe"}"#),
        ]
        let file = try TestArchive.writeFile(lines.joined(separator: "\n"), name: "bidi.jsonl")
        _ = try f.cli(["ingest", file])
        var shown = ""
        for args in [["search", "tarnkappe"], ["chats"], ["items", "--chat", "b", "--last", "5"]] {
            let r = try f.cli(args)
            #expect(r.status == 0, "\(args): \(r.err)")
            shown += r.out + r.err
        }
        let bidi = shown.unicodeScalars.filter {
            (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
                || [0x200E, 0x200F, 0x061C].contains($0.value)
        }
        #expect(bidi.isEmpty, "bidi controls reached the output: \(bidi.map { $0.value })")
        #expect(shown.contains("\u{FFFD}evil\u{FFFD} chat"))
    }

    @Test func truncatedTelegramJSONStopsWithAByteOffsetAndKeepsWhatCameBefore() async throws {
        let f = try Fixture()
        let whole = Array(
            try Data(contentsOf: URL(fileURLWithPath: TestArchive.corpusPath + "/telegram/single-chat/result.json")))
        let path = try Self.write(Array(whole.prefix(whole.count * 2 / 3)), name: "result.json")
        let r = try f.ingest(path)
        #expect(r.itemsAdded > 0)
        #expect(r.filesStopped == 1)
        let e = try #require(r.errors.first { $0.severity == .fatal })
        #expect(e.location.file.hasSuffix("result.json"))
        #expect(e.location.byteOffset != nil || e.location.line != nil)
        #expect(e.message.contains("the file ends inside a value"), "\(e.message)")
        try await f.expectIntact(extra: r.itemsAdded)
    }

    // MARK: Bytes that are not text

    @Test func invalidUTF8IsReplacedAndReportedWithItsLine() async throws {
        let f = try Fixture()
        var bytes = Array((Self.header + "\n").utf8)
        bytes += Array(Self.item("1", "beforeXXafter").utf8)
        let at = bytes.count - Array(#"XXafter"},"unread":false,"deleted":false,"pinned":false}"#.utf8).count
        bytes[at] = 0xFF
        bytes[at + 1] = 0xC3  // a lead byte without its continuation
        let r = try f.ingest(try Self.write(bytes, name: "bad-utf8.jsonl"))
        #expect(r.itemsAdded == 1)
        #expect(r.errors.map(\.location.line) == [2])
        #expect(r.errors.first?.message.contains("UTF-8") == true)
        let archive = try Archive(path: f.path)
        let hit = try #require(try await archive.search("after").hits.first)
        #expect(hit.item.text.contains("\u{FFFD}"))
        try await f.expectIntact(extra: 1)
    }

    @Test func nulBytesAreStoredSafelyAndTheTextAroundThemIsFound() async throws {
        let f = try Fixture()
        var bytes = Array((Self.header + "\n").utf8)
        // An escaped NUL (valid JSON), a raw NUL inside a string (invalid JSON), a line of NULs.
        bytes += Array((Self.item("1", "nulbefore\u{0}nulafter") + "\n").utf8)
        var raw = Array((Self.item("2", "rawbefore#rawafter") + "\n").utf8)
        if let k = raw.firstIndex(of: UInt8(ascii: "#")) { raw[k] = 0 }
        bytes += raw
        bytes += [UInt8](repeating: 0, count: 64) + [0x0A]
        bytes += Array(Self.item("3", "still read").utf8)
        let r = try f.ingest(try Self.write(bytes, name: "nul.jsonl"))
        #expect(r.itemsAdded + r.itemsSkipped >= 3)
        #expect(r.errors.allSatisfy { $0.location.line != nil })
        #expect(r.errors.contains { $0.location.line == 4 })
        let archive = try Archive(path: f.path)
        #expect(try await archive.search("nulafter").hits.count == 1)
        #expect(try await archive.search("nulbefore").hits.count == 1)
        #expect(try await archive.search("still").hits.count == 1)
        try await f.expectIntact(extra: r.itemsAdded)
    }

    // MARK: Huge records

    @Test func aTenMegabyteMessageIsStoredWithBoundedMemory() async throws {
        let f = try Fixture()
        var text = ""
        text.reserveCapacity(10 << 20)
        var k = 0
        while text.utf8.count < 10 << 20 {
            text += "word\(k % 5000) "
            k += 1
        }
        text += "needleattheend"
        let path = try TestArchive.writeFile(
            [Self.header, Self.item("big", text)].joined(separator: "\n"), name: "big.jsonl")
        let r = try f.cli(["ingest", "--json", path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.maxRSSBytes < Self.memoryBound, "peak RSS \(r.maxRSSBytes >> 20) MB")
        let archive = try Archive(path: f.path)
        #expect(try await archive.search("needleattheend").hits.count == 1)
        #expect(try await archive.search("word4999").hits.count == 1)
        try await f.expectIntact(extra: 1)
    }

    @Test func aWordOfAHundredThousandCharactersIsStoredAndFound() async throws {
        let f = try Fixture()
        let word = String(repeating: "abcdefghij", count: 10_000)
        let path = try TestArchive.writeFile(
            [Self.header, Self.item("w", "short \(word) tail"), Self.item("x", "other")].joined(separator: "\n"),
            name: "word.jsonl")
        let r = try f.ingest(path)
        #expect(r.itemsAdded == 2)
        let archive = try Archive(path: f.path)
        #expect(try await archive.search("tail").hits.count == 1)
        #expect(try await archive.search("short").hits.count == 1)
        // Found whole, by a part (infix), and by a long prefix.
        #expect(try await archive.search(word).hits.count == 1)
        #expect(try await archive.search("fghij").hits.count == 1)
        #expect(try await archive.search(String(word.prefix(1000))).hits.count == 1)
        try await f.expectIntact(extra: 2)
    }

    static func markers(_ kind: String) -> String {
        switch kind {
        case "nested": String(repeating: "*_~", count: 10_000) + "deep" + String(repeating: "~_*", count: 10_000)
        case "unclosed": (0..<10_000).map { "*w\($0) _v ~u `s #h [" }.joined(separator: " ") + " deep"
        default: String(repeating: "*_~`#!", count: 10_000) + " deep"
        }
    }

    @Test(arguments: ["nested", "unclosed", "markers only"])
    func tenThousandMarkdownMarkersParseInBoundedTimeAndMemory(kind: String) async throws {
        let text = Self.markers(kind)
        let f = try Fixture()
        let path = try TestArchive.writeFile(
            [Self.header, Self.item("md", text)].joined(separator: "\n"), name: "markers.jsonl")
        let r = try f.cli(["ingest", "--json", path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.maxRSSBytes < Self.memoryBound, "peak RSS \(r.maxRSSBytes >> 20) MB")
        let archive = try Archive(path: f.path)
        #expect(try await archive.search("deep").hits.count == 1)
        try await f.expectIntact(extra: 1)
    }

    @Test func aHundredThousandMentionsAreStoredWithBoundedMemory() async throws {
        let f = try Fixture()
        let text = (0..<100_000).map { "@u\($0)" }.joined(separator: " ") + " mentioned"
        let path = try TestArchive.writeFile(
            [Self.header, Lines.member("h", "u7", "u7"), Self.item("many", text)].joined(separator: "\n"),
            name: "mentions.jsonl")
        let r = try f.cli(["ingest", "--json", path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.maxRSSBytes < Self.memoryBound, "peak RSS \(r.maxRSSBytes >> 20) MB")
        let archive = try Archive(path: f.path)
        #expect(try await archive.search("mentioned").hits.count == 1)
        #expect(try await archive.search("mentions:u7").hits.count == 1)
        try await f.expectIntact(extra: 1)
    }

    // MARK: Deep nesting

    @Test func deeplyNestedJSONLinesIsRefusedWithItsLine() async throws {
        let f = try Fixture()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        // Just under the limit, inside an item, read on a secondary thread: no stack overflow.
        let nearLimit =
            String(repeating: "{\"a\":", count: JSONParser.maxDepth - 3) + "1"
            + String(repeating: "}", count: JSONParser.maxDepth - 3)
        let lines = [
            Self.header, deep,
            "{\"kind\":\"item\",\"chatId\":\"h\",\"id\":\"n\",\"ts\":\"2024-02-01T10:00:00Z\",\"dir\":\"rcv\",\"content\":{\"type\":\"text\",\"text\":\"nested ok\"},\"x\":\(nearLimit)}",
            String(repeating: "{\"a\":", count: 100_000), Self.item("after", "after the nesting"),
        ]
        let path = try TestArchive.writeFile(lines.joined(separator: "\n"), name: "deep.jsonl")
        let r = try await Archive(path: f.path).ingest([path])
        #expect(r.itemsAdded == 2)
        #expect(r.errors.map(\.location.line) == [2, 4])
        #expect(r.errors.allSatisfy { $0.message.contains("nested deeper than \(JSONParser.maxDepth)") })
        try await f.expectIntact(extra: 2)
    }

    @Test func deeplyNestedTelegramJSONStopsWithAByteOffset() async throws {
        let f = try Fixture()
        let head =
            ##"{"name":"Deep","type":"personal_chat","id":77,"messages":[{"id":1,"type":"message","date":"2024-01-01T10:00:00","date_unixtime":"1704103200","from":"A","from_id":"user1","text":"shallow"},{"id":2,"type":"message","date":"2024-01-01T10:01:00","date_unixtime":"1704103260","from":"A","from_id":"user1","text":"##
        let text = head + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) + "}]}"
        let path = try TestArchive.writeFile(text, name: "result.json")
        let r = try f.ingest(path)
        #expect(r.itemsAdded == 1)
        let e = try #require(r.errors.first)
        #expect(e.location.file.hasSuffix("result.json"))
        #expect(e.location.byteOffset != nil)
        #expect(e.message.contains("nested deeper"))
        try await f.expectIntact(extra: 1)
    }

    // MARK: Zips

    @Test func zipEntriesWithParentOrAbsolutePathsAreRefusedByName() async throws {
        let f = try Fixture()
        let folder = TestTemporary.folder("zipslip")
        let inner = [Self.header, Self.item("z", "zipped item")].joined(separator: "\n")
        var z = HostileZip()
        z.add("export.jsonl", inner)
        z.add("../escaped.jsonl", inner)
        z.add("/tmp/absolute.jsonl", inner)
        z.add("a/../../b.jsonl", inner)
        let zip = folder + "/sub/export.zip"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try Data(z.bytes()).write(to: URL(fileURLWithPath: zip))
        let r = try f.ingest(zip)
        #expect(r.itemsAdded == 1)
        let refused = r.errors.filter { $0.message.contains("unsafe") }
        #expect(refused.count == 3)
        #expect(refused.allSatisfy { $0.location.file.hasPrefix(zip + "!") })
        // Nothing is ever written next to or outside the zip.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["sub"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/sub") == ["export.zip"])
        try await f.expectIntact(extra: 1)
    }

    @Test func aZipBombIsRefusedBeforeInflating() async throws {
        let f = try Fixture()
        var z = HostileZip()
        z.add("bomb.jsonl", bytes: Array((Self.header + "\n").utf8) + [UInt8](repeating: 0x20, count: 32 << 20))
        let zip = try Self.write(z.bytes(), name: "bomb.zip")
        #expect(try Data(contentsOf: URL(fileURLWithPath: zip)).count < 200 << 10)
        let error = #expect(throws: ArchiveError.self) { try f.ingest(zip) }
        #expect(error?.code == .unreadableExport)
        #expect(error?.description.contains(zip) == true)
        #expect(error?.description.contains("zip bomb") == true)
        try await f.expectIntact(extra: 0)
    }

    @Test func anEncryptedSimplexDatabaseIsRefusedInWords() async throws {
        let f = try Fixture()
        var z = HostileZip()
        z.add("simplex_v1_agent.db", bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        z.add("simplex_v1_chat.db", bytes: (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        let zip = try Self.write(z.bytes(), name: "simplex-export.zip")
        let r = try f.cli(["ingest", zip])
        #expect(r.status == 1)
        #expect(r.err.contains("simplex_v1_chat.db is encrypted with a passphrase"), "\(r.err)")
        #expect(r.err.split(separator: "\n").count <= 3)
        try await f.expectIntact(extra: 0)
    }

    // MARK: Wrong format, wrong archive

    @Test(arguments: [
        ("telegram/single-chat/result.json", "whatsapp"), ("telegram/single-chat/result.json", "jsonl"),
        ("whatsapp/android-en-GB/WhatsApp Chat with Allotment.txt", "jsonl"),
        ("whatsapp/android-en-GB/WhatsApp Chat with Allotment.txt", "telegram"),
        ("sample/chats-1.jsonl", "telegram"), ("sample/chats-1.jsonl", "simplex"), ("sample/chats-1.jsonl", "discord"),
        ("sample/chats-1.jsonl", "slack"), ("discord/dm", "telegram"), ("simplex/android-group.json", "discord"),
        ("telegram/single-chat/result.json", "meta"), ("sample/chats-1.jsonl", "meta"),
        ("sample/chats-1.jsonl", "imessage"),
    ])
    func aFileForcedToTheWrongFormatFailsInWords(fixture: String, format: String) async throws {
        let f = try Fixture()
        let r = try f.cli(["ingest", "--json", "--format", format, TestArchive.corpusPath + "/" + fixture])
        #expect(r.signal == nil)
        #expect(r.status == 0 || r.status == 1)
        let doc = try JSONParser.parse(Array(r.out.utf8))
        if r.status == 1 {
            let message = try #require(doc["error"]?.stringValue)
            #expect(
                message.contains((fixture as NSString).lastPathComponent) || message.contains(fixture), "\(message)")
        } else {
            // Nothing readable in that format: every problem says where.
            let errors = try #require(doc["errors"]?.arrayValue)
            #expect(!errors.isEmpty || doc["itemsAdded"]?.numberValue == 0)
            #expect(errors.allSatisfy { $0["file"]?.stringValue?.isEmpty == false })
        }
        try await f.expectIntact()
    }

    /// Names and texts with terminal control sequences (set the window title, clear the
    /// screen, a hyperlink, a carriage return that hides the start of a line, a C1 CSI) print
    /// as visible characters in every human output; only the CLI's own styling may use them.
    @Test func controlCharactersInTheArchiveNeverReachTheTerminalAsControls() async throws {
        let f = try Fixture()
        let esc = "\\u001b"
        let lines = [
            Lines.chat("t", name: "Evil\(esc)]0;pwned\\u0007 чат", alias: "Ali\\u009b2Jas", tags: ["x\(esc)[2J"]),
            Lines.member("t", "m1", "Mal\(esc)[31mlory 王"),
            Lines.item(
                "t", "1", ts: "2024-03-01T10:00:00Z",
                text:
                    "tarnkappe \u{1B}]8;;http://evil.example\u{7}link\u{1B}]8;;\u{7} \u{1B}[2J שלום\rhidden \u{9B}31m",
                member: "m1"),
            Lines.item("t", "2", ts: "2024-03-01T10:01:00Z", text: "zweite tarnkappe\u{1B}[A", dir: "snd"),
            Lines.item("unknown\(esc)[2J", "3", ts: "2024-03-01T10:02:00Z", text: "orphan"),
        ]
        let file = try TestArchive.writeFile(lines.joined(separator: "\n"), name: "controls\u{1B}[2J.jsonl")
        var outputs = [try f.cli(["ingest", file])]
        for args in [
            ["search", "tarnkappe"], ["chats"], ["chats", "pwned"], ["items", "--chat", "t", "--last", "5"],
            ["chats", "--counts"],
        ] {
            let r = try f.cli(args)
            #expect(r.status == 0, "\(args): \(r.err)")
            outputs.append(r)
        }
        let shown = outputs.map { $0.out + $0.err }.joined()
        let controls = shown.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F..<0xA0).contains($0.value)
        }
        #expect(controls.isEmpty, "control characters reached the output: \(controls.map { $0.value })")
        // What they were is still there to read, as the control pictures.
        for piece in [
            "Evil␛]0;pwned␇ чат", "Mal␛[31mlory 王", "␛]8;;http://evil.example␇link", "שלום␍hidden", "#x␛[2J",
            "tag:x␛[2J\t1",
        ] {
            #expect(shown.contains(piece), "\(piece) not shown")
        }
        try await f.expectIntact(extra: 2)
    }

    @Test func anArchiveThatIsNotSQLiteIsRefusedAndLeftUntouched() throws {
        let junk = try TestArchive.writeFile(
            String(repeating: "my notes, not a database\n", count: 200), name: "notes.txt")
        let before = try Data(contentsOf: URL(fileURLWithPath: junk))
        for args in [
            ["search", "x"], ["ingest", TestArchive.corpusPath + "/sample/chats-1.jsonl"], ["check"],
            ["check", "--repair"], ["stats"],
        ] {
            let r = try ChildProcess.run(ChildProcess.chatArchiveBinary, args + ["--archive", junk])
            #expect(r.status == 1, "\(args)")
            #expect(r.err.contains("is not a chat-archive file"), "\(r.err)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: junk)) == before)
        #expect(!FileManager.default.fileExists(atPath: junk + "-wal"))
    }

    @Test func aTruncatedArchiveIsReportedAsDamaged() async throws {
        let f = try Fixture()
        let whole = try Data(contentsOf: URL(fileURLWithPath: f.path))
        let cut = TestArchive.temporaryPath("cut.sqlite")
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: cut))
        let r = try ChildProcess.run(ChildProcess.chatArchiveBinary, ["check", "--archive", cut])
        #expect(r.signal == nil)
        #expect(r.status == 1)
        #expect((r.out + r.err).contains("damaged"), "\(r.out)\(r.err)")
        try await f.expectIntact()
    }
}

/// Builds zip files with names and ratios no honest exporter writes.
struct HostileZip {
    private var entries: [(name: String, data: [UInt8])] = []

    mutating func add(_ name: String, _ text: String) { entries.append((name, Array(text.utf8))) }
    mutating func add(_ name: String, bytes: [UInt8]) { entries.append((name, bytes)) }

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func le16(_ v: Int, _ a: inout [UInt8]) { a += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func le32(_ v: Int, _ a: inout [UInt8]) {
            le16(v & 0xFFFF, &a)
            le16((v >> 16) & 0xFFFF, &a)
        }
        for e in entries {
            let payload = rawDeflate(e.data) ?? []
            let crc = Int(zipCRC32(0, e.data))
            let offset = out.count
            let name = Array(e.name.utf8)
            le32(0x0403_4B50, &out)
            le16(20, &out)
            le16(0x0800, &out)
            le16(8, &out)
            le32(0, &out)
            le32(crc, &out)
            le32(payload.count, &out)
            le32(e.data.count, &out)
            le16(name.count, &out)
            le16(0, &out)
            out += name + payload
            le32(0x0201_4B50, &central)
            le16(20, &central)
            le16(20, &central)
            le16(0x0800, &central)
            le16(8, &central)
            le32(0, &central)
            le32(crc, &central)
            le32(payload.count, &central)
            le32(e.data.count, &central)
            le16(name.count, &central)
            le16(0, &central)
            le16(0, &central)
            le16(0, &central)
            le16(0, &central)
            le32(0, &central)
            le32(offset, &central)
            central += name
        }
        let cdOffset = out.count
        out += central
        le32(0x0605_4B50, &out)
        le16(0, &out)
        le16(0, &out)
        le16(entries.count, &out)
        le16(entries.count, &out)
        le32(central.count, &out)
        le32(cdOffset, &out)
        le16(0, &out)
        return out
    }
}
