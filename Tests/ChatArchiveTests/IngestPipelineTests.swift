import ChatModel
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatArchive
@testable import ChatImport

/// One sample export of every format, as `chat-archive ingest` is given them.
enum FormatSamples {
    static func path(_ format: String) throws -> String {
        switch format {
        case "jsonl": return TestArchive.corpusPath + "/sample/chats-1.jsonl"
        case "telegram": return TestArchive.corpusPath + "/telegram/single-chat"
        case "whatsapp": return TestArchive.corpusPath + "/whatsapp/android-en-GB"
        case "simplex-json": return TestArchive.corpusPath + "/simplex/android-group.json"
        case "simplex-db": return try SimplexTestDatabase.zip()
        case "discord": return TestArchive.corpusPath + "/discord/guild"
        case "slack": return TestArchive.corpusPath + "/slack"
        case "matrix": return TestArchive.corpusPath + "/matrix/with-attachments"
        case "signal": return TestArchive.corpusPath + "/signal/desktop"
        case "meta": return TestArchive.corpusPath + "/meta/facebook-2024"
        case "imessage": return TestArchive.corpusPath + "/imessage/Messages"
        default: throw ImportError("no sample for \(format)")
        }
    }

    static let all = [
        "jsonl", "telegram", "whatsapp", "simplex-json", "simplex-db", "discord", "slack", "matrix", "signal", "meta",
        "imessage",
    ]

    /// What the importer alone reads, stopping at the first problem as `--strict` does.
    static func strictRead(_ path: String) throws -> (items: Int, issue: ImportIssue?) {
        let sink = CollectingSink()
        sink.isStrict = true
        let detection = try FormatDetector.detect(path: path)
        do {
            try detection.read(into: sink, options: ImportOptions())
        } catch let issue as ImportIssue {
            return (sink.items.count, issue)
        }
        return (sink.items.count, nil)
    }
}

/// Every format through the whole pipeline (detection, importer, archive writer).
@Suite struct IngestPipelineTests {
    func itemCount(_ archive: Archive) throws -> Int {
        try archive.database.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") ?? 0 }
    }

    @Test(arguments: FormatSamples.all)
    func reimportAddsAndUpdatesNothing(format: String) throws {
        let path = try FormatSamples.path(format)
        let archive = try Archive(path: TestArchive.temporaryPath())
        let first = try IngestPipeline.run([path], options: IngestOptions(), database: archive.database)
        #expect(first.itemsAdded > 0, "\(format)")
        #expect(first.itemsUpdated == 0, "\(format)")
        let second = try IngestPipeline.run([path], options: IngestOptions(), database: archive.database)
        #expect(second.itemsAdded == 0, "\(format)")
        #expect(second.itemsUpdated == 0, "\(format)")
        #expect(second.itemsUnchanged == first.itemsAdded, "\(format)")
        #expect(second.errors == first.errors, "\(format)")
        #expect(try itemCount(archive) == first.itemsAdded, "\(format)")
        // Archive's own entry point agrees on what it stores.
        let third = try archive.ingestSync([path])
        #expect(
            third.itemsAdded == 0 && third.itemsUpdated == 0 && third.itemsUnchanged == first.itemsAdded, "\(format)")
    }

    @Test(arguments: FormatSamples.all)
    func strictStopsAtTheFirstProblemAndKeepsWhatCameBefore(format: String) throws {
        let path = try FormatSamples.path(format)
        let expected = try FormatSamples.strictRead(path)
        let archive = try Archive(path: TestArchive.temporaryPath())
        let report = try IngestPipeline.run([path], options: IngestOptions(strict: true), database: archive.database)
        let stored = try itemCount(archive)
        if let issue = expected.issue {
            #expect(report.stoppedEarly, "\(format)")
            #expect(report.errors == [issue], "\(format)")
            #expect(stored == expected.items, "\(format): \(stored) stored, \(expected.items) read before \(issue)")
            // Not strict: the same file reads on past the problem.
            let lenient = try IngestPipeline.run([path], options: IngestOptions(), database: archive.database)
            #expect(lenient.itemsAdded > 0 || lenient.errors.count > 1, "\(format)")
            #expect(lenient.itemsUnchanged == stored, "\(format)")
        } else {
            #expect(!report.stoppedEarly && report.errors.isEmpty, "\(format)")
            #expect(stored == expected.items && stored > 0, "\(format)")
        }
    }

    @Test func strictStopsTelegramAtTheRepeatedMessageKeepingTheEleventhBefore() throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let report = try IngestPipeline.run(
            [TestArchive.corpusPath + "/telegram/single-chat"], options: IngestOptions(strict: true),
            database: archive.database)
        #expect(report.stoppedEarly)
        #expect(report.errors.map(\.severity) == [.warning])
        #expect(report.errors.first?.message.contains("311 appears again") == true)
        let ids = try archive.database.writer.read {
            try String.fetchAll($0, sql: "SELECT sourceId FROM item ORDER BY ts, sourceId")
        }
        #expect(ids == ["311", "312", "313", "314", "315", "316", "317", "318", "319", "320", "321", "322"])
    }

    @Test func whatsAppIdsDoNotDependOnTheZone() throws {
        let path = TestArchive.corpusPath + "/whatsapp/android-de-DE"
        let archive = try Archive(path: TestArchive.temporaryPath())
        let utc = try IngestPipeline.run([path], options: IngestOptions(), database: archive.database)
        let berlin = try IngestPipeline.run(
            [path], options: IngestOptions(importOptions: ImportOptions(timeZoneIdentifier: "Europe/Berlin")),
            database: archive.database)
        #expect(utc.itemsAdded == 10)
        #expect(berlin.itemsAdded == 0)
        #expect(berlin.itemsUpdated == 10)  // same items, moved to Berlin time
    }

    @Test func whatsAppFromAnIOSZipMatchesTheFolder() throws {
        let folder = TestArchive.corpusPath + "/whatsapp/ios-en-US/WhatsApp Chat - Allotment"
        var zip = TestZip()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            zip.add(name, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
        }
        let zipPath = try zip.write(named: "WhatsApp Chat - Allotment.zip")
        let archive = try Archive(path: TestArchive.temporaryPath())
        let fromZip = try IngestPipeline.run([zipPath], options: IngestOptions(), database: archive.database)
        #expect(fromZip.itemsAdded == 15)
        #expect(fromZip.errors.isEmpty)
        // The folder gives the same chat key (from the zip's or folder's name) and ids.
        let fromFolder = try IngestPipeline.run([folder], options: IngestOptions(), database: archive.database)
        #expect(fromFolder.itemsAdded == 0 && fromFolder.itemsUnchanged == 15)
    }

    @Test func whatsAppOptionsChatKeyAndDateOrder() throws {
        let path = try TestArchive.writeFile(
            "03/07/2024, 10:00 - Ana: x\n03/07/2024, 10:05 - Ben: y\n", name: "WhatsApp Chat with Ana.txt")
        let archive = try Archive(path: TestArchive.temporaryPath())
        let guessed = try IngestPipeline.run([path], options: IngestOptions(), database: archive.database)
        #expect(guessed.warnings == 1 && guessed.itemsSkipped == 0 && guessed.itemsAdded == 2)
        let options = IngestOptions(importOptions: ImportOptions(dateOrder: .monthDayYear, chatKey: "Allotment 2024"))
        let given = try IngestPipeline.run([path], options: options, database: archive.database)
        #expect(given.errors.isEmpty && given.itemsAdded == 2)
        let rows = try archive.database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT c.sourceId AS chat, i.ts FROM item i JOIN chat c ON c.id = i.chatId ORDER BY i.ts")
        }
        let chats = rows.map { $0["chat"] as String }
        #expect(chats.filter { $0 == "whatsapp:Allotment 2024" }.count == 2)
        #expect(chats.filter { $0 == "whatsapp:Ana" }.count == 2)
        let march = try #require(Timestamp.parse("2024-03-07T10:00:00Z"))
        #expect(rows.map { $0["ts"] as Int64 }.contains(march.milliseconds))
    }
}

