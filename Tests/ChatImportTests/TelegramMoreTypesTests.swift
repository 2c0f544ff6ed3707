import ChatModel
import Foundation
import Testing

@testable import ChatImport

/// `Corpus/telegram/more-types`: the chat types, media kinds, placeholders, peer replies,
/// migrations and time fallbacks the other Telegram fixtures do not have (ChatImport's TelegramFormat article).
@Suite struct TelegramMoreTypesTests {
    let sink: CollectingSink

    init() throws {
        sink = CollectingSink()
        try readExport(corpusRoot + "/telegram/more-types", into: sink)
    }

    func item(_ chat: String, _ id: String) -> Item? {
        sink.items.first { $0.chatSourceId == chat && $0.sourceId == id }
    }

    @Test func chatTypesAndFamilies() {
        #expect(
            sink.chats.map(\.sourceId) == [
                "telegram:user:5550001", "telegram:user:1271266957", "telegram:channel:1700000003",
                "telegram:group:900001",
                "telegram:group:1800000009",
            ])
        #expect(sink.chats.map(\.type) == [.direct, .group, .group, .group, .group])
        // A group upgraded to a supergroup stays two chats (linked by the migrate events, not merged).
        #expect(sink.chats.filter { $0.displayName == "Old crew" }.count == 2)
        #expect(sink.items.count == 16)
    }

    @Test func botChatWithNumericUnixTimeAndBotCommand() throws {
        let start = try #require(item("telegram:user:5550001", "1"))
        #expect(start.direction == .snd)
        #expect(start.timestamp.rfc3339 == "2024-04-01T10:00:00Z")
        #expect(!start.isFloating && start.wallClock == nil)
        #expect(start.markup == .formatted([FormattedText("/start", .command("start"))]))
        let reply = try #require(item("telegram:user:5550001", "2"))
        #expect(reply.direction == .rcv && reply.memberSourceId == "user5550001")
        #expect(reply.quote == Quote(itemSourceId: "1", text: ""))
        #expect(
            sink.members.contains {
                $0.chatSourceId == "telegram:user:5550001" && $0.sourceId == "user5550001"
                    && $0.displayName == "Crag Bot"
            })
    }

    @Test func aReplyToAnotherChatHasNoLocalTarget() throws {
        let m = try #require(item("telegram:user:1271266957", "10"))
        #expect(m.quote == Quote(itemSourceId: nil, text: ""))
        #expect(m.memberSourceId == "user4400555")
        #expect(m.raw?.contains("\"forwarded_from\": \"Alpine Club\"") == true)
    }

    @Test func bankCardAndAnEmptyPlainPart() throws {
        let m = try #require(item("telegram:channel:1700000003", "1"))
        #expect(m.content.text == "4111 1111 1111 1111 is not a real card")
        #expect(m.markup == .plain)
        #expect(m.memberSourceId == "channel1700000003")
    }

    @Test(
        arguments: [
            (
                "2", ContentType.video,
                FileRef(
                    name: "file_2@03-04-2024_08-01-00.mp4", size: 81920,
                    path: "round_video_messages/file_2@03-04-2024_08-01-00.mp4"), 5
            ),
            ("3", .file, FileRef(name: "crux-beta.mp3", size: 3_145_728, path: "files/crux-beta.mp3"), nil),
            ("5", .file, FileRef(name: "rules.pdf", size: 10240), nil),
        ] as [(String, ContentType, FileRef, Int?)])
    func mediaKindsAndPaths(id: String, type: ContentType, file: FileRef, duration: Int?) throws {
        let m = try #require(item("telegram:channel:1700000003", id))
        #expect(m.content.type == type)
        #expect(m.file == file)
        #expect(m.content.duration == duration)
    }

    @Test func unavailablePhotoAndAPathLeavingTheExport() throws {
        let unavailable = try #require(item("telegram:channel:1700000003", "4"))
        #expect(unavailable.content.type == .image && unavailable.file == nil)
        #expect(unavailable.content.text == "topo of sector B")
        let escaping = try #require(item("telegram:channel:1700000003", "6"))
        #expect(escaping.file == FileRef(name: "photo.jpg", size: 100, path: nil))
        let issue = try #require(sink.issues.first { $0.message.contains("leaves the export folder") })
        #expect(issue.severity == .warning && issue.location.line == 60)
    }

    @Test func basicGroupWithIntegerIdsFloatingTimesAndMigration() throws {
        let chat = "telegram:group:900001"
        let items = sink.items.filter { $0.chatSourceId == chat }
        #expect(
            items.map(\.content.text) == [
                "Lena Ortiz created the group «Old crew»", "hello old crew",
                "Lena Ortiz upgraded the group to a supergroup",
            ])
        #expect(items.allSatisfy { $0.isFloating })
        #expect(
            items.map { $0.wallClock ?? "" } == ["2019-05-01T12:00:00", "2019-05-01T12:05:00", "2019-06-01T12:00:00"])
        #expect(items.map(\.memberSourceId) == ["user4400123", "user4400555", "user4400123"])
        #expect(items[1].direction == .rcv)
        let upgraded = try #require(item("telegram:group:1800000009", "1"))
        #expect(upgraded.content.text == "Lena Ortiz upgraded the group «Old crew» to a supergroup")
        #expect(!upgraded.isFloating)
    }

    @Test func unreadableTimesFallBackAndAreFlagged() throws {
        let hidden = try #require(item("telegram:group:1800000009", "2"))
        #expect(hidden.content.text == "forwarded from a hidden account")
        // date_unixtime that is not a number: the floating date is used.
        let floating = try #require(item("telegram:group:1800000009", "3"))
        #expect(floating.isFloating && floating.timestamp.rfc3339 == "2019-06-01T12:11:00Z" && !floating.isTimeUnknown)
        // Nothing readable: the previous item's time, flagged, with a warning.
        let unknown = try #require(item("telegram:group:1800000009", "4"))
        #expect(unknown.isTimeUnknown && !unknown.isFloating)
        #expect(unknown.timestamp == floating.timestamp)
        let warning = try #require(sink.issues.first { $0.message.contains("no readable date") })
        #expect(warning.severity == .warning && warning.count == 0)
        #expect(sink.issues.count == 2)
        #expect(sink.issues.allSatisfy { $0.severity == .warning })
    }
}
