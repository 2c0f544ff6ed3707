import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// `check --repair` heals an archive made by an ingest of a folder of exports before each export
/// was recorded on its own: attachments recorded against the folder, paths relative to their
/// own export inside it.
@Suite struct AttachmentRootRepairTests {
    /// Three exports side by side; "two" and "три" hold a file of the same name (told apart by
    /// size), "three" a file only it has, in several scripts.
    static func makeFolder() throws -> String {
        let parent = TestTemporary.folder("exports") + "/My exports ☀"
        let exports: [(folder: String, chat: String, file: String, bytes: String)] = [
            ("export one", "one", "photos/p.txt", "bytes of one"),
            ("export two", "two", "photos/p.txt", "bytes of two, longer"),
            ("три 東京", "three", "ملفات/ภาพ 🌅.txt", "bytes of three"),
        ]
        for (k, e) in exports.enumerated() {
            let folder = parent + "/" + e.folder
            let file = folder + "/" + e.file
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(e.bytes.utf8).write(to: URL(fileURLWithPath: file))
            var name = ""
            JSONValue.writeString((e.file as NSString).lastPathComponent, to: &name)
            var path = ""
            JSONValue.writeString(e.file, to: &path)
            let lines = [
                Lines.chat(e.chat, name: "Chat \(e.chat)"),
                Lines.item(
                    e.chat, "1", ts: "2024-05-0\(k + 1)T10:00:00Z", text: "a file", type: "file",
                    extra: #""file":{"name":\#(name),"size":\#(e.bytes.utf8.count),"path":\#(path)}"#),
            ]
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(
                to: URL(fileURLWithPath: folder + "/chat.jsonl"))
        }
        return parent
    }

    /// The archive as an ingest of `parent` wrote it before the fix: every item with a file
    /// recorded against `parent`, its path relative to its own export.
    static func writeOldShape(_ path: String, parent: String) async throws {
        let root = URL(fileURLWithPath: parent).standardizedFileURL.resolvingSymlinksInPath().path
        let queue = try TestArchive.rawQueue(path)
        try await queue.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO export(root, isZip) VALUES (?, 0)", arguments: [root])
            let id = try #require(
                try Int64.fetchOne(db, sql: "SELECT id FROM export WHERE root = ?", arguments: [root]))
            try db.execute(sql: "UPDATE itemExport SET exportId = ?", arguments: [id])
            for (rewritten, own) in [
                ("export one/photos/p.txt", "photos/p.txt"), ("export two/photos/p.txt", "photos/p.txt"),
                ("три 東京/ملفات/ภาพ 🌅.txt", "ملفات/ภาพ 🌅.txt"),
            ] {
                try db.execute(sql: "UPDATE item SET filePath = ? WHERE filePath = ?", arguments: [own, rewritten])
            }
        }
    }

    /// An archive of ``makeFolder()`` in the old shape, its path and the folder.
    static func oldArchive() async throws -> (archive: Archive, path: String, parent: String) {
        let parent = try makeFolder()
        let path = TestArchive.temporaryPath()
        let archive = try Archive(path: path)
        _ = try archive.ingestSync([parent])
        try await writeOldShape(path, parent: parent)
        return (archive, path, parent)
    }

    func bytes(_ archive: Archive, _ chat: String) async throws -> String? {
        let id = try #require(try await archive.items(in: chat, window: .last(5)).items.first?.id)
        guard let file = try await archive.attachment(item: id, index: 0) else { return nil }
        return String(decoding: try file.stream.read(maxLength: 1000), as: UTF8.self)
    }

    @Test func repairFindsEachAttachmentInItsOwnExportAndSaysSo() async throws {
        let parent = try Self.makeFolder()
        let path = TestArchive.temporaryPath()
        let archive = try Archive(path: path)
        _ = try archive.ingestSync([parent])
        #expect(try await bytes(archive, "three") == "bytes of three")
        try await Self.writeOldShape(path, parent: parent)
        for chat in ["one", "two", "three"] { #expect(try await bytes(archive, chat) == nil, "\(chat)") }

        let report = try await archive.repairAttachmentRoots()
        #expect(report.itemsMoved == 3)
        #expect(report.itemsLeft == 0)
        #expect(report.moves.map { ($0.to as NSString).lastPathComponent } == ["export one", "export two", "три 東京"])
        #expect(try await bytes(archive, "one") == "bytes of one")
        #expect(try await bytes(archive, "two") == "bytes of two, longer")
        #expect(try await bytes(archive, "three") == "bytes of three")
        // Healed once: nothing left to move.
        #expect(try await archive.repairAttachmentRoots() == AttachmentRootRepair())
    }

    @Test func theLibrarysRepairHealsThemToo() async throws {
        let archive = try await Self.oldArchive().archive
        #expect(try await archive.repair().isEmpty)
        #expect(try await bytes(archive, "two") == "bytes of two, longer")
    }

    @Test func aFileNoExportHoldsIsLeftAndCounted() async throws {
        let (archive, _, parent) = try await Self.oldArchive()
        try FileManager.default.removeItem(atPath: parent + "/export one/photos/p.txt")
        let report = try await archive.repairAttachmentRoots()
        // p.txt of "one" is gone; the one left is "two"'s, whose size the item "one" does not have.
        #expect(report.itemsMoved == 2)
        #expect(report.itemsLeft == 1)
        #expect(try await bytes(archive, "one") == nil)
    }

    @Test func checkRepairOnTheCommandLineSaysWhatItMoved() async throws {
        let (_, path, parent) = try await Self.oldArchive()
        let cli = ChildProcess.chatArchiveBinary
        let json = try ChildProcess.run(cli, ["check", "--repair", "--archive", path, "--json"])
        #expect(json.status == 0, "\(json.err)")
        let doc = try JSONParser.parse(Array(json.out.utf8))
        let moves = doc["attachmentsMoved"]?.arrayValue ?? []
        #expect(moves.compactMap { $0["items"]?.numberValue }.reduce(0, +) == 3)
        #expect(moves.allSatisfy { $0["from"]?.stringValue?.hasSuffix("My exports ☀") == true })
        #expect(doc["attachmentsLeft"]?.numberValue == 0)
        let again = try ChildProcess.run(cli, ["check", "--repair", "--archive", path])
        #expect(again.status == 0)
        #expect(!again.out.contains("found attachments"))
        try await Self.writeOldShape(path, parent: parent)
        let human = try ChildProcess.run(cli, ["check", "--repair", "--archive", path])
        #expect(human.out.contains("found attachments: 1 item recorded against "), "\(human.out)")
        #expect(human.out.contains("три 東京, the export inside it that holds their files"))
        #expect(human.out.contains("ok: the archive and its indexes are healthy"))
    }
}