/// The ingest report counts each problem by what it did (the BadInput article of ChatImport's documentation).
@Suite struct IngestReportCountTests {
    func run(_ path: String) throws -> IngestReport {
        let archive = try Archive(path: TestArchive.temporaryPath())
        return try IngestPipeline.run([path], options: IngestOptions(), database: archive.database)
    }

    @Test func warningsAreNotSkippedItems() throws {
        // 311 repeated (kept the first: warning); 323 has a numeric text and one message has no id (skipped).
        let r = try run(TestArchive.corpusPath + "/telegram/single-chat")
        #expect(r.errors.count == 3)
        #expect(r.warnings == 1)
        #expect(r.itemsSkipped == 2)
        #expect(r.filesStopped == 0)
        #expect(r.itemsAdded == 14)
        let kept = try run(TestArchive.corpusPath + "/telegram/more-types")
        #expect(kept.warnings == 2 && kept.itemsSkipped == 0 && kept.itemsAdded == 16)
    }

    @Test func badJSONLinesCountTheSkippedLinesOnly() throws {
        // bad.jsonl: 11 bad lines, of which line 9 (invalid UTF-8) keeps its item.
        let r = try run(TestArchive.corpusPath + "/sample-bad/bad.jsonl")
        #expect(r.itemsAdded == 4)
        #expect(r.errors.count == 10)
        #expect(r.warnings == 1)
        #expect(r.itemsSkipped == 9)
        #expect(r.errors.first { $0.location.line == 9 }?.severity == .warning)
    }

    @Test func aTruncatedFileIsAStoppedFileNotASkippedItem() throws {
        let text = try String(
            contentsOfFile: TestArchive.corpusPath + "/discord/dm/Direct Messages - vee_k [771230000000000042].json",
            encoding: .utf8)
        // Cut inside the last message, after the one whose content is not a string.
        let cut = try #require(text.range(of: "\"id\": \"1206406600000000000\""))
        let path = try TestArchive.writeFile(String(text[..<cut.lowerBound]), name: "dm.json")
        let r = try run(path)
        #expect(r.filesStopped == 1)
        #expect(r.itemsSkipped == 1)  // the message whose content is not a string, before the cut
        #expect(r.errors.last?.severity == .fatal)
        #expect(r.itemsAdded > 0)
    }

    @Test func aChatWithoutAnIdSkipsAllItsMessages() throws {
        let json =
            #"{"about":"","personal_information":{"user_id":1},"chats":{"list":[{"name":"x","type":"private_group","messages":[{"id":1,"type":"message","date_unixtime":"1","text":"a"},{"id":2,"type":"message","date_unixtime":"2","text":"b"}]}]}}"#
        let r = try run(try TestArchive.writeFile(json, name: "result.json"))
        #expect(r.itemsSkipped == 2)
        #expect(r.errors.map(\.count) == [2])
    }

    @Test func severityAndCountDefaults() {
        let at = SourceLocation(file: "f")
        #expect(ImportIssue(at, "m").severity == .skipped && ImportIssue(at, "m").count == 1)
        #expect(ImportIssue.warning(at, "m").count == 0 && ImportIssue.fatal(at, "m").count == 0)
        #expect(ImportIssue.skipped(at, "m", count: 5).count == 5)
    }
}
