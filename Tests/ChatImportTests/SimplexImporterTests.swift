import ChatModel
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatImport

@Suite struct SimplexImporterTests {
    static func importDatabase() throws -> CollectingSink {
        try readExport(try SimplexTestDatabase.zip())
    }

    static func item(_ sink: CollectingSink, _ id: String) -> Item? { sink.items.first { $0.sourceId == id } }

    @Test func refusesEncryptedDatabasesBeforeEmittingAnything() throws {
        var z = TestZip()
        z.add("simplex_v1_chat.db", bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        let path = try z.write(named: "encrypted.zip")
        let sink = CollectingSink()
        let error = #expect(throws: ImportError.self) {
            try readExport(path, into: sink)
        }
        #expect(
            error?.message
                == "\(path): simplex_v1_chat.db is encrypted with a passphrase. Only unencrypted SimpleX exports can be imported; export an unencrypted database or decrypt it, then retry."
        )
        #expect(sink.chats.isEmpty && sink.members.isEmpty && sink.items.isEmpty)
    }

    @Test func readsChatsAndSkipsHiddenProfiles() throws {
        let sink = try Self.importDatabase()
        #expect(
            sink.chats.map(\.sourceId) == [
                "simplex:1:direct:2", "simplex:1:group:7", "simplex:1:group:8", "simplex:1:local:1",
            ])
        let alice = sink.chats[0]
        #expect(alice.type == .direct && alice.displayName == "alice" && alice.localAlias == "Al")
        #expect(
            alice.fullName == "Alice Liddell" && alice.isFavorite && alice.notifications == .none
                && !alice.isMarkedUnread)
        let group = sink.chats[1]
        #expect(group.type == .group && group.displayName == "Climbers" && group.fullName == "Climbing crew")
        #expect(
            group.notifications == .mentions && group.isMarkedUnread && group.tags == ["friends"]
                && group.business == nil)
        #expect(sink.chats[2].business == .business && sink.chats[2].notifications == .all)
        #expect(sink.chats[3].type == .local && sink.chats[3].displayName == SimplexImporter.notesName)
        #expect(sink.chats.allSatisfy { $0.source == "simplex" })
        #expect(!sink.items.contains { $0.sourceId == "900" })
    }

    @Test func readsMembersWithStableIds() throws {
        let sink = try Self.importDatabase()
        let group = sink.members.filter { $0.chatSourceId == "simplex:1:group:7" }
        #expect(group.map(\.sourceId) == ["CgsM", "AQIDBA=="])
        #expect(group.map(\.displayName) == ["me", "bob"])
        #expect(group.map(\.isUser) == [true, false])
        #expect(group[1].fullName == "Bob Stone")
        let direct = sink.members.filter { $0.chatSourceId == "simplex:1:direct:2" }
        #expect(direct.map(\.sourceId) == ["contact:2"])
    }

    @Test func readsItemsInAppOrder() throws {
        let sink = try Self.importDatabase()
        let group = sink.items.filter { $0.chatSourceId == "simplex:1:group:7" }.map(\.sourceId)
        // Groups by item_ts; the chat banner is skipped.
        #expect(group == ["5127", "5120", "5121", "5122", "5123", "5124", "5125", "5128"])
        let direct = sink.items.filter { $0.chatSourceId == "simplex:1:direct:2" }.map(\.sourceId)
        #expect(direct == ["100", "101", "102"])
        #expect(Self.item(sink, "200")?.direction == .snd)
        #expect(Self.item(sink, "200")?.content.text == "remember milk")
    }

    @Test func mapsMessageFields() throws {
        let sink = try Self.importDatabase()
        let done = try #require(Self.item(sink, "5120"))
        #expect(done.timestamp == Timestamp.parse("2025-06-18T08:30:02.410Z"))
        #expect(done.direction == .rcv && done.memberSourceId == "AQIDBA==")
        #expect(done.content == MessageContent(type: .text, text: "*done*, see https://example.net @me"))
        #expect(done.markup == .simplex && done.isUnread && !done.isDeleted)
        #expect(done.mentions == ["me": MentionTarget(memberSourceId: "CgsM", isUserMention: true)])
        // The user's own reaction (`reaction_sent`) is told apart.
        #expect(done.reactions == [Reaction(emoji: "👍", count: 2), Reaction(emoji: "❤️", count: 1, isMine: true)])
        #expect(done.raw?.contains("\"shared_msg_id\":\"uw==\"") == true)

        let photo = try #require(Self.item(sink, "5121"))
        #expect(photo.direction == .snd && photo.memberSourceId == "CgsM" && photo.status == .sent)
        #expect(
            photo.content.type == .image
                && photo.file == FileRef(name: "photo.jpg", size: 12345, path: "simplex_v1_files/photo.jpg"))
        // A file encrypted on disk keeps its name only.
        #expect(Self.item(sink, "5124")?.file == FileRef(name: "voice_1.m4a", size: 2048))

        let reply = try #require(Self.item(sink, "101"))
        #expect(reply.quote == Quote(itemSourceId: "100", text: "hi *there*"))
        #expect(reply.isEdited && reply.status == .delivered && reply.memberSourceId == nil)
        #expect(Self.item(sink, "100")?.memberSourceId == "contact:2")

        #expect(Self.item(sink, "5122")?.isDeleted == true)
        #expect(Self.item(sink, "5122")?.content.text == "oops")
        #expect(Self.item(sink, "5124")?.content == MessageContent(type: .voice, text: "", duration: 42))
        #expect(
            Self.item(sink, "5127")?.content.preview
                == LinkPreview(uri: "https://x.org", title: "X", description: "An example"))
    }

    @Test func mapsEventsAndBadContent() throws {
        let sink = try Self.importDatabase()
        let added = try #require(Self.item(sink, "5123"))
        #expect(added.direction == .event && added.content == MessageContent(type: .event, text: "added carol"))
        #expect(added.memberSourceId == "AQIDBA==")
        #expect(Self.item(sink, "102")?.direction == .event)
        let garbled = try #require(Self.item(sink, "5125"))
        #expect(garbled.content == MessageContent(type: .unknown, text: "garbled"))
        #expect(sink.issues.map(\.location.record) == ["chat_items chat_item_id=5125", "chat_items chat_item_id=5128"])
        #expect(sink.issues.first?.location.file.hasSuffix("simplex-export.zip!simplex_v1_chat.db") == true)
        // An unreadable time keeps the item, at the previous item's time.
        #expect(Self.item(sink, "5128")?.timestamp == Self.item(sink, "5125")?.timestamp)
        #expect(sink.issues.last?.message.contains("unreadable time") == true)
    }

    @Test func readsAPlainDatabaseFileToo() throws {
        let path = try TestFiles.write(try SimplexTestDatabase.bytes(), named: "simplex_v1_chat.db")
        let sink = try readExport(path)
        #expect(sink.chats.count == 4)
        #expect(sink.items.count == 12)
    }

    @Test func privateTempFilesAreOwnerOnlyAndRemoved() throws {
        let t = try PrivateTempFile()
        try t.write([1, 2, 3])
        try t.close()
        let attributes = try FileManager.default.attributesOfItem(atPath: t.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        t.remove()
        #expect(!FileManager.default.fileExists(atPath: t.directory))
    }

    @Test func refusesDatabasesThatAreNotSimplex() throws {
        // A valid SQLite database without chat_items.
        let dir = try TestFiles.folder()
        let queue = try DatabaseQueue(path: dir + "/other.db")
        try queue.write { db in try db.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)") }
        try queue.close()
        var z = TestZip()
        z.add("simplex_v1_chat.db", bytes: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/other.db"))))
        let sink = CollectingSink()
        let error = #expect(throws: ImportError.self) {
            try readExport(try z.write(), into: sink)
        }
        #expect(error?.message.contains("not a SimpleX chat database") == true)
        #expect(error?.message.contains("!simplex_v1_chat.db") == true)

        // The SQLite header followed by garbage.
        var bad = TestZip()
        bad.add("simplex_v1_chat.db", bytes: Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0x41, count: 2000))
        #expect(throws: ImportError.self) {
            try readExport(try bad.write(), into: sink)
        }
        #expect(sink.items.isEmpty)
    }

    // MARK: - JSON

    static func corpus(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Corpus/simplex/\(name)").path
    }

    static func importJSON(_ name: String) throws -> CollectingSink {
        try readExport(corpus(name))
    }

    @Test func bothJSONEncodingsGiveTheSameRecords() throws {
        let android = try Self.importJSON("android-group.json")
        let ios = try Self.importJSON("ios-group.json")
        #expect(android.issues.isEmpty && ios.issues.isEmpty)
        #expect(android.chats == ios.chats)
        #expect(android.members == ios.members)
        func stripped(_ items: [Item]) -> [Item] {
            items.map {
                var i = $0
                i.raw = nil
                return i
            }
        }
        #expect(stripped(android.items) == stripped(ios.items))
        #expect(android.items.count == 5)
    }

    @Test func jsonMatchesTheDatabaseImport() throws {
        let json = try Self.importJSON("android-group.json")
        let db = try Self.importDatabase()
        #expect(json.chats.first?.sourceId == "simplex:1:group:7")
        let group = try #require(db.chats.first { $0.sourceId == "simplex:1:group:7" })
        #expect(json.chats.first?.displayName == group.displayName && json.chats.first?.fullName == group.fullName)
        #expect(json.chats.first?.notifications == .mentions && json.chats.first?.isFavorite == true)
        let a = try #require(Self.item(json, "5120"))
        let b = try #require(Self.item(db, "5120"))
        #expect(a.timestamp == b.timestamp && a.memberSourceId == b.memberSourceId && a.content == b.content)
        #expect(a.mentions == b.mentions && a.reactions == b.reactions && a.isUnread == b.isUnread)
    }

    @Test func decodesJSONItemFields() throws {
        let sink = try Self.importJSON("ios-group.json")
        let done = try #require(Self.item(sink, "5120"))
        #expect(
            done.markup
                == .formatted([
                    FormattedText("done", .bold), FormattedText(", see "), FormattedText("https://example.net", .uri),
                    FormattedText(" "), FormattedText("@me", .mention(memberName: "me")),
                ]))
        let photo = try #require(Self.item(sink, "5121"))
        #expect(photo.markup == .simplex && photo.isEdited && photo.status == .sent && photo.memberSourceId == "CgsM")
        #expect(photo.quote == Quote(itemSourceId: "5120", text: "*done*, see https://example.net @me"))
        #expect(photo.file == FileRef(name: "photo.jpg", size: 12345))
        #expect(Self.item(sink, "5122")?.isDeleted == true)
        #expect(Self.item(sink, "5123")?.direction == .event)
        #expect(Self.item(sink, "5123")?.content.text == "added carol")
        let link = try #require(Self.item(sink, "5124"))
        #expect(link.timestamp.milliseconds % 1000 == 500)
        #expect(link.content.preview?.title == "X")
        #expect(
            link.markup
                == .formatted([
                    FormattedText("red", .colored(.red)), FormattedText(" "),
                    FormattedText("[site](https://x.org)", .hyperLink(showText: "site", linkUri: "https://x.org")),
                    FormattedText(" ok", .unknown(.object([("type", .string("glow")), ("level", .number(2))]))),
                ]))
        #expect(sink.members.map(\.sourceId) == ["CgsM", "AQIDBA=="])
    }

    @Test(arguments: [
        ("tagged", #"{"type":"bold"}"#, Format.bold),
        ("single-key", #"{"italic":{}}"#, Format.italic),
        ("single-key owsf", #"{"strikeThrough":{},"_owsf":true}"#, Format.strikeThrough),
        ("command", #"{"type":"command","commandStr":"/help"}"#, Format.command("/help")),
        ("email", #"{"email":{}}"#, Format.email),
        (
            "simplexLink", #"{"type":"simplexLink","linkType":"contact","simplexUri":"simplex:/c","smpHosts":["h"]}"#,
            Format.simplexLink(showText: nil, linkType: .contact, simplexUri: "simplex:/c", smpHosts: ["h"])
        ),
        (
            "bad colour", #"{"type":"colored","color":"mauve"}"#,
            Format.unknown(.object([("type", .string("colored")), ("color", .string("mauve"))]))
        ),
    ])
    func decodesFormats(name: String, json: String, expected: Format) throws {
        #expect(SimplexJSON.format(try JSONParser.parse(Array(json.utf8))) == expected, "\(name)")
    }
}
