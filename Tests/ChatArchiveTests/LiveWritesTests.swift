import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// Live writes (`Archive+LiveWrites`): every operation is seen by every read as soon as it
/// returns, keeps counters and positions exact, and leaves `check()` with nothing to report.
@Suite struct LiveWritesTests {
    @Test func anUpsertedMessageIsFoundInEveryScriptAsSoonAsTheCallReturns() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        let texts = [
            "1": "Meet at *Heinestraße* 5", "2": "東京で会いましょう", "3": "مرحبا بالجميع", "4": "so funny 😂😂",
            "5": "שלום לכולם", "6": "ไปเที่ยวกันไหม", "7": "Café crème at noon",
        ]
        for (k, (id, text)) in texts.sorted(by: { $0.key < $1.key }).enumerated() {
            try await archive.upsert(items: [LiveWriteFixtures.message("g1", id, text, at: Int64(k))])
        }
        for (query, id) in [
            ("straße", "1"), ("東京", "2"), ("مرحبا", "3"), ("😂", "4"), ("שלום", "5"), ("เที่ยว", "6"), ("cafe creme", "7"),
        ] {
            let page = try await archive.search(query, options: SearchOptions(chat: "g1"))
            #expect(page.hits.map(\.item.sourceId) == [id], "\(query)")
            #expect(page.hits.first?.ranges.isEmpty == false)
        }
        let row = try await LiveWriteFixtures.row(archive)
        #expect(row.itemCount == 7)
        #expect(row.unreadCount == 7)
        #expect(row.preview.text == "Café crème at noon")
        #expect(row.preview.sender == "Zoë")
        let window = try await archive.items(in: "g1", window: .last(3))
        #expect(window.items.map(\.sourceId) == ["5", "6", "7"])
        let around = try await archive.items(in: "g1", window: .around(window.items[0].id, count: 1))
        #expect(around.navInfo == NavigationInfo(afterTotal: 1, afterUnread: 1))
        #expect(try await archive.check() == [])
    }

    @Test func anEditReplacesTextSpansAndIndexAndKeepsCounters() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "1", "see you at the *lake*", at: 0)])
        var edited = LiveWriteFixtures.message("g1", "1", "see you at the _mountain_ hut", at: 0)
        edited.isEdited = true
        try await archive.upsert(items: [edited])
        #expect(try await archive.search("lake").hits.isEmpty)
        let hit = try #require(try await archive.search("mountain").hits.first)
        #expect(hit.item.text == "see you at the mountain hut")
        #expect(hit.item.isEdited)
        let row = try await LiveWriteFixtures.row(archive)
        #expect(row.itemCount == 1)
        #expect(row.unreadCount == 1)
        #expect(try await archive.check() == [])
    }

    @Test func mentionsOfTheUserCountAsUnreadMentionsUntilRead() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(items: [
            LiveWriteFixtures.message(
                "g1", "1", "hi @Me look", at: 0,
                mentions: ["Me": MentionTarget(memberSourceId: "me", isUserMention: true)]),
            LiveWriteFixtures.message("g1", "2", "and the rest", at: 1),
        ])
        #expect(try await LiveWriteFixtures.row(archive).unreadMentions == 1)
        #expect(try await archive.search("mentions:me").hits.map(\.item.sourceId) == ["1"])
        try await archive.markRead(chat: "g1", through: "1")
        let row = try await LiveWriteFixtures.row(archive)
        #expect((row.unreadCount, row.unreadMentions) == (1, 0))
        #expect(try await archive.check() == [])
    }

    /// A mention by name of the member who is the user counts as mentioning the user, in a
    /// call long after the members were upserted, with other writes in between.
    @Test func aMentionByNameOfTheUserIsFoundInLaterCalls() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.setFavorite(chat: "g1", to: true)
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "1", "hi @Me look", at: 0)])
        try await archive.markRead(chat: "g1")
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "2", "hello @Me again", at: 1)])
        #expect(try await LiveWriteFixtures.row(archive).unreadMentions == 1)
        #expect(try await archive.search("mentions:me").hits.map(\.item.sourceId) == ["2", "1"])
        #expect(try await archive.check() == [])
    }

    @Test func markedDeletedItemsStayAsPlaceholdersAndLeaveSearchAndCounters() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(items: [
            LiveWriteFixtures.message("g1", "1", "first note", at: 0),
            LiveWriteFixtures.message("g1", "2", "secret plans 🗺️", at: 1),
        ])
        try await archive.markDeleted(["2"], in: "g1")
        let window = try await archive.items(in: "g1", window: .last(10))
        #expect(window.items.map(\.sourceId) == ["1", "2"])
        #expect(window.items.map(\.isDeleted) == [false, true])
        #expect(try await archive.search("plans").hits.isEmpty)
        #expect(try await archive.search("plans", options: SearchOptions(includeDeleted: true)).hits.count == 1)
        let row = try await LiveWriteFixtures.row(archive)
        #expect(row.preview.kind == .deleted)
        // As in SimpleX, an unread item marked deleted still counts as unread until it is read.
        #expect((row.itemCount, row.unreadCount) == (2, 2))
        try await archive.markRead(chat: "g1", through: nil)
        #expect(try await LiveWriteFixtures.row(archive).unreadCount == 0)
        #expect(try await archive.check() == [])
    }

    @Test func deletedItemsLeaveWindowsSearchCountersAndPositions() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(
            items: (0..<6).map { LiveWriteFixtures.message("g1", "\($0)", "message number \($0) مرحبا", at: Int64($0)) }
        )
        try await archive.deleteItems(["1", "3"], in: "g1")
        let window = try await archive.items(in: "g1", window: .last(10))
        #expect(window.items.map(\.sourceId) == ["0", "2", "4", "5"])
        #expect(try await archive.search("مرحبا").hits.count == 4)
        let around = try await archive.items(in: "g1", window: .around(window.items[1].id, count: 0))
        #expect(around.navInfo == NavigationInfo(afterTotal: 2, afterUnread: 2))
        try await archive.deleteItems(["5"], in: "g1")
        let row = try await LiveWriteFixtures.row(archive)
        #expect((row.itemCount, row.unreadCount) == (3, 3))
        #expect(row.preview.text == "message number 4 مرحبا")
        #expect(try await archive.check() == [])
    }

    @Test func aDeletedChatIsGoneFromTheListSearchAndMemberLookups() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(chats: [Chat(sourceId: "d1", type: .direct, displayName: "Ana")])
        try await archive.upsert(items: [
            LiveWriteFixtures.message("g1", "1", "ortsgruppe treffen", at: 0),
            LiveWriteFixtures.message("d1", "1", "ortsgruppe direkt", at: 1, from: nil),
        ])
        try await archive.deleteChat("g1")
        #expect(try await archive.chats().map(\.chatId) == ["d1"])
        #expect(try await archive.search("ortsgruppe").hits.map(\.item.chatId) == ["d1"])
        await #expect(throws: (any Error).self) { try await archive.items(in: "g1", window: .last(5)) }
        await #expect(throws: ArchiveError.self) { try await archive.markRead(chat: "g1") }
        #expect(try await archive.check() == [])
    }

    /// Upserts keep chat and member ids cached from one call to the next; a chat deleted and
    /// made again, by this archive or by another connection to the file, or a call that
    /// failed, must never leave a cached id behind.
    @Test func cachedIdsNeverOutliveTheirRows() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        let other = try Archive(path: archive.database.path)
        var expected: [String] = []
        func expectOnly(_ step: String) async throws {
            let row = try await LiveWriteFixtures.row(archive, "g1")
            #expect(row.itemCount == expected.count, "\(step)")
            let window = try await archive.items(in: "g1", window: .last(50))
            #expect(window.items.map(\.sourceId) == expected, "\(step)")
            #expect(window.items.allSatisfy { $0.sender == "Zoë" }, "\(step) \(window.items.map(\.sender))")
            #expect(try await archive.search("wanderung").hits.map(\.item.sourceId) == expected.reversed(), "\(step)")
            #expect(try await archive.check() == [], "\(step)")
        }
        func remake(through archive: Archive) async throws {
            try await archive.deleteChat("g1")
            expected = []
            try await archive.upsert(
                chats: [Chat(sourceId: "g1", type: .group, displayName: "Hiking club")],
                members: [Member(chatSourceId: "g1", sourceId: "m2", displayName: "Zoë")], items: [])
        }
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "a", "wanderung eins", at: 0)])
        expected = ["a"]
        try await expectOnly("first")
        try await remake(through: archive)
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "b", "wanderung zwei", at: 1)])
        expected = ["b"]
        try await expectOnly("after a live delete and a new chat")
        try await remake(through: other)
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "c", "wanderung drei", at: 2)])
        expected = ["c"]
        try await expectOnly("after another connection made the chat again")
        await #expect(throws: ArchiveError.self) {
            try await archive.upsert(items: [LiveWriteFixtures.message("nope", "x", "wanderung", at: 3)])
        }
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "d", "wanderung vier", at: 4)])
        expected = ["c", "d"]
        try await expectOnly("after a failed call")
        _ = try other.ingestSync([
            try TestArchive.writeFile(
                Lines.chat("g1", name: "Hiking club") + "\n"
                    + Lines.item("g1", "e", ts: "2024-05-01T10:05:00Z", text: "wanderung fünf", member: "m2"))
        ])
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "f", "wanderung sechs", at: 6)])
        expected = ["c", "d", "e", "f"]
        try await expectOnly("after another connection's ingest")
    }

    @Test func markReadThroughAnItemByTimeThenAll() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        // Out of order on purpose: "b" is older than "a".
        try await archive.upsert(items: [
            LiveWriteFixtures.message("g1", "a", "one", at: 5), LiveWriteFixtures.message("g1", "b", "two", at: 1),
            LiveWriteFixtures.message("g1", "c", "three", at: 9),
        ])
        try await archive.markRead(chat: "g1", through: "a")
        #expect(try await LiveWriteFixtures.row(archive).unreadCount == 1)
        #expect(try await archive.search("is:unread").hits.map(\.item.sourceId) == ["c"])
        let initial = try await archive.items(in: "g1", window: .initial(0))
        #expect(initial.items.map(\.sourceId) == ["c"])
        #expect(try await archive.items(in: "g1", window: .last(3), search: "is:unread").items.map(\.sourceId) == ["c"])
        try await archive.markRead(chat: "g1")
        #expect(try await LiveWriteFixtures.row(archive).unreadCount == 0)
        #expect(try await archive.search("is:unread").hits.isEmpty)
        #expect(try await archive.chats(filter: .unread).isEmpty)
        try await archive.setMarkedUnread(chat: "g1", to: true)
        #expect(try await archive.chats(filter: .unread).map(\.chatId) == ["g1"])
        try await archive.setMarkedUnread(chat: "g1", to: false)
        #expect(try await archive.chats(filter: .unread).isEmpty)
        #expect(try await archive.check() == [])
    }

    @Test func pinsReactionsAndChatSettings() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(items: [
            LiveWriteFixtures.message("g1", "1", "vote here", at: 0), LiveWriteFixtures.message("g1", "2", "ok", at: 1),
        ])
        try await archive.setPinned(["1"], in: "g1", to: true)
        #expect(try await archive.search("is:pinned").hits.map(\.item.sourceId) == ["1"])
        try await archive.setReactions(
            chat: "g1", item: "1", [Reaction(emoji: "👍", count: 3), Reaction(emoji: "❤️", count: 1)])
        let first = try await archive.items(in: "g1", window: .last(2)).items[0]
        #expect(first.isPinned)
        #expect(first.reactions == [Reaction(emoji: "👍", count: 3), Reaction(emoji: "❤️", count: 1)])
        try await archive.setPinned(["1"], in: "g1", to: false)
        #expect(try await archive.search("is:pinned").hits.isEmpty)

        try await archive.setFavorite(chat: "g1", to: true)
        #expect(try await archive.chats(filter: .favorites).map(\.chatId) == ["g1"])
        try await archive.setNotifications(chat: "g1", .none)
        #expect(try await LiveWriteFixtures.row(archive).isMuted)
        #expect(try await archive.chats(filter: .unread).isEmpty)  // muted: only "marked unread" counts
        try await archive.setTags(chat: "g1", ["outdoors", "друзья"])
        #expect(try await archive.chats(filter: .tag("друзья")).map(\.chatId) == ["g1"])
        try await archive.setAlias(chat: "g1", "Wanderfreunde")
        #expect(try await archive.chats(matching: "wanderfr").map(\.chatId) == ["g1"])
        #expect(try await archive.chats(matching: "hiking").map(\.chatId) == ["g1"])
        try await archive.setDraft(chat: "g1", "half-written 下書き")
        #expect(
            try await LiveWriteFixtures.row(archive).preview
                == ChatPreview(kind: .draft, contentType: .text, text: "half-written 下書き"))
        try await archive.setDraft(chat: "g1", nil)
        #expect(try await LiveWriteFixtures.row(archive).preview.kind == .message)
        #expect(try await archive.check() == [])
    }

    @Test func unknownChatsAndItemsThrowAndChangeNothing() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "1", "hello", at: 0)])
        await #expect(throws: ArchiveError.self) {
            try await archive.upsert(items: [LiveWriteFixtures.message("nope", "1", "x", at: 0)])
        }
        await #expect(throws: ArchiveError.self) {
            try await archive.upsert(members: [Member(chatSourceId: "nope", sourceId: "m", displayName: "X")])
        }
        await #expect(throws: ArchiveError.self) { try await archive.deleteItems(["1", "missing"], in: "g1") }
        await #expect(throws: ArchiveError.self) { try await archive.markDeleted(["missing"], in: "g1") }
        await #expect(throws: ArchiveError.self) { try await archive.markRead(chat: "g1", through: "missing") }
        await #expect(throws: ArchiveError.self) { try await archive.setFavorite(chat: "nope", to: true) }
        do {
            try await archive.deleteChat("nope")
            Issue.record("deleting an unknown chat succeeded")
        } catch let e as ArchiveError {
            #expect(e.message.contains("nope"))
        }
        // The failed delete of ["1", "missing"] removed nothing.
        #expect(try await LiveWriteFixtures.row(archive).itemCount == 1)
        #expect(try await archive.search("hello").hits.count == 1)
        // A chat and its items in one call need no earlier chat.
        try await archive.upsert(
            chats: [Chat(sourceId: "n1", type: .local, displayName: "Notes")], members: [],
            items: [LiveWriteFixtures.message("n1", "1", "buy milk", at: 3, from: nil, dir: .snd)])
        #expect(try await archive.search("milk").hits.map(\.item.chatId) == ["n1"])
        #expect(try await archive.check() == [])
    }

    @Test func aBatchOfItemsIsOneTransactionEvenOutOfOrder() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        let items = (0..<200).map {
            LiveWriteFixtures.message("g1", "\($0)", "batch item \($0) 🎒", at: Int64(($0 * 7919) % 200))
        }
        try await archive.upsert(items: items)
        let window = try await archive.items(in: "g1", window: .last(300))
        #expect(window.items.count == 200)
        let keys = window.items.map { ($0.timestamp, $0.id) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(try await archive.check() == [])
    }

    /// A random sequence of every operation, with `check()` as the oracle after each step and a
    /// model of which items exist and which are marked deleted.
    @Test(arguments: [1, 2, 3]) func randomSequencesKeepTheArchiveConsistent(seed: UInt64) async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(chats: [Chat(sourceId: "g2", type: .group, displayName: "大家好")])
        var rng = SplitMix64(seed: seed)
        var model: [String: [String: Bool]] = ["g1": [:], "g2": [:]]
        let words = ["alpha", "東京", "مرحبا", "😂", "straße", "ไทย", "שלום", "Zoë"]
        var next = 0
        for step in 0..<60 {
            let chat = rng.next() % 2 == 0 ? "g1" : "g2"
            let ids = Array(model[chat, default: [:]].keys).sorted()
            let pick = { (r: inout SplitMix64) -> String? in ids.isEmpty ? nil : ids[Int(r.next() % UInt64(ids.count))]
            }
            switch rng.next() % 8 {
            case 0, 1, 2:
                let count = Int(rng.next() % 4) + 1
                var items: [Item] = []
                for _ in 0..<count {
                    next += 1
                    let minute = Int64(rng.next() % 500)
                    let text = "\(words[Int(rng.next() % 8)]) \(words[Int(rng.next() % 8)]) n\(next)"
                    items.append(
                        LiveWriteFixtures.message(
                            chat, "i\(next)", text, at: minute, from: chat == "g1" ? "m2" : "x\(next % 3)"))
                    model[chat, default: [:]]["i\(next)"] = false
                }
                try await archive.upsert(items: items)
            case 3:
                guard let id = pick(&rng) else { continue }
                let minute = Int64(rng.next() % 500)
                try await archive.upsert(items: [
                    LiveWriteFixtures.message(chat, id, "edited \(words[Int(rng.next() % 8)])", at: minute)
                ])
                model[chat]?[id] = false  // the upserted item is not deleted: the edit says so
            case 4:
                guard let id = pick(&rng) else { continue }
                try await archive.markDeleted([id], in: chat)
                model[chat]?[id] = true
            case 5:
                guard let id = pick(&rng) else { continue }
                try await archive.deleteItems([id], in: chat)
                model[chat]?[id] = nil
            case 6:
                let through = rng.next() % 3 == 0 ? nil : pick(&rng)
                try await archive.markRead(chat: chat, through: through)
            default:
                guard let id = pick(&rng) else { continue }
                try await archive.setPinned([id], in: chat, to: rng.next() % 2 == 0)
            }
            let problems = try await archive.check()
            #expect(problems == [], "step \(step)")
            if !problems.isEmpty { return }
            for c in ["g1", "g2"] {
                let row = try await LiveWriteFixtures.row(archive, c)
                #expect(row.itemCount == model[c]?.count, "step \(step) \(c)")
                let window = try await archive.items(in: c, window: .last(1000))
                #expect(window.items.count == model[c]?.count)
                #expect(
                    Set(window.items.filter(\.isDeleted).map(\.sourceId))
                        == Set(model[c, default: [:]].filter { $0.value }.map(\.key)))
            }
        }
    }
}
