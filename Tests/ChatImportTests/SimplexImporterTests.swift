import ChatModel
import Foundation
import GRDB
import Testing

@testable import ChatImport

/// Builds a small plaintext SimpleX chat database with the columns the importer reads.
enum SimplexTestDatabase {
    static let schema = """
        CREATE TABLE users(user_id INTEGER PRIMARY KEY, contact_id INTEGER, local_display_name TEXT, created_at TEXT, view_pwd_hash BLOB);
        CREATE TABLE contact_profiles(contact_profile_id INTEGER PRIMARY KEY, display_name TEXT, full_name TEXT, local_alias TEXT, user_id INTEGER);
        CREATE TABLE contacts(contact_id INTEGER PRIMARY KEY, contact_profile_id INTEGER, user_id INTEGER, local_display_name TEXT,
          is_user INTEGER, favorite INTEGER, unread_chat INTEGER, enable_ntfs INTEGER);
        CREATE TABLE group_profiles(group_profile_id INTEGER PRIMARY KEY, display_name TEXT, full_name TEXT);
        CREATE TABLE groups(group_id INTEGER PRIMARY KEY, user_id INTEGER, group_profile_id INTEGER, local_display_name TEXT,
          favorite INTEGER, unread_chat INTEGER, enable_ntfs INTEGER, business_chat TEXT);
        CREATE TABLE group_members(group_member_id INTEGER PRIMARY KEY, group_id INTEGER, member_id BLOB, member_category TEXT,
          local_display_name TEXT, member_profile_id INTEGER, contact_profile_id INTEGER, user_id INTEGER);
        CREATE TABLE note_folders(note_folder_id INTEGER PRIMARY KEY, user_id INTEGER, favorite INTEGER, unread_chat INTEGER);
        CREATE TABLE chat_items(chat_item_id INTEGER PRIMARY KEY, user_id INTEGER, contact_id INTEGER, group_id INTEGER,
          note_folder_id INTEGER, group_member_id INTEGER, item_sent INTEGER, item_ts TEXT, created_at TEXT, item_content TEXT,
          item_text TEXT, item_edited INTEGER, item_deleted INTEGER, item_status TEXT, shared_msg_id BLOB,
          quoted_shared_msg_id BLOB, quoted_content TEXT, quoted_sent INTEGER);
        CREATE TABLE files(file_id INTEGER PRIMARY KEY, chat_item_id INTEGER, file_name TEXT, file_path TEXT, file_size INTEGER,
          file_crypto_key BLOB);
        CREATE TABLE chat_item_mentions(chat_item_mention_id INTEGER PRIMARY KEY, group_id INTEGER, member_id BLOB,
          chat_item_id INTEGER, display_name TEXT);
        CREATE TABLE chat_item_reactions(chat_item_reaction_id INTEGER PRIMARY KEY, item_member_id BLOB, shared_msg_id BLOB,
          contact_id INTEGER, group_id INTEGER, group_member_id INTEGER, reaction TEXT, reaction_sent INTEGER);
        CREATE TABLE chat_tags(chat_tag_id INTEGER PRIMARY KEY, user_id INTEGER, chat_tag_text TEXT, chat_tag_emoji TEXT, tag_order INTEGER);
        CREATE TABLE chat_tags_chats(contact_id INTEGER, group_id INTEGER, chat_tag_id INTEGER);
        """

