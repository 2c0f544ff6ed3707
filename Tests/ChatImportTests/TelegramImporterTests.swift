import ChatModel
import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

/// The repository's `Corpus/` folder.
let corpusRoot = TestArchive.corpusPath

private func importTelegram(_ relative: String, zone: String? = nil) throws -> CollectingSink {
    try readExport(corpusRoot + "/telegram/" + relative, options: ImportOptions(timeZoneIdentifier: zone))
}

private func item(_ sink: CollectingSink, _ id: String, chat: String? = nil) -> Item? {
    sink.items.first { $0.sourceId == id && (chat == nil || $0.chatSourceId == chat) }
}

@Suite struct TelegramSingleChatTests {
    let sink: CollectingSink

    init() throws { sink = try importTelegram("single-chat") }

    @Test func chatIsAPrivateSupergroup() {
        #expect(sink.chats.count == 1)
        #expect(sink.chats.first?.sourceId == "telegram:group:1780044512")
        #expect(sink.chats.first?.type == .group)
        #expect(sink.chats.first?.displayName == "Climbing crew")
        #expect(sink.chats.first?.source == "telegram")
    }

    @Test func keepsEveryGoodMessageOnceInFileOrder() {
        #expect(
            sink.items.map(\.sourceId) == [
                "311", "312", "313", "314", "315", "316", "317", "318", "319", "320", "321", "322", "324", "325",
            ])
    }

    @Test func reportsBadRecordsAndTheDuplicate() {
        let messages = sink.issues.map(\.message)
        #expect(sink.issues.count == 3)
        #expect(messages.contains { $0.contains("311 appears again") })
        #expect(messages.contains { $0.contains("323") && $0.contains("neither a string nor an array") })
        #expect(messages.contains { $0.contains("without an id") })
        #expect(
            sink.issues.allSatisfy {
                $0.location.file.hasSuffix("single-chat/result.json") && $0.location.line != nil
                    && $0.location.byteOffset != nil
            })
        // The duplicate keeps the first copy.
        #expect(item(sink, "311")?.content.text == "rope check Jo? run gear.sh")
    }

    @Test func membersAreNamedByTheLatestFrom() {
        let jo = sink.members.filter { $0.sourceId == "user4400999" }
        #expect(jo.map(\.displayName) == ["Jo Tanaka", "Jo T."])
        // A deleted account (null from) still is a member.
        #expect(sink.members.contains { $0.sourceId == "user4400777" && $0.displayName == "Deleted Account" })
        #expect(sink.members.allSatisfy { !$0.isUser })
    }

    @Test func textArrayWithMentionNameAndCode() throws {
        let m = try #require(item(sink, "311"))
        #expect(m.timestamp.rfc3339 == "2023-11-05T20:14:03Z")
        #expect(m.memberSourceId == "user4400123")
        #expect(m.direction == .rcv)
        #expect(
            m.markup
                == .formatted([
                    FormattedText("rope check "), FormattedText("Jo", .mention(memberName: "Jo")),
                    FormattedText("? run "),
                    FormattedText("gear.sh", .snippet),
                ]))
        #expect(m.mentions == ["Jo": MentionTarget(memberSourceId: "user4400999")])
        #expect(m.raw?.contains("\"mention_name\"") == true)
    }

    @Test func deletedAuthorRepliesWithAPhotoNotIncluded() throws {
        let m = try #require(item(sink, "312"))
        #expect(m.memberSourceId == "user4400777")
        #expect(m.quote == Quote(itemSourceId: "311", text: ""))
        #expect(m.content.type == .image)
        #expect(m.file == nil)
        #expect(m.content.text == "")
        #expect(m.markup == .plain)
    }

    @Test func controlCharacterEscapesDecodeAndRawKeepsThem() throws {
        let m = try #require(item(sink, "313"))
        #expect(m.content.text == "bell\u{07} and esc\u{1B} here")
        #expect(m.raw?.contains("bell\\x07") == true)
        #expect(m.timestamp.rfc3339 == "2023-11-05T20:25:00Z")
    }

    @Test func entitiesBecomeFormattedPieces() throws {
        let m = try #require(item(sink, "314"))
        #expect(m.isEdited)
        guard case .formatted(let pieces) = m.markup else {
            Issue.record("not formatted")
            return
        }
        let formats = pieces.compactMap(\.format)
        #expect(
            formats == [
                .bold, .italic, .underline, .strikeThrough, .secret,
                .hyperLink(showText: "the topo", linkUri: "https://example.com/topo"),
                .uri, .email, .phone, .mention(memberName: "jo_t"), .hashtag, .command("start"), .snippet,
            ])
        #expect(pieces.first == FormattedText("Жирный", .bold))
        #expect(
            m.content.text
                == "Жирный 斜体 under gone secret the topo https://example.org lena@example.com +1 555 0100 @jo_t #boulder /start tie(in)مرحبا🧗$ROPE?"
        )
        #expect(pieces.last == FormattedText("مرحبا🧗$ROPE?"))
    }

    @Test(arguments: [
        ("315", "Lena Ortiz pinned a message", "user4400123"),
        ("316", "Jo Tanaka: set chat wallpaper v9 (emoticon: 🎄, same: true)", "user4400999"),
        ("317", "Lena Ortiz boosted the group", "user4400123"),
    ])
    func serviceMessagesAreEvents(id: String, text: String, actor: String) throws {
        let m = try #require(item(sink, id))
        #expect(m.direction == .event)
        #expect(m.content.type == .event)
        #expect(m.content.text == text)
        #expect(m.memberSourceId == actor)
        #expect(m.markup == .plain)
    }

    @Test(
        arguments: [
            ("318", ContentType.video, "climb.mp4", Int64(734_003_200), 42, nil),
            (
                "319", .voice, "audio_1@05-11-2023_21-42-00.ogg", 20480, 7,
                "voice_messages/audio_1@05-11-2023_21-42-00.ogg"
            ),
            ("320", .file, "sticker.webp", 30000, nil, "stickers/sticker.webp"),
            ("321", .file, "route-plan.pdf", 5120, nil, "files/route-plan.pdf"),
            ("324", .video, "loop.mp4", 900, nil, "video_files/loop.mp4"),
        ] as [(String, ContentType, String, Int64, Int?, String?)])
    func mediaKindsAndFileNames(id: String, type: ContentType, name: String, size: Int64, duration: Int?, path: String?)
        throws
    {
        let m = try #require(item(sink, id))
        #expect(m.content.type == type)
        // 318's file exceeded the size limit: a name from file_name, no path.
        #expect(m.file == FileRef(name: name, size: size, path: path))
        #expect(m.content.duration == duration)
    }

    @Test func captionsPollsReactionsForwardsAndSurrogates() throws {
        #expect(item(sink, "318")?.content.text == "send run")
        #expect(item(sink, "322")?.content.text == "Which crag?\n- Frankenjura\n- Fontainebleau")
        #expect(
            item(sink, "320")?.reactions == [
                Reaction(emoji: "🔥", count: 3), Reaction(emoji: "\u{25CC}", count: 1),
            ])
        let fwd = try #require(item(sink, "324"))
        #expect(fwd.content.text == "smile 😀 ok")
        #expect(fwd.raw?.contains("Alpine Club") == true)
        #expect(item(sink, "325")?.content.type == .unknown)
    }
}

