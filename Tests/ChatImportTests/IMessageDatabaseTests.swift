import ChatArchive
import ChatModel
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatImport

private let messagesFolder = corpusRoot + "/imessage/Messages"

/// An iMessage database of an older macOS: dates in seconds, no `attributedBody`,
/// `date_edited`, `date_retracted`, `thread_originator_guid` or `associated_message_*`, and no
/// attachment tables.
private let olderSchema = """
    CREATE TABLE handle (ROWID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, id TEXT NOT NULL, country TEXT, service TEXT NOT NULL, uncanonicalized_id TEXT);
    CREATE TABLE chat (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, style INTEGER, state INTEGER, chat_identifier TEXT, service_name TEXT, display_name TEXT);
    CREATE TABLE message (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, text TEXT, handle_id INTEGER DEFAULT 0, service TEXT, date INTEGER, date_read INTEGER, is_from_me INTEGER DEFAULT 0, is_read INTEGER DEFAULT 0, item_type INTEGER DEFAULT 0, other_handle INTEGER DEFAULT 0, group_title TEXT, group_action_type INTEGER DEFAULT 0);
    CREATE TABLE chat_handle_join (chat_id INTEGER, handle_id INTEGER);
    CREATE TABLE chat_message_join (chat_id INTEGER, message_id INTEGER, PRIMARY KEY (chat_id, message_id));
    INSERT INTO handle VALUES (1, '+33612345678', 'fr', 'SMS', NULL), (2, 'ana@example.com', 'es', 'iMessage', NULL);
    INSERT INTO chat VALUES (1, 'SMS;-;+33612345678', 45, 3, '+33612345678', 'SMS', NULL),
      (2, 'iMessage;+;chat42', 43, 3, 'chat42', 'iMessage', 'Famille 👨‍👩‍👧');
    INSERT INTO chat_handle_join VALUES (1, 1), (2, 1), (2, 2);
    INSERT INTO message VALUES
      (1, 'OLD-1', 'Ça va ? À demain', 1, 'SMS', 500000000, 500000100, 0, 1, 0, 0, NULL, 0),
      (2, 'OLD-2', 'Oui 😊', 0, 'SMS', 500000060, 0, 1, 0, 0, 0, NULL, 0),
      (3, 'OLD-3', NULL, 2, 'iMessage', 500000120, 0, 0, 0, 2, 0, 'Familia', 0),
      (4, 'OLD-4', '¿Cenamos el domingo? 🍲', 2, 'iMessage', 500000180, 0, 0, 0, 0, 0, NULL, 0),
      (5, 'OLD-5', 'no time', 2, 'iMessage', 0, 0, 0, 1, 0, 0, NULL, 0);
    INSERT INTO chat_message_join VALUES (1, 1), (1, 2), (2, 3), (2, 4), (2, 5);
    """

@Suite struct IMessageSchemaDriftTests {
    @Test func anOlderDatabaseReadsWithTheColumnsItHas() throws {
        let path = TestTemporary.folder("imessage-old") + "/chat.db"
        try IMessageFixture.execute(olderSchema, at: path)
        let sink = try IMessageFixture.read(path)
        #expect(sink.chats.map(\.displayName) == ["+33612345678", "Famille 👨‍👩‍👧"])
        #expect(sink.items.map(\.sourceId) == ["OLD-1", "OLD-2", "OLD-3", "OLD-4", "OLD-5"])
        let first = try #require(sink.items.first)
        #expect(first.timestamp.rfc3339 == "2016-11-05T00:53:20Z")
        #expect(first.content.text == "Ça va ? À demain" && !first.isUnread)
        #expect(sink.items[1].direction == .snd && sink.items[1].status == nil)
        #expect(sink.items[2].content.text == "ana@example.com renamed the group to “Familia”")
        #expect(sink.items[3].isUnread && sink.items[3].reactions.isEmpty && sink.items[3].quote == nil)
        // A date of 0 keeps the previous message's time, flagged, with a warning.
        #expect(sink.items[4].isTimeUnknown && sink.items[4].timestamp == sink.items[3].timestamp)
        #expect(sink.issues.map(\.severity) == [.warning])
        #expect(sink.issues.first?.record == "message ROWID=5")
    }
}

@Suite struct IMessageDetectionTests {
    @Test func recognisesTheDatabaseAloneInItsFolderAndBesideOtherExports() throws {
        #expect(try FormatDetector.detect(path: messagesFolder + "/chat.db").format == "imessage")
        let detection = try FormatDetector.detect(path: messagesFolder)
        #expect(detection.format == "imessage" && detection.entries == ["chat.db"])
        // A folder of exports side by side: the database is found among them.
        let folder = TestTemporary.folder("imessage-beside")
        try FileManager.default.copyItem(atPath: messagesFolder, toPath: folder + "/Messages")
        try FileManager.default.copyItem(atPath: corpusRoot + "/telegram/single-chat", toPath: folder + "/telegram")
        try FileManager.default.copyItem(atPath: messagesFolder + "/chat.db", toPath: folder + "/sms.db")
        let found = try ExportFinder.find(path: folder).exports.map { $0.detection.format }
        #expect(found.sorted() == ["imessage", "imessage", "telegram"])
    }

