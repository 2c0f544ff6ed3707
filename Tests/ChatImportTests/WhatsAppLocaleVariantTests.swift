import ChatModel
import Foundation
import Testing

@testable import ChatImport

/// `Corpus/whatsapp/locale-variants`: one small chat per header variant of ChatImport's WhatsAppFormat article,
/// read whole (template locking, day/month order, authors, times), not line by line.
@Suite struct WhatsAppLocaleVariantTests {
    static func read(_ entry: String) throws -> CollectingSink {
        let container = try FolderContainer(path: corpusRoot + "/whatsapp/locale-variants")
        let sink = CollectingSink()
        try WhatsAppImporter().read(container, entry: entry, into: sink, options: ImportOptions())
        return sink
    }

    @Test(arguments: [
        (
            "WhatsApp Chat with Old.txt", "Old", ["Ana", "Ben", "Ana"],
            ["2012-07-03T18:02:00Z", "2012-07-03T18:03:00Z", "2012-07-14T09:00:00Z"]
        ),
        (
            "WhatsApp Chat with Aino.txt", "Aino", ["Aino", "Eero", "Aino"],
            ["2024-07-03T18:02:00Z", "2024-07-03T18:05:00Z", "2024-07-13T09:00:00Z"]
        ),
        (
            "WhatsApp Chat with Lucía.txt", "Lucía", ["Lucía", "Pablo", "Lucía"],
            ["2024-07-03T09:05:00Z", "2024-07-03T21:10:00Z", "2024-07-13T12:00:00Z"]
        ),
        (
            "WhatsApp Chat with Sara.txt", "Sara", ["سارة", "عمر", "سارة"],
            ["2024-07-03T18:02:00Z", "2024-07-03T07:15:00Z", "2024-07-13T21:00:00Z"]
        ),
        (
            "WhatsApp Chat with Hanako.txt", "Hanako", ["花子", "太郎", "花子"],
            ["2024-07-03T18:02:00Z", "2024-07-03T09:15:00Z", "2024-07-13T12:30:00Z"]
        ),
        (
            "WhatsApp Chat with Somchai.txt", "Somchai", ["สมชาย", "มานี"],
            ["2024-07-03T18:02:00Z", "2024-07-13T09:00:00Z"]
        ),
        // No component over 12: the day is the one that goes down between headers.
        (
            "WhatsApp Chat with Dora.txt", "Dora", ["Dora", "Ed", "Dora"],
            ["2024-01-11T10:00:00Z", "2024-01-12T10:00:00Z", "2024-02-01T10:00:00Z"]
        ),
    ])
    func variant(entry: String, key: String, authors: [String], times: [String]) throws {
        let sink = try Self.read(entry)
        #expect(sink.issues.isEmpty, "\(entry): \(sink.issues)")
        #expect(sink.chats.map(\.sourceId) == ["whatsapp:" + key])
        #expect(sink.items.map { $0.memberSourceId ?? "" } == authors, "\(entry)")
        #expect(sink.items.map(\.timestamp.rfc3339) == times, "\(entry)")
        #expect(sink.items.allSatisfy { $0.isFloating && $0.direction == .rcv && $0.content.type == .text }, "\(entry)")
        #expect(
            sink.items.allSatisfy {
                $0.wallClock.map { times.contains($0 + ($0.count == 16 ? ":00Z" : "Z")) } ?? false
            }, "\(entry)")
    }

    @Test func iOSOmittedKindsWithMixedLineEnds() throws {
        let sink = try Self.read("WhatsApp Chat - Kinds/_chat.txt")
        #expect(sink.chats.map(\.sourceId) == ["whatsapp:Kinds"])
        #expect(sink.issues.isEmpty)
        #expect(sink.items.map(\.content.type) == [.video, .image, .video, .file])
        #expect(
            sink.items.map { $0.file?.name } == [
                "(video omitted)", "(sticker omitted)", "(gif omitted)", "(contact card omitted)",
            ])
        // Omitted media were not exported: no path.
        #expect(sink.items.allSatisfy { $0.file?.path == nil && $0.content.text.isEmpty })
        #expect(
            sink.items.map(\.timestamp.rfc3339) == [
                "2024-07-03T18:02:11Z", "2024-07-03T18:02:12Z", "2024-07-03T18:02:13Z", "2024-07-13T18:02:14Z",
            ])
        #expect(
            sink.items.map(\.wallClock) == [
                "2024-07-03T18:02:11", "2024-07-03T18:02:12", "2024-07-03T18:02:13", "2024-07-13T18:02:14",
            ])
        #expect(!sink.items.contains { ($0.raw ?? "").contains("\r") })
    }

    @Test func attachedMediaKeepTheirPathBesideTheText() throws {
        let sink = try readExport(corpusRoot + "/whatsapp/ios-en-US")
        let photo = try #require(sink.items.first { $0.file?.name == "00000021-PHOTO-2024-07-03-18-05-17.jpg" })
        #expect(photo.file?.path == "WhatsApp Chat - Allotment/00000021-PHOTO-2024-07-03-18-05-17.jpg")
        #expect(sink.items.first { $0.file?.name == "(image omitted)" }?.file?.path == nil)
        let android = try readExport(corpusRoot + "/whatsapp/android-en-GB")
        let img = try #require(android.items.first { $0.file?.name == "IMG-20240703-WA0001.jpg" })
        #expect(img.file?.path == "IMG-20240703-WA0001.jpg")
        #expect(android.items.first { $0.file?.name == "(media omitted)" }?.file?.path == nil)
    }
}