@Suite struct TelegramAccountTests {
    let sink: CollectingSink

    init() throws { sink = try importTelegram("account", zone: "+01:00") }

    @Test func everyChatIncludingLeftOnes() {
        #expect(
            sink.chats.map(\.sourceId) == [
                "telegram:user:4400999", "telegram:user:4400123", "telegram:channel:1500000001",
                "telegram:group:2200000001",
                "telegram:group:1600000002",
            ])
        #expect(sink.chats.map(\.type) == [.direct, .local, .group, .group, .group])
        #expect(
            sink.chats.map(\.displayName) == ["Jo Tanaka", "Saved Messages", "Alpine Club", "Weekend trip", "Old gym"])
    }

    @Test func theOwnerIsAMemberOfEveryChat() {
        for chat in sink.chats {
            let owners = sink.members.filter { $0.chatSourceId == chat.sourceId && $0.isUser }
            #expect(owners.map(\.sourceId) == ["user4400123"], "\(chat.sourceId)")
        }
        #expect(sink.members.first { $0.isUser }?.displayName == "Lena Ortiz")
    }

    @Test func oldPersonalChatWithIntegerIdsAndFloatingDates() throws {
        let chat = "telegram:user:4400999"
        let items = sink.items.filter { $0.chatSourceId == chat }
        #expect(items.map(\.sourceId) == ["1", "2", "3", "4", "5", "6"])
        let first = try #require(items.first)
        #expect(first.memberSourceId == "user4400999")
        #expect(first.direction == .rcv)
        #expect(first.timestamp.rfc3339 == "2020-03-01T09:00:00Z")
        #expect(!first.isEdited)  // 1970-01-01T03:00:00 means "not edited"
        #expect(items[1].direction == .snd)
        #expect(items[1].isEdited)
        #expect(items[1].markup == .formatted([FormattedText("edited", .bold), FormattedText(" later")]))
        #expect(items[2].content.text == "phone call (42 s)")
        #expect(items[2].direction == .event)
        #expect(items[3].content.text == "phone call (missed)")
        #expect(items[4].content.text == "Mia Chen +44 20 7946 0000")
        #expect(items[5].content.text == "Frankenjura\nFranconia\n49.6, 11.3")
        #expect(
            sink.members.contains {
                $0.chatSourceId == chat && $0.sourceId == "user4400999" && $0.displayName == "Jo Tanaka"
            })
    }

    @Test func theChatExportedTwiceIsDeduplicated() {
        let dupes = sink.issues.filter { $0.message.contains("appears again") }
        #expect(dupes.count == 3)
        #expect(sink.issues.count == 3)
    }

    @Test func savedMessagesAreSentNotes() throws {
        let m = try #require(item(sink, "900"))
        #expect(m.direction == .snd)
        #expect(m.chatSourceId == "telegram:user:4400123")
        #expect(m.timestamp.rfc3339 == "2024-01-02T08:00:00Z")
    }

    @Test func channelPostsAndGroupEvents() throws {
        #expect(item(sink, "10")?.content.text == "Alpine Club created the channel «Alpine Club»")
        #expect(item(sink, "11")?.memberSourceId == "channel1500000001")
        #expect(item(sink, "50")?.content.text == "Lena Ortiz created the group «Weekend trip»")
        #expect(item(sink, "51")?.content.text == "Lena Ortiz added Deleted Account, Mia Chen")
        #expect(item(sink, "54")?.content.text == "Deleted Account removed Mia Chen")
        let me = try #require(item(sink, "52"))
        #expect(me.direction == .snd)
        #expect(me.mentions == ["Lena": MentionTarget(memberSourceId: "user4400123", isUserMention: true)])
        let mia = try #require(item(sink, "53"))
        #expect(mia.quote == Quote(itemSourceId: "52", text: ""))
        #expect(mia.timestamp.rfc3339 == "2024-03-01T17:03:00Z")  // floating, read in +01:00
        #expect(item(sink, "7", chat: "telegram:group:1600000002")?.content.text == "closing")
    }

    @Test func floatingTimesDefaultToUTCAndFollowAnIANAZone() throws {
        let utc = try importTelegram("account")
        #expect(utc.items.first { $0.sourceId == "53" }?.timestamp.rfc3339 == "2024-03-01T18:03:00Z")
        let berlin = try importTelegram("account", zone: "Europe/Berlin")
        #expect(berlin.items.first { $0.sourceId == "53" }?.timestamp.rfc3339 == "2024-03-01T17:03:00Z")
        #expect(berlin.items.first { $0.sourceId == "900" }?.timestamp.rfc3339 == "2024-01-02T08:00:00Z")
    }
}

