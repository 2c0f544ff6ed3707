import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// What an app holds and shows: ids it can keep and hand back to writes, and values complete
/// enough for a chat screen (senders, mentions, typed text, quotes, chat-row state,
/// attachments). Only the public API of `import ChatArchive`.
@Suite struct AppValuesTests {
    typealias F = LiveWriteFixtures

    // MARK: Identifiers

    @Test func everyResultIsIdentifiableByTheIdTheWritesTake() async throws {
        let archive = try await F.makeGroup()
        try await archive.upsert(items: [F.message("g1", "1", "hello Zoë", at: 0)])
        let row = try await F.row(archive)
        #expect(row.id == "g1")
        let item = try #require(try await archive.items(in: "g1", window: .last(1)).items.first)
        #expect(ArchivedItem.ID.self == Int64.self && ChatRow.ID.self == String.self)
        let hit = try #require(try await archive.search("hello").hits.first)
        #expect(hit.id == item.id)
        let member = try #require(try await archive.members(chat: "g1", matching: "zo").first)
        #expect(member.id == "m2" && member.sourceId == "m2")
        #expect(Chat(sourceId: "g1", type: .group, displayName: "x").id == "g1")
        #expect(Member(chatSourceId: "g1", sourceId: "m2", displayName: "Zoë").id == "m2")
        #expect(F.message("g1", "1", "x", at: 0).id == "1")
        // The JSON of a member keeps its field name.
        let json = String(decoding: try JSONEncoder().encode(member), as: UTF8.self)
        #expect(json.contains(#""memberId":"m2""#))
    }

