import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// `chat-archive ingest Corpus`: a folder of exports side by side is split into them, each read
/// as its own format, and the report says what each was read as and what was left out.
@Suite struct IngestFolderOfExportsTests {
    static let corpus = TestArchive.corpusPath
    static let parts = [
        "discord", "hostile", "imessage", "matrix", "meta/facebook-2023", "meta/facebook-2024",
        "meta/facebook-2024-later",
        "meta/instagram-2022",
        "meta/instagram-2024", "meta/trimmed", "sample", "sample-bad", "signal", "simplex", "slack", "telegram",
        "whatsapp",
    ]
    static let formats = [
        "discord", "jsonl", "imessage", "matrix", "meta", "meta", "meta", "meta", "meta", "meta", "jsonl", "jsonl",
        "signal",
        "simplex",
        "slack",
        "telegram",
        "whatsapp",
    ]
    /// What the Corpus holds beside its exports: refused exports (HTML, old and encrypted
    /// downloads) and files that are not exports, each skipped with its reason.
    static let skippedOutside = [
        "meta/README.md", "meta/e2ee-secure-storage",
        "meta/html/your_facebook_activity/messages/inbox/lenaortiz_10158832",
        "meta/instagram-old", "meta/make_fixtures.py",
    ]

    func items(_ archive: Archive) throws -> [String] {
        try archive.database.writer.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT chat.sourceId || ' ' || item.sourceId FROM item JOIN chat ON chat.id = item.chatId ORDER BY 1"
            )
        }
    }

    @Test func everyExportOfTheCorpusIsIngestedAsWhenGivenAlone() throws {
        let whole = try Archive(path: TestArchive.temporaryPath())
        let report = try whole.ingestSync([Self.corpus])
        #expect(report.exports.map { String($0.path.dropFirst(Self.corpus.count + 1)) } == Self.parts)
        #expect(report.exports.map(\.format) == Self.formats)
        #expect(report.exports.allSatisfy { $0.itemsRead > 0 && $0.filesRead > 0 })
        #expect(report.skippedFiles.map { String($0.path.dropFirst(Self.corpus.count + 1)) } == Self.skippedOutside)
        #expect(report.skippedFiles.allSatisfy { !$0.reason.isEmpty })
        let readmes = report.exports.flatMap(\.skipped).filter { $0.path.hasSuffix("README.md") }
        // The README beside each format's fixtures is skipped as a file no format reads.
        #expect(readmes.count == 11)
        // Bad lines of sample-bad are reported with their line numbers, not fatal to the rest.
        #expect(report.errors.contains { $0.location.file.hasSuffix("sample-bad/bad.jsonl") && $0.location.line == 4 })
        #expect(!report.stoppedEarly && !report.interrupted)

        let separate = try Archive(path: TestArchive.temporaryPath())
        for part in Self.parts { _ = try separate.ingestSync([Self.corpus + "/" + part]) }
        #expect(try items(whole) == items(separate))
        #expect(try items(whole).count == report.itemsAdded)
        #expect(
            try whole.database.writer.read { db in
                try String.fetchAll(db, sql: "SELECT DISTINCT format FROM ingestSource ORDER BY format")
            } == [
                "discord", "imessage", "jsonl", "matrix", "meta", "signal", "simplex", "slack", "telegram", "whatsapp",
            ])
    }

    @Test func theCommandLineSaysPerExportWhatItWasReadAsAndWhatWasSkipped() throws {
        let cli = ChildProcess.chatArchiveBinary
        let archive = TestArchive.temporaryPath()
        let human = try ChildProcess.run(cli, ["ingest", "--archive", archive, Self.corpus])
        #expect(human.status == 0, "\(human.err)")
        #expect(human.out.contains("read \(Self.corpus)/slack as slack: "))
        #expect(human.out.contains("read \(Self.corpus)/sample-bad as jsonl: 1 file, "))
        // Files that are plainly not exports are counted, not listed; what a user must act on is.
        #expect(!human.out.contains("README.md"))
        #expect(human.out.contains("\n26 files skipped: not chat exports; --verbose lists them\n"))
        #expect(human.out.contains("skipped \(Self.corpus)/meta/instagram-old: "))
        #expect(human.out.contains("skipped \(Self.corpus)/meta/e2ee-secure-storage: "))
        #expect(human.out.contains("lenaortiz_10158832/message_1.html is an HTML export"))
        let verbose = try ChildProcess.run(
            cli, ["ingest", "--verbose", "--archive", TestArchive.temporaryPath(), Self.corpus])
        #expect(verbose.status == 0, "\(verbose.err)")
        #expect(verbose.out.contains("  skipped \(Self.corpus)/sample/README.md: "))
        #expect(!verbose.out.contains("--verbose lists them"))

        let json = try ChildProcess.run(
            cli, ["ingest", "--archive", TestArchive.temporaryPath(), "--json", Self.corpus])
        #expect(json.status == 0, "\(json.err)")
        let report = try JSONParser.parse(Array(json.out.utf8))
        // The JSON Lines format's fields (JSONLinesFormat) stay; the new ones come beside them.
        for field in ["chats", "itemsAdded", "itemsUpdated", "itemsUnchanged", "itemsSkipped", "errors"] {
            #expect(report[field] != nil, "\(field)")
        }
        let exports = report["exports"]?.arrayValue ?? []
        #expect(exports.compactMap { $0["format"]?.stringValue } == Self.formats)
        let sample = exports.first { $0["path"]?.stringValue == Self.corpus + "/sample" }
        #expect(sample?["filesRead"]?.numberValue == 3)
        #expect(sample?["skipped"]?.arrayValue?.first?["file"]?.stringValue == Self.corpus + "/sample/README.md")
        #expect(sample?["skipped"]?.arrayValue?.first?["reason"]?.stringValue?.isEmpty == false)
        #expect(report["skipped"]?.arrayValue?.count == Self.skippedOutside.count)
        #expect(report["interrupted"]?.boolValue == false)
    }
}
