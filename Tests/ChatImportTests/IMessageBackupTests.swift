import ChatModel
import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

/// `sms.db` in an iPhone backup: files named by the SHA-1 of their domain and path.
@Suite struct IMessageBackupTests {
    static let photoHash = "7dcc3276a37044cf83166466d18de1bdfa0871c1"

    @Test(arguments: [
        ("sms.db's backup name", "HomeDomain-Library/SMS/sms.db", IMessageImporter.backupDatabaseName),
        ("empty", "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("several blocks", String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
        ("UTF-8", "Grüße 👋", "e2c2ed631f38ffe95ab5df5c26458f2d969ca3ee"),
        (
            "an attachment",
            "MediaDomain-Library/SMS/Attachments/ab/12/B1E4C0DE-0001-4000-8000-00000000A001/IMG_0001.HEIC",
            photoHash
        ),
    ])
    func sha1KnownAnswers(name: String, text: String, expected: String) {
        #expect(SHA1Digest.hex(Array(text.utf8)) == expected, "\(name)")
    }

    /// A backup folder: `Manifest.plist`, `Manifest.db`, `3d/<sms.db>`, and optionally the photo.
    static func backup(encrypted: Bool) throws -> String {
        let folder = TestTemporary.folder("iphone-backup") + "/00008030-001A2B3C4D5E6F70"
        let fm = FileManager.default
        for sub in ["3d", "7d"] {
            try fm.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        let database = folder + "/3d/" + IMessageImporter.backupDatabaseName
        try Data("bplist00 IsEncrypted".utf8).write(to: URL(fileURLWithPath: folder + "/Manifest.plist"))
        if encrypted {
            let noise = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
            try noise.write(to: URL(fileURLWithPath: folder + "/Manifest.db"))
            try noise.write(to: URL(fileURLWithPath: database))
            return folder
        }
        try IMessageFixture.execute(
            "CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT);", at: folder + "/Manifest.db"
        )
        try fm.copyItem(atPath: corpusRoot + "/imessage/Messages/chat.db", toPath: database)
        try IMessageFixture.execute(
            "UPDATE attachment SET filename = replace(filename, '~/Library/Messages/', '~/Library/SMS/');", at: database
        )
        try Data("photo".utf8).write(to: URL(fileURLWithPath: folder + "/7d/" + photoHash))
        return folder
    }

    @Test func anUnencryptedBackupFindsSmsDbAndItsHashedAttachments() throws {
        let folder = try Self.backup(encrypted: false)
        let detection = try FormatDetector.detect(path: folder)
        #expect(detection.format == "imessage")
        #expect(detection.entries == ["3d/" + IMessageImporter.backupDatabaseName])
        let sink = try IMessageFixture.read(folder)
        #expect(sink.items.count == 22 && sink.issues.isEmpty)
        #expect(sink.items.compactMap(\.file?.path) == ["7d/" + Self.photoHash])
        #expect(sink.items.compactMap(\.file?.name).contains("IMG_0001.HEIC"))
    }

    @Test func anEncryptedBackupIsRefusedSayingHowToMakeAReadableOne() throws {
        let folder = try Self.backup(encrypted: true)
        #expect {
            try FormatDetector.detect(path: folder)
        } throws: { error in
            "\(error)".contains("iPhone backup is encrypted") && "\(error)".contains("unencrypted backup")
        }
    }
}