    @Test func writesTakeTheArchiveIdsThatReadsReturn() async throws {
        let archive = try await F.makeGroup()
        try await archive.upsert(items: (0..<5).map { F.message("g1", "s\($0)", "message \($0)", at: Int64($0)) })
        let window = try await archive.items(in: "g1", window: .last(5))
        let ids = window.items.map(\.id)

        try await archive.markRead(chat: "g1", through: ids[2])
        #expect(try await F.row(archive).unreadCount == 2)
        try await archive.setPinned([ids[0]], in: "g1", to: true)
        try await archive.setReactions(chat: "g1", item: ids[0], [Reaction(emoji: "👍", count: 2)])
        try await archive.markDeleted([ids[1]], in: "g1")
        try await archive.deleteItems([ids[4]], in: "g1")
        let after = try await archive.items(in: "g1", window: .last(5)).items
        #expect(after.map(\.sourceId) == ["s0", "s1", "s2", "s3"])
        #expect(after[0].isPinned && after[0].reactions == [Reaction(emoji: "👍", count: 2)])
        #expect(after[1].isDeleted)
        #expect(try await archive.search("is:pinned").hits.map(\.id) == [ids[0]])

        // An id of another chat, or of no item, is refused and changes nothing.
        try await archive.upsert(chats: [Chat(sourceId: "g2", type: .group, displayName: "Other")])
        for bad: Int64 in [ids[3] + 1_000_000, -1] {
            await #expect {
                try await archive.markDeleted([ids[3], bad], in: "g1")
            } throws: { ($0 as? ArchiveError)?.code == .unknownItem }
        }
        await #expect {
            try await archive.markRead(chat: "g2", through: ids[3])
        } throws: { ($0 as? ArchiveError)?.code == .unknownItem }
        #expect(
            try await archive.items(in: "g1", window: .last(5)).items.map(\.isDeleted) == [false, true, false, false])
    }

    @Test func aQuoteJumpsToTheQuotedItemInOneCall() async throws {
        let archive = try await F.makeGroup()
        var items = (0..<40).map {
            F.message("g1", "q\($0)", "line \($0)", at: Int64($0), from: $0 % 2 == 0 ? "m2" : "m3")
        }
        items[39].quote = Quote(itemSourceId: "q4", text: "line 4")
        items[38].quote = Quote(itemSourceId: "never-imported", text: "lost")
        let mine = F.message("g1", "q41", "my own", at: 41, from: nil, dir: .snd)
        var replyToMine = F.message("g1", "q42", "reply", at: 42)
        replyToMine.quote = Quote(itemSourceId: "q41", text: "my own")
        try await archive.upsert(items: items + [mine, replyToMine])

        let last = try await archive.items(in: "g1", window: .last(5)).items
        let reply = try #require(last.first { $0.sourceId == "q39" })
        #expect(reply.quote?.sender == "Zoë" && reply.quote?.memberSourceId == "m2")
        let window = try #require(try await archive.context(ofQuoteIn: reply, count: 2))
        #expect(window.items.map(\.sourceId) == ["q2", "q3", "q4", "q5", "q6"])
        #expect(window.items[2].id == reply.quotedItemId)

        let lost = try #require(last.first { $0.sourceId == "q38" })
        #expect(lost.quote?.sender == nil && lost.quotedItemId == nil)
        #expect(try await archive.context(ofQuoteIn: lost) == nil)
        let plain = try #require(last.first { $0.sourceId == "q37" })
        #expect(try await archive.context(ofQuoteIn: plain) == nil)
        #expect(last.first { $0.sourceId == "q42" }?.quote?.sender == "me")
    }

    // MARK: Complete values

    @Test func itemsNameTheirSenderByMemberIdAndKeepWhatWasTyped() async throws {
        let archive = try await F.makeGroup()
        // Two members with one name: only the member id tells them apart.
        try await archive.upsert(members: [Member(chatSourceId: "g1", sourceId: "m4", displayName: "Zoë")])
        try await archive.upsert(items: [
            F.message("g1", "a", "*bold* claim", at: 0, from: "m2"),
            F.message("g1", "b", "plain claim", at: 1, from: "m4"),
            F.message("g1", "c", "from me", at: 2, from: nil, dir: .snd),
        ])
        let items = try await archive.items(in: "g1", window: .last(3)).items
        #expect(items.map(\.sender) == ["Zoë", "Zoë", "me"])
        #expect(items.map(\.memberSourceId) == ["m2", "m4", nil])
        #expect(items[0].text == "bold claim" && items[0].sourceText == "*bold* claim")
        #expect(items[1].sourceText == "plain claim")
    }

    @Test(arguments: [
        ("Latin with a space", "Bob M", "Hi @'Bob M' see you"),
        ("Cyrillic", "Дмитрий", "Привет @Дмитрий, как дела"),
        ("CJK", "小明", "你好 @小明 明天见"),
        ("Arabic", "سارة", "مرحبا @سارة كيف"),
        ("Hebrew", "דנה", "שלום @דנה מה"),
        ("Thai", "สมชาย", "สวัสดี @สมชาย ครับ"),
        ("emoji before", "Zoë", "🏔️🏔️ @Zoë summit"),
        ("combining", "Zoe\u{308}", "see @Zoe\u{308} there"),
    ])
    func mentionsCarryTheirRangeAndMember(script: String, name: String, text: String) async throws {
        let archive = try await F.makeGroup()
        try await archive.upsert(members: [Member(chatSourceId: "g1", sourceId: "p1", displayName: name)])
        try await archive.upsert(items: [
            F.message("g1", "m", text, at: 0, mentions: [name: MentionTarget(memberSourceId: "p1")])
        ])
        let item = try #require(try await archive.items(in: "g1", window: .last(1)).items.first)
        let mention = try #require(item.mentions.first, "\(script)")
        #expect(item.mentions.count == 1)
        #expect(mention.name == name && mention.memberSourceId == "p1" && !mention.isUserMention)
        let shown = (item.text as NSString).substring(
            with: NSRange(location: mention.range.lowerBound, length: mention.range.count))
        #expect(shown == "@" + name, "\(script): \(item.text)")
    }

    @Test func aMentionOfTheUserAndOneWithoutAMemberAreTold() async throws {
        let archive = try await F.makeGroup()
        try await archive.upsert(items: [
            F.message(
                "g1", "m", "@Me and @ghost", at: 0,
                mentions: ["Me": MentionTarget(memberSourceId: "me", isUserMention: true)])
        ])
        let item = try #require(try await archive.items(in: "g1", window: .last(1)).items.first)
        #expect(item.mentions.map(\.name) == ["Me", "ghost"])
        #expect(item.mentions.map(\.isUserMention) == [true, false])
        #expect(item.mentions.map(\.memberSourceId) == ["me", nil])
        // Search returns the same values.
        #expect(try await archive.search("ghost").hits.first?.item.mentions == item.mentions)
    }

    @Test func reactionsSayWhetherTheUsersOwnIsAmongThem() async throws {
        let archive = try await F.makeGroup()
        try await archive.upsert(items: [F.message("g1", "r", "nice", at: 0)])
        let id = try #require(try await archive.items(in: "g1", window: .last(1)).items.first?.id)
        let reactions = [Reaction(emoji: "👍", count: 2, isMine: true), Reaction(emoji: "❤️", count: 1)]
        try await archive.setReactions(chat: "g1", item: id, reactions)
        let item = try #require(try await archive.items(in: "g1", window: .last(1)).items.first)
        #expect(item.reactions == reactions && item.reactions.map(\.isMine) == [true, false])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(item.reactions), as: UTF8.self)
        #expect(json == #"[{"count":2,"emoji":"👍","mine":true},{"count":1,"emoji":"❤️"}]"#)
        #expect(try JSONDecoder().decode([Reaction].self, from: Data(json.utf8)) == reactions)

        // JSON Lines carry it as `"mine": true`.
        let (imported, _) = try TestArchive.make(
            jsonl: [
                Lines.chat("c"),
                Lines.item(
                    "c", "1", ts: "2024-05-01T10:00:00Z", text: "x",
                    extra: #""reactions":[{"emoji":"🎉","count":3,"mine":true},{"emoji":"👀","count":1}]"#),
            ].joined(separator: "\n"))
        let stored = try await imported.items(in: "c", window: .last(1)).items.first?.reactions
        #expect(stored == [Reaction(emoji: "🎉", count: 3, isMine: true), Reaction(emoji: "👀", count: 1)])
    }

    @Test func chatRowsCarryTheMarkedUnreadFlagAndNotificationMode() async throws {
        let archive = try await F.makeGroup()
        #expect(try await F.row(archive).isMarkedUnread == false)
        #expect(try await F.row(archive).notifications == .all)
        try await archive.setMarkedUnread(chat: "g1", to: true)
        try await archive.setNotifications(chat: "g1", .mentions)
        let row = try await F.row(archive)
        #expect(row.isMarkedUnread && row.notifications == .mentions && !row.isMuted)
        try await archive.setNotifications(chat: "g1", .none)
        #expect(try await F.row(archive).isMuted)
        #expect(try await F.row(archive).notifications == NotificationMode.none)
    }

    @Test func anAttachmentIsReadFromItsExportByItemId() async throws {
        try await TestTemporary.withTemporaryDirectory("attachment") { dir in
            let folder = dir + "/export"
            try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
            try Data("bytes of the photo 東京".utf8).write(to: URL(fileURLWithPath: folder + "/photos/p ☀.png"))
            let lines = [
                Lines.chat("c"),
                Lines.item(
                    "c", "1", ts: "2024-05-01T10:00:00Z", text: "photo", type: "image",
                    extra: #""file":{"name":"p ☀.png","path":"photos/p ☀.png"}"#),
                Lines.item(
                    "c", "2", ts: "2024-05-01T10:01:00Z", text: "escape", type: "file",
                    extra: #""file":{"name":"x","path":"../outside"}"#),
                Lines.item("c", "3", ts: "2024-05-01T10:02:00Z", text: "no file"),
            ]
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(
                to: URL(fileURLWithPath: folder + "/chat.jsonl"))
            let archive = try Archive(path: dir + "/a.sqlite")
            _ = try await archive.ingest([folder])
            let items = try await archive.items(in: "c", window: .last(3)).items
            let info = try #require(try await archive.attachmentInfo(item: items[0].id))
            #expect(info.name == "p ☀.png" && info.contentType == "image/png")
            #expect(info.size == Int64("bytes of the photo 東京".utf8.count))
            #expect(info.fileURL?.lastPathComponent == "p ☀.png")
            let data = try #require(try await archive.attachmentData(item: items[0].id))
            #expect(String(decoding: data, as: UTF8.self) == "bytes of the photo 東京")
            #expect(try await archive.attachmentInfo(item: items[0].id, index: 1) == nil)
            #expect(try await archive.attachmentInfo(item: items[1].id) == nil)
            #expect(try await archive.attachmentData(item: items[2].id) == nil)
            #expect(try await archive.attachmentData(item: 123_456_789) == nil)
        }
    }

    // MARK: The names of 0.1.0

    @available(*, deprecated, message: "calls the names of 0.1.0 on purpose")
    @Test func theNamesOf010StillWork() async throws {
        let archive = try await F.makeGroup()
        try await archive.upsert(chats: [Chat(sourceId: "g2", type: .direct, displayName: "Gone")])
        try await archive.upsert(items: (0..<3).map { F.message("g1", "s\($0)", "old \($0)", at: Int64($0)) })
        let window = try await archive.items(chat: "g1", .last(3))
        #expect(window.items.count == 3)
        try await archive.setPinned(chat: "g1", items: ["s0"], true)
        try await archive.setMarkedUnread(chat: "g1", true)
        try await archive.setFavorite(chat: "g1", true)
        try await archive.markDeleted(chat: "g1", items: ["s1"])
        try await archive.delete(chat: "g1", items: ["s2"])
        try await archive.delete(chat: "g2")
        var iterator = archive.observeItems(chat: "g1", .last(3)).makeAsyncIterator()
        let observed = try #require(try await iterator.next())
        #expect(observed.items.map(\.sourceId) == ["s0", "s1"])
        #expect(observed.items.map(\.isPinned) == [true, false] && observed.items[1].isDeleted)
        let row = try await F.row(archive)
        #expect(row.isMarkedUnread && row.isFavorite)
        #expect(try await archive.chats().map(\.chatId) == ["g1"])
        let member = ChatMember(memberId: "m9", displayName: "Zoë")
        #expect(member.memberId == "m9")
    }
}
