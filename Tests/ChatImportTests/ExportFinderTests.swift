import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

@Suite struct FormatRegistryTests {
    @Test func namesFollowTheDetectionOrderOnce() {
        #expect(
            FormatDetector.formatNames == [
                "imessage", "simplex", "slack", "discord", "meta", "telegram", "matrix", "signal", "whatsapp", "jsonl",
            ])
        #expect(
            FormatRegistry.formats.map(\.name) == [
                "imessage", "simplex", "slack", "discord", "meta", "telegram", "simplex", "matrix", "signal",
                "whatsapp",
                "jsonl",
            ])
        #expect(FormatRegistry.format(named: "icq") == nil)
    }

    @Test func everyRegisteredFormatRecognisesItsSampleAndNoOther() throws {
        let samples: [(String, String)] = [
            ("slack", corpusRoot + "/slack"), ("discord", corpusRoot + "/discord/dm"),
            ("telegram", corpusRoot + "/telegram/account"),
            ("simplex", corpusRoot + "/simplex"), ("whatsapp", corpusRoot + "/whatsapp/android-en-GB"),
            ("jsonl", corpusRoot + "/sample"), ("matrix", corpusRoot + "/matrix"),
            ("signal", corpusRoot + "/signal/desktop"),
            ("meta", corpusRoot + "/meta/facebook-2024"), ("meta", corpusRoot + "/meta/instagram-2024"),
            ("imessage", corpusRoot + "/imessage"),
        ]
        for (name, path) in samples {
            let container = SniffingContainer(try FormatDetector.openContainer(path: path))
            let recognising = Set(
                try FormatRegistry.formats.filter { !(try $0.recognise(container)).isEmpty }.map(\.name))
            #expect(recognising == [name], "\(path)")
        }
    }

    @Test func aFormatIsItsFourParts() throws {
        // What a new importer registers: a name, a description, recognise and read.
        let format = ImportFormat(
            name: "notes", description: "Notes (lines starting with NOTE:)",
            recognise: { c in Sniff.candidates(c).filter { Sniff.prefix(c, $0).starts(with: Array("NOTE:".utf8)) } },
            read: { _, entries, sink, _ in
                try sink.report(.warning(SourceLocation(file: entries.joined(separator: ",")), "read"))
            })
        let dir = try TestFiles.folder() + "/notes-\(UUID().uuidString)"
        _ = try TestFiles.write("NOTE: 你好\n", named: "a.txt", in: dir)
        _ = try TestFiles.write("other\n", named: "b.txt", in: dir)
        let container = try FormatDetector.openContainer(path: dir)
        #expect(try format.recognise(container) == ["a.txt"])
        let sink = CollectingSink()
        try Detection(format: format, container: container, entries: ["a.txt"]).read(
            into: sink, options: ImportOptions())
        #expect(sink.issues.map(\.location.file) == ["a.txt"])
    }

    @Test func unknownForcedFormatsNameTheKnownOnes() throws {
        let path = try TestFiles.write("x\n", named: "x.txt")
        let error = #expect(throws: ImportError.self) { try FormatDetector.detect(path: path, forced: "icq") }
        #expect(
            error?.message.contains("simplex, slack, discord, meta, telegram, matrix, signal, whatsapp, jsonl") == true)
    }

    @Test func sniffingReadsEachPrefixOnceAndCutsToTheLimit() throws {
        let path = try TestFiles.write(String(repeating: "ก", count: 40_000), named: "thai.txt")
        let container = SniffingContainer(try FormatDetector.openContainer(path: path))
        let full = try container.prefix(of: "thai.txt", limit: FormatDetector.prefixLimit)
        #expect(full.count == FormatDetector.prefixLimit)
        #expect(try container.prefix(of: "thai.txt", limit: 3) == Array("ก".utf8))
    }
}