    @Test func aZipOfTheFolderReadsLikeTheFolder() throws {
        var zip = TestZip()
        let container = try FolderContainer(path: messagesFolder)
        for name in container.entryNames { zip.add("Messages/" + name, bytes: try container.readAll(name)) }
        let path = try zip.write(named: "Messages.zip")
        let zipped = try IMessageFixture.read(path)
        let folder = try IMessageFixture.read(messagesFolder)
        #expect(zipped.items.map(\.sourceId) == folder.items.map(\.sourceId))
        #expect(zipped.items.map(\.content) == folder.items.map(\.content))
        #expect(
            zipped.items.compactMap(\.file?.path) == [
                "Messages/Attachments/ab/12/B1E4C0DE-0001-4000-8000-00000000A001/IMG_0001.HEIC"
            ])
    }

    @Test func otherSQLiteFilesAndOtherExportsAreNotClaimed() throws {
        let folder = TestTemporary.folder("imessage-other")
        try IMessageFixture.execute(
            "CREATE TABLE message (id INTEGER); CREATE TABLE chat (id INTEGER); CREATE TABLE notes (t TEXT);",
            at: folder + "/notes.sqlite")
        #expect(try IMessageImporter.recognise(FolderContainer(path: folder)).isEmpty)
        #expect((try? FormatDetector.detect(path: folder + "/notes.sqlite"))?.format != "imessage")
        for other in [
            "sample/chats-1.jsonl", "telegram/single-chat", "signal/desktop", "slack", "whatsapp/android-en-GB",
        ] {
            #expect(
                try IMessageImporter.recognise(FormatDetector.openContainer(path: corpusRoot + "/" + other)).isEmpty,
                "\(other)")
        }
        // The table definitions are found in the bytes too (a database inside a zip).
        let bytes = try FolderContainer(path: messagesFolder).prefix(of: "chat.db", limit: 4 << 20)
        #expect(IMessageImporter.definesTables(bytes), "the schema of the fixture")
        #expect(!IMessageImporter.definesTables(Array("CREATE TABLE message (x)".utf8)))
    }

    @Test func anEncryptedOrNonSQLiteFileIsRefusedWithAClearMessage() throws {
        let folder = TestTemporary.folder("imessage-encrypted")
        try Data([0x8A, 0x33, 0xF0, 0x12, 0x99, 0x41, 0x7F, 0xC3, 0x02, 0x10, 0x55, 0xAA, 0x01, 0x02, 0x03, 0x04, 0x05])
            .write(to: URL(fileURLWithPath: folder + "/sms.db"))
        #expect {
            try IMessageImporter().read(
                FolderContainer(path: folder), entries: ["sms.db"], into: CollectingSink(), options: ImportOptions())
        } throws: { error in
            "\(error)".contains("not a SQLite database") && "\(error)".contains("unencrypted backup")
        }
        #expect {
            try IMessageFixture.execute("CREATE TABLE message (id INTEGER);", at: folder + "/half.db")
            try IMessageImporter().read(
                FolderContainer(path: folder), entries: ["half.db"], into: CollectingSink(), options: ImportOptions())
        } throws: { error in
            "\(error)".contains("not an iMessage database (it has no chat table)")
        }
        #expect(FormatDetector.formatNames.contains("imessage"))
    }

    @Test func tablesAreReadThroughAnImmutableConnectionWhateverThePath() throws {
        let folder = TestTemporary.folder("imessage path with spaces – ünï %20 #?")
        try FileManager.default.copyItem(atPath: messagesFolder + "/chat.db", toPath: folder + "/renamed.sqlite")
        let tables = try #require(IMessageImporter.tables(atPath: folder + "/renamed.sqlite"))
        #expect(IMessageImporter.identifyingTables.isSubset(of: tables))
        #expect(try FormatDetector.detect(path: folder).format == "imessage")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["renamed.sqlite"])
    }

    @Test func readingLeavesTheUsersFilesAlone() throws {
        let folder = try IMessageFixture.copy()
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/chat.db"))
        _ = try IMessageFixture.read(folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/chat.db")) == bytes)
    }
}

