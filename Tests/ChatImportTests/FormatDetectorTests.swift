import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

@Suite struct FormatDetectorTests {
    static let telegramChat =
        #"{"name": "Climbing crew", "type": "private_supergroup", "id": 1780044512, "messages": [{"id": 311}]}"#
    static let telegramFull =
        #"{"about": "Here is the data you requested.", "personal_information": {"user_id": 1}, "chats": {"about": "", "list": []}}"#
    static let discord =
        #"{"guild": {"id": "0", "name": "Direct Messages"}, "channel": {"id": "7", "type": "DirectTextChat"}, "messages": []}"#
    static let simplexPlain = #"{"chatInfo": {"type": "local", "noteFolder": {"noteFolderId": 1}}, "chatItems": []}"#
    static let jsonl = "\n" + #"{"kind":"chat","chatId":"g1","type":"group","displayName":"Hiking club"}"# + "\n"
    static let android =
        "03/07/2024, 18:02 - Ana created group \"Allotment\"\n03/07/2024, 18:04 - Ben: me, sorry\n"
        + "2024-06-02 10:00 rota moved, bringing it Saturday\n03/07/2024, 18:05 - Ben: <Media omitted>\n"
    static let ios =
        "\u{FEFF}[7/3/24, 6:02:11\u{202F}PM] Allotment: \u{200E}Ana created this group\r\n"
        + "\u{200E}[7/3/24, 6:05:17\u{202F}PM] ~\u{202F}Ben: \u{200E}<attached: 00000021-PHOTO-2024-07-03-18-05-17.jpg>\r\n"
        + "[7/3/24, 6:09:40\u{202F}PM] Ana: thanks\r\n"

    static func file(_ text: String, _ name: String) throws -> String { try TestFiles.write(text, named: name) }