@Suite struct TelegramBadInputTests {
    @Test func truncatedFileKeepsCompleteMessagesAndReportsTheOffset() throws {
        let source = try Data(contentsOf: URL(fileURLWithPath: corpusRoot + "/telegram/single-chat/result.json"))
        let text = String(decoding: source, as: UTF8.self)
        // Cut inside message 316.
        let cut = try #require(text.range(of: "set_chat_wallpaper_v9"))
        let prefix = Data(text[..<cut.lowerBound].utf8)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tg-trunc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try prefix.write(to: dir.appendingPathComponent("result.json"))
        let sink = try readExport(dir.path)
        #expect(sink.items.map(\.sourceId) == ["311", "312", "313", "314", "315"])
        #expect(sink.chats.count == 1)
        let issue = try #require(sink.issues.last)
        #expect(issue.message.contains("ends inside"))
        let start = try #require(text.range(of: "{\n   \"id\": 316"))
        #expect(issue.location.byteOffset == Int64(text[..<start.lowerBound].utf8.count))
        #expect(issue.location.line == text[..<start.lowerBound].filter { $0 == "\n" }.count + 1)
    }

    @Test func syntaxErrorStopsTheFile() throws {
        let json =
            #"{"name":"x","type":"personal_chat","id":5,"messages":[{"id":1,"type":"message","date_unixtime":"1","from_id":"user5","text":"a"} {"id":2}]}"#
        let sink = CollectingSink()
        let container = try MemoryContainer(["result.json": Array(json.utf8)])
        try TelegramImporter().read(container, entry: "result.json", into: sink, options: ImportOptions())
        #expect(sink.items.count == 1)
        #expect(sink.issues.count == 1)
        #expect(sink.issues.first?.message.contains("expected ','") == true)
        #expect(sink.issues.first?.location.byteOffset == Int64(json.utf8.count - 10))
    }