    static let rows = """
        INSERT INTO users VALUES (1, 1, 'me', '2024-01-01 00:00:00', NULL), (2, 9, 'secret', '2024-01-02 00:00:00', x'01');
        INSERT INTO contact_profiles VALUES (1, 'me', '', '', 1), (2, 'alice', 'Alice Liddell', 'Al', 1), (3, 'bob', 'Bob Stone', '', 1),
          (9, 'hidden friend', '', '', 2);
        INSERT INTO contacts VALUES (1, 1, 1, 'me', 1, 0, 0, 1), (2, 2, 1, 'alice', 0, 1, NULL, 0), (9, 9, 2, 'hidden', 0, 0, 0, 1);
        INSERT INTO group_profiles VALUES (5, 'Climbers', 'Climbing crew');
        INSERT INTO group_profiles VALUES (6, 'Bike shop', '');
        INSERT INTO groups VALUES (7, 1, 5, 'Climbers', 1, 1, 2, NULL), (8, 1, 6, 'Bike shop', 0, 0, NULL, 'business');
        INSERT INTO group_members VALUES (11, 7, x'0A0B0C', 'user', 'me', 1, 1, 1), (12, 7, x'01020304', 'invitee', 'bob', NULL, 3, 1);
        INSERT INTO note_folders VALUES (1, 1, 0, 0);
        INSERT INTO chat_items (chat_item_id, user_id, contact_id, item_sent, item_ts, created_at, item_content, item_text,
            item_status, shared_msg_id) VALUES
          (100, 1, 2, 0, '2025-06-18 08:00:00', '2025-06-18 08:00:01',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"hi *there*"}}}', 'hi *there*', 'rcv_read', x'AA');
        INSERT INTO chat_items (chat_item_id, user_id, contact_id, item_sent, item_ts, created_at, item_content, item_text,
            item_status, item_edited, quoted_shared_msg_id, quoted_content, quoted_sent) VALUES
          (101, 1, 2, 1, '2025-06-18 08:01:00', '2025-06-18 08:01:00',
           '{"sndMsgContent":{"msgContent":{"type":"text","text":"hello"}}}', 'hello', 'snd_rcvd ok complete', 1, x'AA',
           '{"type":"text","text":"hi *there*"}', 0);
        INSERT INTO chat_items (chat_item_id, user_id, contact_id, item_sent, item_ts, created_at, item_content, item_text) VALUES
          (102, 1, 2, 0, '2025-06-18 08:02:00', '2025-06-18 08:02:00',
           '{"rcvDirectEvent":{"rcvDirectEvent":{"type":"contactDeleted"}}}', 'contact deleted'),
          (900, 2, 9, 0, '2025-06-18 08:02:00', '2025-06-18 08:02:00',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"hidden"}}}', 'hidden');
        INSERT INTO chat_items (chat_item_id, user_id, group_id, group_member_id, item_sent, item_ts, created_at, item_content,
            item_text, item_status, shared_msg_id, item_deleted) VALUES
          (5120, 1, 7, 12, 0, '2025-06-18 08:30:02.41', '2025-06-18 08:30:03',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"*done*, see https://example.net @me"}}}',
           '*done*, see https://example.net @me', 'rcv_new', x'BB', 0),
          (5121, 1, 7, NULL, 1, '2025-06-18 08:31:00', '2025-06-18 08:31:00',
           '{"sndMsgContent":{"msgContent":{"type":"image","text":"summit!","image":"data:image/jpg;base64,AA=="}}}',
           'summit!', 'snd_sent complete', x'CC', 0),
          (5122, 1, 7, 12, 0, '2025-06-18 08:32:00', '2025-06-18 08:32:00',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"oops"}}}', 'oops', 'rcv_read', x'DD', 1),
          (5123, 1, 7, 12, 0, '2025-06-18 08:34:00', '2025-06-18 08:34:00',
           '{"rcvGroupEvent":{"rcvGroupEvent":{"type":"memberAdded","groupMemberId":13,"profile":{}}}}', 'added carol',
           'rcv_read', NULL, 0),
          (5124, 1, 7, 12, 0, '2025-06-18 08:35:00', '2025-06-18 08:35:00',
           '{"rcvMsgContent":{"msgContent":{"type":"voice","text":"","duration":42}}}', 'voice message', 'rcv_read', NULL, 0),
          (5125, 1, 7, 12, 0, '2025-06-18 08:36:00', '2025-06-18 08:36:00', 'not json', 'garbled', 'rcv_read', NULL, 0),
          (5128, 1, 7, 12, 0, 'yesterday', 'yesterday',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"when?"}}}', 'when?', 'rcv_read', NULL, 0),
          (5126, 1, 7, NULL, 0, '2025-06-18 08:20:00', '2025-06-18 08:20:00', '{"chatBanner":{}}', '', 'rcv_read', NULL, 0),
          (5127, 1, 7, 12, 0, '2025-06-18 08:29:00', '2025-06-18 08:29:00',
           '{"rcvMsgContent":{"msgContent":{"type":"link","text":"look https://x.org","preview":{"uri":"https://x.org","title":"X","description":"An example","image":"data:,"}}}}',
           'look https://x.org', 'rcv_read', NULL, 0);
        INSERT INTO chat_items (chat_item_id, user_id, note_folder_id, item_sent, item_ts, created_at, item_content, item_text) VALUES
          (200, 1, 1, 1, '2025-06-19 10:00:00', '2025-06-19 10:00:00',
           '{"sndMsgContent":{"msgContent":{"type":"text","text":"remember milk"}}}', 'remember milk');
        INSERT INTO files VALUES (3, 5121, 'photo.jpg', 'photo.jpg', 12345, NULL),
          (4, 5124, 'voice_1.m4a', 'voice_1.m4a', 2048, x'00112233');
        INSERT INTO chat_item_mentions VALUES (1, 7, x'0A0B0C', 5120, 'me');
        INSERT INTO chat_item_reactions VALUES
          (1, x'01020304', x'BB', NULL, 7, 12, '{"type":"emoji","emoji":"👍"}', 0),
          (2, x'01020304', x'BB', NULL, 7, NULL, '{"type":"emoji","emoji":"❤️"}', 1),
          (3, x'01020304', x'BB', NULL, 7, 13, '{"type":"emoji","emoji":"👍"}', 0);
        INSERT INTO chat_tags VALUES (1, 1, 'friends', NULL, 1);
        INSERT INTO chat_tags_chats VALUES (NULL, 7, 1);
        """

    /// The database's bytes.
    static func bytes() throws -> [UInt8] {
        let dir = try TestFiles.folder()
        let path = dir + "/simplex_v1_chat.db"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: schema)
            try db.execute(sql: rows)
        }
        try queue.close()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// An "Export database" zip holding the test database and an agent database that must not be read.
    static func zip() throws -> String {
        var z = TestZip()
        z.add("simplex_v1_agent.db", "keys: never read")
        z.add("simplex_v1_chat.db", bytes: try bytes())
        z.add("simplex_v1_files/photo.jpg", bytes: [0xFF, 0xD8, 0xFF])
        return try z.write(named: "simplex-export.zip")
    }
}

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