    @Test(arguments: [
        ("telegram chat", telegramChat, "telegram"),
        ("telegram full export", telegramFull, "telegram"),
        ("discord", discord, "discord"),
        ("simplex chat json", simplexPlain, "simplex"),
        (
            "simplex apiChat tagged", #"{"type":"apiChat","user":{"userId":1},"chat":{"chatInfo":{},"chatItems":[]}}"#,
            "simplex"
        ),
        ("simplex apiChat iOS", #"{"result":{"apiChat":{"user":{"userId":1},"chat":{}}}}"#, "simplex"),
        ("json lines", jsonl, "jsonl"),
        ("whatsapp android", android, "whatsapp"),
        ("whatsapp ios", ios, "whatsapp"),
        (
            "whatsapp dotted dates", "13. 6. 2018. 21:04 - Ana: hej\n13. 6. 2018. 21:05 - Ben: hi\nmore text\n",
            "whatsapp"
        ),
        ("whatsapp old", "12/24/19 9:15 PM: Ana: hi\n12/24/19 9:16 PM: Ben: hello\n", "whatsapp"),
    ])
    func detectsSingleFiles(name: String, text: String, expected: String) throws {
        // Names say nothing: detection reads content.
        let path = try Self.file(text, "export.data")
        let d = try FormatDetector.detect(path: path)
        #expect(d.format == expected, "\(name)")
        #expect(d.entries == ["export.data"])
    }

    @Test func detectsUTF16WhatsApp() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for u in Self.android.utf16 { bytes += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        let d = try FormatDetector.detect(path: try TestFiles.write(bytes, named: "chat.txt"))
        #expect(d.format == "whatsapp")
    }

    @Test func detectsSimplexCorpusFiles() throws {
        for name in ["android-group.json", "ios-group.json"] {
            #expect(try FormatDetector.detect(path: SimplexImporterTests.corpus(name)).format == "simplex")
        }
    }

    @Test func detectsSimplexDatabaseZipByMagicNotName() throws {
        var z = TestZip()
        z.add("simplex_v1_agent.db", "agent")
        z.add("simplex_v1_chat.db", "SQLite format 3\0")
        z.add("simplex_v1_files/a.json", Self.discord)
        let d = try FormatDetector.detect(path: try z.write(named: "backup.bin"))
        #expect(d.format == "simplex")
        #expect(d.entries == ["simplex_v1_chat.db"])
        #expect(d.container is ZipContainer)
    }

    @Test func detectsSlackFoldersAndZipsWithATopFolder() throws {
        let dir = try TestFiles.folder()
        _ = try TestFiles.write("[]", named: "channels.json", in: dir)
        _ = try TestFiles.write("[]", named: "users.json", in: dir)
        _ = try TestFiles.write("[]", named: "general/2024-09-14.json", in: dir)
        let d = try FormatDetector.detect(path: dir)
        #expect(d.format == "slack")
        #expect(d.entries == ["channels.json", "general/2024-09-14.json", "users.json"])

        var z = TestZip()
        z.add("Acme Slack export/users.json", "[]")
        z.add("Acme Slack export/random/2024-09-14.json", "[]")
        #expect(try FormatDetector.detect(path: try z.write()).format == "slack")
    }

    @Test func picksTheJSONFileInAFolderWithMedia() throws {
        let dir = try TestFiles.folder()
        _ = try TestFiles.write(Self.telegramChat, named: "result.json", in: dir)
        _ = try TestFiles.write([0xFF, 0xD8, 0xFF, 0xE0], named: "photos/photo_1.jpg", in: dir)
        let d = try FormatDetector.detect(path: dir)
        #expect(d.format == "telegram" && d.entries == ["result.json"])
    }

    @Test func detectsWhatsAppInsideAnIOSZip() throws {
        var z = TestZip()
        z.add("_chat.txt", Self.ios)
        z.add("00000021-PHOTO-2024-07-03-18-05-17.jpg", bytes: [0xFF, 0xD8])
        let d = try FormatDetector.detect(path: try z.write(named: "WhatsApp Chat - Allotment.zip"))
        #expect(d.format == "whatsapp" && d.entries == ["_chat.txt"])
    }

    @Test func discordWinsOverTelegramInFormatOrder() throws {
        // Both keys sets present: ChatImport's ImportRules article tries DiscordChatExporter before Telegram.
        let text = #"{"guild": {"id": "1"}, "channel": {"id": "2"}, "type": "x", "messages": []}"#
        #expect(try FormatDetector.detect(path: try Self.file(text, "x.json")).format == "discord")
    }

    @Test func forcedFormatSkipsRecognition() throws {
        let path = try Self.file("not really a chat\n", "notes.txt")
        let d = try FormatDetector.detect(path: path, forced: "whatsapp")
        #expect(d.format == "whatsapp" && d.entries == ["notes.txt"])
        let t = try FormatDetector.detect(path: try Self.file(Self.telegramChat, "r.json"), forced: "telegram")
        #expect(t.format == "telegram")
    }

    @Test(arguments: [
        ("<!DOCTYPE html>\n<html><head><title>Exported Data</title></head></html>", "messages.html"),
        ("\u{FEFF}  <html lang=\"en\"><body>DiscordChatExporter</body></html>", "chat.html"),
        ("AuthorID,Author,Date,Content,Attachments,Reactions\n1,moss,2024-02-11,hi,,\n", "chat.csv"),
        ("\"AuthorID\",\"Author\",\"Date\",\"Content\"\n", "dce.txt"),
    ])
    func refusesHTMLAndCSVExports(text: String, name: String) throws {
        let path = try Self.file(text, name)
        let error = #expect(throws: ImportError.self) { try FormatDetector.detect(path: path) }
        #expect(error?.message.contains("re-export as JSON") == true)
        #expect(error?.message.contains(name) == true)
    }

    @Test func unknownFilesNameEveryTestTried() throws {
        let path = try Self.file("just some notes\nnothing to see\n", "notes.txt")
        let error = #expect(throws: ImportError.self) { try FormatDetector.detect(path: path) }
        let message = error?.message ?? ""
        #expect(message.hasPrefix(path + ": not a recognised chat export"))
        for word in [
            "SimpleX database", "Slack", "DiscordChatExporter", "Telegram", "SimpleX JSON", "WhatsApp", "JSON Lines",
        ] {
            #expect(message.contains(word), "\(word)")
        }
    }

    @Test func emptyFilesSaySo() throws {
        let error = #expect(throws: ImportError.self) {
            try FormatDetector.detect(path: try Self.file("", "empty.json"))
        }
        #expect(error?.message.contains("empty") == true)
    }

    @Test func missingPathsFail() {
        #expect(throws: ImportError.self) {
            try FormatDetector.detect(path: "/nonexistent/chat-export-\(UUID().uuidString)")
        }
    }

    @Test func scansTruncatedJSONPrefixes() {
        let s = JSONPrefixScanner.scan(
            Array(#"{"name": "x", "type": "personal_chat", "messages": [{"id": 1, "text": "cut"#.utf8))
        #expect(s.root == .object && s.has("messages") && s.strings["type"] == "personal_chat")
    }

    @Test func scansHostileNestingWithoutRecursion() {
        // A million brackets used to recurse once each and overflow the stack.
        let deep = #"{"type": "personal_chat", "messages": [{"text": "# + String(repeating: "[", count: 1_000_000)
        let s = JSONPrefixScanner.scan(Array(deep.utf8))
        #expect(s.has("messages.[].text") && s.strings["type"] == "personal_chat")
        let closed =
            #"{"messages": [{"text": "# + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
            + #"}], "name": "after"}"#
        let t = JSONPrefixScanner.scan(Array(closed.utf8))
        #expect(t.strings["name"] == "after")
    }
}

extension FormatDetectorTests {
    @Test func aLoneSQLiteFileIsASimplexDatabase() throws {
        let path = try TestFiles.write(Array("SQLite format 3\0".utf8) + [1, 2, 3], named: "backup-2025.sqlite")
        let d = try FormatDetector.detect(path: path)
        #expect(d.format == "simplex" && d.entries == ["backup-2025.sqlite"])
    }
}