@Suite struct IMessageReimportTests {
    @Test func messagesStillInTheWriteAheadLogAreRead() throws {
        let source = try IMessageFixture.copy()
        let pool = try DatabasePool(path: source + "/chat.db")
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO message (ROWID, guid, text, handle_id, date, is_from_me, is_read)
                      VALUES (100, 'WAL-ONLY', 'Still in the log 📝', 1, 736252400000000000, 0, 1);
                    INSERT INTO chat_message_join (chat_id, message_id) VALUES (1, 100);
                    """)
        }
        // Copied while the log is not checkpointed, as a copy of ~/Library/Messages is.
        let copy = TestTemporary.folder("imessage-wal")
        for name in ["chat.db", "chat.db-wal", "chat.db-shm"] {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: copy + "/" + name)
        }
        try pool.close()
        let walBytes = try Data(contentsOf: URL(fileURLWithPath: copy + "/chat.db-wal"))
        #expect(!walBytes.isEmpty)
        let detection = try FormatDetector.detect(path: copy)
        #expect(detection.entries == ["chat.db", "chat.db-shm", "chat.db-wal"])
        let sink = CollectingSink()
        try detection.read(into: sink, options: ImportOptions())
        #expect(sink.items.contains { $0.sourceId == "WAL-ONLY" && $0.content.text == "Still in the log 📝" })
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy + "/chat.db-wal")) == walBytes)
    }

    @Test func ingestTwiceAddsNothingAndALaterCopyUpdates() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let first = try archive.ingestSync([messagesFolder])
        #expect(first.chats == 6 && first.itemsAdded == 22 && first.errors.isEmpty)
        let again = try archive.ingestSync([messagesFolder])
        #expect(again.itemsAdded == 0 && again.itemsUpdated == 0 && again.itemsUnchanged == 22)

        let later = try IMessageFixture.copy()
        try IMessageFixture.execute(
            """
            UPDATE message SET attributedBody = NULL, text = 'Bring the red rope', date_edited = 736251000000000000 WHERE ROWID = 6;
            UPDATE message SET text = NULL, date_edited = 736251000000000000, date_retracted = 736251000000000000 WHERE ROWID = 11;
            DELETE FROM message_attachment_join WHERE message_id = 11;
            UPDATE message SET is_read = 1, date_read = 736251000000000000 WHERE ROWID = 22;
            INSERT INTO message (ROWID, guid, text, handle_id, date, is_from_me, is_read, associated_message_guid, associated_message_type)
              VALUES (40, 'LATER-TAPBACK', 'Emphasized “Are we…”', 0, 736251000000000000, 1, 0, 'p:0/C0FFEE00-0000-4000-8000-000000000001', 2004);
            INSERT INTO message (ROWID, guid, text, handle_id, date, is_from_me, is_read)
              VALUES (41, 'LATER-NEW', 'สวัสดีครับ new one', 1, 736251060000000000, 0, 0);
            INSERT INTO chat_message_join (chat_id, message_id) VALUES (1, 40), (1, 41);
            """, at: later + "/chat.db")
        let update = try archive.ingestSync([later])
        #expect(update.itemsAdded == 1)
        #expect(update.itemsUpdated == 4)  // edited again, unsent, read, a new tapback
        #expect(update.itemsUnchanged == 18)

        let red = try await archive.search("red rope")
        #expect(red.hits.map(\.item.sourceId) == [IMessageFixture.guid(6)])
        #expect(red.hits.first?.item.isEdited == true)
        let thai = try await archive.search("สวัสดี")
        #expect(thai.hits.map(\.item.sourceId) == ["LATER-NEW"])
        let hebrew = try await archive.search("לכולם")
        #expect(hebrew.hits.count == 1)
        let chinese = try await archive.search("上海")
        #expect(chinese.hits.first?.item.sender == "+8613800138000")
        let topo = try await archive.search("topo")
        #expect(topo.hits.isEmpty)  // unsent: hidden from default searches
    }

    @Test func aHostileAttributedBodyIsReportedNotCrashed() throws {
        let folder = try IMessageFixture.copy()
        let truncated = Array(IMessageFixture.typedStream("Yes! 9:00 at the crag ☕").prefix(80))
        let queue = try DatabaseQueue(path: folder + "/chat.db")
        try queue.write { db in
            try db.execute(sql: "UPDATE message SET attributedBody = ? WHERE ROWID = 2", arguments: [Data(truncated)])
            try db.execute(sql: "UPDATE message SET date = 99999999999999999999.0 WHERE ROWID = 1")
        }
        try queue.close()
        let sink = try IMessageFixture.read(folder)
        #expect(sink.items.count == 22)
        let two = try #require(sink.items.first { $0.sourceId == IMessageFixture.guid(2) })
        #expect(two.content.text.isEmpty && !two.isDeleted)
        #expect(sink.issues.map(\.severity) == [.warning, .warning])
        #expect(sink.issues.contains { $0.message.contains("attributedBody could not be decoded") })
        #expect(sink.issues.contains { $0.message.contains("implausible date") })
    }

    @Test func theCommandLineFormatOptionReadsIt() throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let report = try archive.ingestSync([messagesFolder], options: IngestOptions(format: "imessage"))
        #expect(report.itemsAdded == 22)
    }
}