@Suite struct ExportFinderTests {
    @Test func theCorpusFolderIsSplitIntoItsExports() throws {
        let search = try ExportFinder.find(path: corpusRoot)
        let found = search.exports.map {
            (($0.detection.container.path as NSString).lastPathComponent, $0.detection.format)
        }
        #expect(
            found.map(\.0) == [
                "discord", "hostile", "imessage", "matrix", "facebook-2023", "facebook-2024", "facebook-2024-later",
                "instagram-2022",
                "instagram-2024", "trimmed",
                "sample", "sample-bad", "signal", "simplex", "slack", "telegram", "whatsapp",
            ])
        #expect(
            found.map(\.1) == [
                "discord", "jsonl", "imessage", "matrix", "meta", "meta", "meta", "meta", "meta", "meta", "jsonl",
                "jsonl", "signal",
                "simplex",
                "slack", "telegram",
                "whatsapp",
            ])
        // Refused exports (HTML, the old Instagram and the encrypted downloads) and stray files
        // are skipped, each with its reason.
        #expect(
            search.skipped.map { ($0.path as NSString).lastPathComponent } == [
                "README.md", "e2ee-secure-storage", "lenaortiz_10158832", "instagram-old", "make_fixtures.py",
            ])
        #expect(search.skipped.first { $0.path.hasSuffix("instagram-old") }?.reason.contains("old Instagram") == true)
        let sample = try #require(search.exports.first { $0.detection.container.path.hasSuffix("/sample") })
        #expect(sample.detection.entries == ["chats-1.jsonl", "chats-2.jsonl", "updates.jsonl"])
        #expect(sample.skipped.map { ($0.path as NSString).lastPathComponent } == ["README.md"])
        #expect(sample.skipped.first?.reason.contains("not read") == true)
        let whatsapp = try #require(search.exports.first { $0.detection.format == "whatsapp" })
        #expect(whatsapp.skipped.map { ($0.path as NSString).lastPathComponent } == ["README.md", "make_fixtures.py"])
        // Every locale variant is found by content, Japanese and Arabic headers included.
        #expect(whatsapp.detection.entries.contains("locale-variants/WhatsApp Chat with Hanako.txt"))
        #expect(whatsapp.detection.entries.contains("locale-variants/WhatsApp Chat with Sara.txt"))
    }

    @Test func aFolderThatIsOneExportStaysOne() throws {
        let dir = try TestFiles.folder() + "/tg-\(UUID().uuidString)"
        _ = try TestFiles.write(FormatDetectorTests.telegramChat, named: "result.json", in: dir)
        _ = try TestFiles.write([0xFF, 0xD8, 0xFF], named: "photos/photo_1.jpg", in: dir)
        _ = try TestFiles.write("body { }", named: "css/style.css", in: dir)
        let search = try ExportFinder.find(path: dir)
        #expect(search.exports.count == 1)
        #expect(search.exports.first?.detection.format == "telegram")
        #expect(search.exports.first?.detection.entries == ["result.json"])
        #expect(search.exports.first?.skipped.isEmpty == true)
    }

    @Test func exportsSideBySideWithZipsAndStrangersAreEachReportedOnce() throws {
        let dir = try TestFiles.folder() + "/exports-\(UUID().uuidString)"
        _ = try TestFiles.write(FormatDetectorTests.telegramChat, named: "telegram/result.json", in: dir)
        _ = try TestFiles.write(FormatDetectorTests.discord, named: "dce/general.json", in: dir)
        _ = try TestFiles.write("just notes: 笔记 ملاحظات\n", named: "notes/todo.txt", in: dir)
        _ = try TestFiles.write("<!DOCTYPE html><html></html>", named: "old-telegram/messages.html", in: dir)
        var zip = TestZip()
        zip.add("WhatsApp Chat with Ana.txt", FormatDetectorTests.android)
        _ = try TestFiles.write(zip.bytes(), named: "WhatsApp Chat with Ana.zip", in: dir)
        _ = try TestFiles.write("# My exports\n", named: "README.md", in: dir)
        let search = try ExportFinder.find(path: dir)
        #expect(search.exports.map(\.detection.format) == ["whatsapp", "discord", "telegram"])
        #expect(search.exports.first?.detection.container is ZipContainer)
        let skipped = Dictionary(
            uniqueKeysWithValues: search.skipped.map { (($0.path as NSString).lastPathComponent, $0.reason) })
        #expect(Set(skipped.keys) == ["README.md", "notes", "old-telegram"])
        #expect(skipped["old-telegram"]?.contains("re-export as JSON") == true)
        #expect(skipped["notes"]?.contains("not a recognised chat export") == true)
    }

    @Test func forcedFormatsReadThePathAsOneExport() throws {
        let search = try ExportFinder.find(path: corpusRoot + "/sample", forced: "jsonl")
        #expect(search.exports.count == 1)
        #expect(search.exports.first?.detection.entries.contains("README.md") == false)
    }

    @Test func aFolderWithNoExportFailsWithTheDetectorsMessage() throws {
        let dir = try TestFiles.folder() + "/empty-\(UUID().uuidString)"
        _ = try TestFiles.write("nothing here\n", named: "a.txt", in: dir)
        let error = #expect(throws: ImportError.self) { try ExportFinder.find(path: dir) }
        #expect(error?.message.contains("Tried:") == true)
    }
}