    @Test func messagesBeforeTheChatHeaderAreKept() throws {
        let json =
            #"{"messages":[{"id":1,"type":"message","date_unixtime":"60","from":"Me","from_id":"user7","text":"hi"},{"id":2,"type":"message","date_unixtime":"61","from":"Bo","from_id":"user5","text":"yo"}],"name":"Bo","type":"personal_chat","id":5}"#
        let sink = CollectingSink()
        try TelegramImporter().read(
            try MemoryContainer(["r.json": Array(json.utf8)]), entry: "r.json", into: sink, options: ImportOptions())
        #expect(sink.chats.map(\.sourceId) == ["telegram:user:5"])
        #expect(sink.items.map(\.direction) == [.snd, .rcv])
        #expect(sink.items.first?.timestamp.rfc3339 == "1970-01-01T00:01:00Z")
        #expect(sink.members.map(\.sourceId) == ["user5", "user7"])
        #expect(sink.members.map(\.isUser) == [false, true])
        #expect(sink.issues.isEmpty)
    }

    @Test func invalidUTF8IsReplacedAndReported() throws {
        var bytes = Array(
            #"{"type":"personal_chat","name":"B","id":5,"messages":[{"id":1,"type":"message","date_unixtime":"0","from_id":"user5","text":"a"#
                .utf8)
        bytes += [0xFF, 0x62]
        bytes += Array(#""}]}"#.utf8)
        let sink = CollectingSink()
        try TelegramImporter().read(
            try MemoryContainer(["r.json": bytes]), entry: "r.json", into: sink, options: ImportOptions())
        #expect(sink.items.first?.content.text == "a\u{FFFD}b")
        #expect(sink.issues.map(\.message) == ["message 1 contains invalid UTF-8, read as U+FFFD"])
    }

    @Test func aFolderWithoutResultJSONIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tg-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: ImportError.self) {
            try readExport(dir.path)
        }
    }

    @Test func recognisesExportsByTheirStart() {
        #expect(
            TelegramImporter.recognises(
                prefix: Array(#"{"name": "x", "type": "personal_chat", "id": 1, "messages": ["#.utf8)))
        #expect(TelegramImporter.recognises(prefix: Array(#"{ "about": "…", "personal_information": {"#.utf8)))
        #expect(!TelegramImporter.recognises(prefix: Array(#"{"guild": {}, "channel": {}, "messages": ["#.utf8)))
        #expect(!TelegramImporter.recognises(prefix: Array("[1,2]".utf8)))
    }
}

/// Entries held in memory, for tests.
final class MemoryContainer: ExportContainer {
    let path = "memory"
    let entries: [String: [UInt8]]
    init(_ entries: [String: [UInt8]]) throws { self.entries = entries }
    var entryNames: [String] { entries.keys.sorted() }
    var refusedEntries: [(name: String, reason: String)] { [] }
    func open(_ name: String) throws -> ByteStream {
        guard let bytes = entries[name] else { throw ImportError("no entry \(name)") }
        return MemoryByteStream(bytes)
    }
    func size(of name: String) -> Int64? { entries[name].map { Int64($0.count) } }
    func displayName(of name: String) -> String { "memory!" + name }
}
