import ChatArchive
import ChatIndex
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatSearch

/// The chat-keyed index (`ChatKeys`): a search in one chat through the chat's rowid range
/// returns exactly what the items' index returns, in the same order and pages, however the
/// chat's items arrived (late, edited, deleted, marked deleted, pinned) and after its keys ran
/// out of room and were given again.
@Suite struct ChatKeyedIndexTests {
    static let t0: Int64 = 1_714_557_600_000  // 2024-05-01T10:00:00Z

    static let words = ["alpha", "beta", "gamma", "Straße", "東京", "مرحبا", "שלום", "ไทย", "😂", "ＦＵＬＬ", "café"]

    /// The text of message `n`: two words of ``words`` chosen by `n`, so that every word is in
    /// many messages, rare and frequent ones.
    static func text(_ n: Int) -> String {
        "\(words[n % words.count]) \(words[(n / 3) % 5]) n\(n)"
    }

    static func message(_ chat: String, _ n: Int, minute: Int64, member: String = "m2", image: Bool = false) -> Item {
        Item(
            chatSourceId: chat, sourceId: "i\(n)", timestamp: Timestamp(milliseconds: t0 + minute * 60_000),
            direction: member == "me" ? .snd : .rcv, memberSourceId: member,
            content: MessageContent(type: image ? .image : .text, text: text(n)))
    }

    static func makeArchive() async throws -> Archive {
        let archive = try Archive(path: TestArchive.temporaryPath())
        try await archive.upsert(chats: [
            Chat(sourceId: "g1", type: .group, displayName: "Keyed one"),
            Chat(sourceId: "g2", type: .group, displayName: "Keyed two"),
        ])
        try await archive.upsert(members: [
            Member(chatSourceId: "g1", sourceId: "me", displayName: "Me", isUser: true),
            Member(chatSourceId: "g1", sourceId: "m2", displayName: "Zoë"),
            Member(chatSourceId: "g1", sourceId: "m3", displayName: "Łukasz"),
            Member(chatSourceId: "g2", sourceId: "m2", displayName: "Zoë"),
        ])
        return archive
    }

    /// The chat's keying state (`chat.keyed`).
    static func state(_ archive: Archive, _ chat: String) throws -> Int? {
        try archive.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT keyed FROM chat WHERE sourceId = ?", arguments: [chat])
        }
    }

    static let queries = [
        "", "alpha", "beta", "gamma", "strasse", "東京", "مرحبا", "שלום", "ไทย", "😂", "full", "cafe", "alp", "n1",
        "\"alpha beta\"", "alpha -beta", "from:Zoë", "from:me", "has:image", "alpha OR 東京",
        "after:2024-05-01T10:30:00Z", "gamma before:2024-05-01T11:00:00Z after:2024-05-01T10:10:00Z",
    ]

    /// Every page of `query` in `chat` with keys and without: the same hits in the same order.
    static func expectSameBothWays(
        _ archive: Archive, chat: String, query: String, pageSize: Int, includeDeleted: Bool = false,
        order: SearchOrder = .newest, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws {
        var results: [[String]] = []
        for keys in [true, false] {
            var seen: [String] = []
            var cursor: String? = nil
            var pages = 0
            repeat {
                var options = SearchOptions(
                    chat: chat, limit: pageSize, cursor: cursor, order: order, includeDeleted: includeDeleted)
                options.usesChatKeys = keys
                let page = try await archive.search(query, options: options)
                seen += page.hits.map(\.item.sourceId)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 1_000
            results.append(order == .newest ? seen : seen.sorted())
        }
        #expect(results[0] == results[1], "\(query) in \(chat)", sourceLocation: sourceLocation)
    }

    /// Window filters (`matchingIds`) both ways, below and above an anchor.
    static func expectSameWindowsBothWays(_ archive: Archive, chat: String, query: String) throws {
        try archive.database.writer.read { db in
            guard let chatId = try Int64.fetchOne(db, sql: "SELECT id FROM chat WHERE sourceId = ?", arguments: [chat])
            else { return }
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM item WHERE chatId = ? ORDER BY id", arguments: [chatId])
            // And an id of another chat: the bound is then a search, not the anchor's key.
            let elsewhere = try Int64.fetchOne(
                db, sql: "SELECT id FROM item WHERE chatId <> ? ORDER BY id LIMIT 1 OFFSET 20", arguments: [chatId])
            for anchor in [nil, ids.first, ids.dropFirst(ids.count / 2).first, ids.last, elsewhere] {
                for descending in [true, false] {
                    let (below, above) = descending ? (anchor, nil as Int64?) : (nil as Int64?, anchor)
                    let keyed = try MessageSearch.matchingIds(
                        query, content: nil, chatId: chatId, below: below, above: above, limit: 7,
                        descending: descending, usesChatKeys: true, db)
                    let plain = try MessageSearch.matchingIds(
                        query, content: nil, chatId: chatId, below: below, above: above, limit: 7,
                        descending: descending, usesChatKeys: false, db)
                    #expect(keyed == plain, "\(query) around \(anchor ?? -1)")
                }
            }
        }
    }

    /// The chat-keyed index holds one row per keyed item, with the items' tokens.
    static func expectIndexesAgree(_ archive: Archive, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
    {
        try archive.database.writer.read { db in
            // The filter tokens as the chat-keyed index names them (format 19: under names of their own).
            let positions = try ChatKeys.hasPositions(db)
            let tags: Set<String> = ["all", "xdel", "xpin", "timage"]
            func keyedTerm(_ term: String) -> String {
                guard tags.contains(term) else { return positions ? "{text extra}: \(term)" : term }
                return positions ? "{tags}: \(term)" : ChatKeys.quotedKeyed(term)
            }
            for chat in try Int64.fetchAll(db, sql: "SELECT id FROM chat WHERE keyed = 1") {
                let r = try ChatKeys.Layout.of(db).range(of: chat)
                for term in ["all", "alpha", "東京", "xdel", "xpin", "tImage".lowercased()] {
                    let keyed = try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM itemChatFts WHERE itemChatFts MATCH ? AND rowid BETWEEN ? AND ?",
                        arguments: [keyedTerm(term), r.lowerBound, r.upperBound])
                    let items = try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM itemFts WHERE itemFts MATCH ?",
                        arguments: ["c\(chat) AND \(tags.contains(term) ? "{tags}" : "{text extra}"): \(term)"])
                    #expect(keyed == items, "\(term) in chat \(chat)", sourceLocation: sourceLocation)
                }
                let unkeyed = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM item WHERE chatId = ? AND chatKey IS NULL", arguments: [chat])
                #expect(unkeyed == 0, sourceLocation: sourceLocation)
            }
            let rows = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM itemChatFts WHERE itemChatFts MATCH ?", arguments: [keyedTerm("all")])
            let keys = try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE chatKey IS NOT NULL")
            #expect(rows == keys, sourceLocation: sourceLocation)
        }
    }

    /// Format 19's chat-keyed index has no positions: FTS5 matches a phrase's tokens anywhere in
    /// an item and the statement keeps the candidates whose text holds the phrase in order
    /// (`chat_text_check`), and the filter tokens have names no word takes. Every search,
    /// count, window and histogram in a chat answers as the time-ordered index (which has
    /// positions) answers it: phrases in Latin and every script, the pieces of Han, Kana,
    /// Hangul and Thai runs, excluded phrases, phrases in `OR` groups, words spelled like
    /// filter tokens, filters, deleted items.
    @Test func aChatKeyedIndexWithoutPositionsAnswersAsTheItemsIndex() async throws {
        let archive = try await Self.makeArchive()
        #expect(try await archive.database.writer.read { db in try ChatKeys.hasPositions(db) } == false)
        let texts =
            TextSamples.scripts + [
                "alpha beta", "beta alpha", "alpha gamma beta", "alpha beta gamma", "gamma alpha beta",
                "all of them", "xdel xpin frme timage", "c1 fr2 mn3 all", "東京都に住む", "京都と東京", "東京 都",
                "会議が東京であります", "北京见面", "서울에서 합니다 서울", "ฝนตกหนักมาก", "มากฝนตก",
                "see https://blog.example.fr/x now", "mail me at zoe@example.com", "Москве встреча завтра",
                "Straße aus Grüße", "görüşürüz İstanbul'da",
            ]
        var items: [Item] = []
        for (n, text) in (texts + texts.reversed() + texts).enumerated() {
            items.append(
                Item(
                    chatSourceId: n % 5 == 4 ? "g2" : "g1", sourceId: "p\(n)",
                    timestamp: Timestamp(milliseconds: Self.t0 + Int64(n) * 60_000),
                    direction: n % 3 == 0 ? .snd : .rcv, memberSourceId: n % 3 == 0 ? "me" : "m2",
                    content: MessageContent(type: n % 7 == 0 ? .image : .text, text: text)))
        }
        try await archive.upsert(items: items)
        try await archive.markDeleted(["p3", "p10", "p21"], in: "g1")
        let queries = [
            "\"alpha beta\"", "\"beta alpha\"", "\"alpha beta gamma\"", "alpha -\"alpha beta\"",
            "-\"beta alpha\" alpha", "\"alpha beta\" OR 東京都", "all", "xdel", "frme", "timage", "c1", "fr2",
            "\"all of\"", "東京都", "京都", "東京", "都に", "会議", "北京见", "서울에서", "ฝนตก", "ตกหนัก", "หนักมาก",
            "blog.example", "example.fr", "zoe@example", "\"Москве встреча\"", "\"встреча Москве\"", "strasse aus",
            "\"grüße aus\"", "istanbul'da", "from:me \"alpha beta\"", "has:image 東京", "alpha", "alp", "東京都に住",
        ]
        for chat in ["g1", "g2"] {
            for q in queries {
                try await Self.expectSameBothWays(archive, chat: chat, query: q, pageSize: 3)
                try await Self.expectSameBothWays(archive, chat: chat, query: q, pageSize: 50, includeDeleted: true)
                try Self.expectSameWindowsBothWays(archive, chat: chat, query: q)
                let counts = try await archive.database.writer.read { db in
                    try [true, false].map { keys in
                        var options = SearchOptions(chat: chat)
                        options.usesChatKeys = keys
                        let c = try MessageSearch.count(q, options: options, positionOf: nil, in: db)
                        return [c.total, c.isExact ? 1 : 0]
                    }
                }
                #expect(counts[0] == counts[1], "count of \(q) in \(chat)")
                for keys in [true, false] {
                    var options = SearchOptions(chat: chat)
                    options.usesChatKeys = keys
                    let h = try await archive.histogram(q, by: .week, options: options)
                    #expect(h.total == counts[0][0], "histogram of \(q) in \(chat), keys \(keys)")
                }
            }
        }
        // Phrases the words alone would pass are left out: the check is doing the work.
        let page = try await archive.search("\"beta alpha\"", options: SearchOptions(chat: "g1", limit: 100))
        #expect(!page.hits.isEmpty)
        #expect(page.hits.allSatisfy { $0.item.text.contains("beta alpha") }, "\(page.hits.map(\.item.text))")
        let words = try await archive.search("beta alpha", options: SearchOptions(chat: "g1", limit: 100))
        #expect(words.hits.count > page.hits.count)
        try Self.expectIndexesAgree(archive)
        #expect(try await archive.check() == [])
    }

    @Test func messagesArrivingInAnyOrderKeepTheChatKeyedAndAnswerAsTheItemsIndex() async throws {
        let archive = try await Self.makeArchive()
        // 300 messages over 300 minutes, written in a shuffled order: most arrive late.
        var rng = SplitMix64(seed: 7)
        var order = Array(0..<300)
        order.shuffle(using: &rng)
        var k = 0
        while k < order.count {
            let size = [1, 1, 3, 20][Int(rng.next() % 4)]
            let batch = order[k..<min(k + size, order.count)].map { n in
                Self.message(
                    n % 7 == 0 ? "g2" : "g1", n, minute: Int64(n), member: ["m2", "m3", "me"][n % 3],
                    image: n % 10 == 0)
            }
            try await archive.upsert(items: batch)
            k += size
        }
        #expect(try Self.state(archive, "g1") == 1, "late messages found room between their neighbours")
        #expect(try Self.state(archive, "g2") == 1)
        try Self.expectIndexesAgree(archive)
        for query in Self.queries {
            for chat in ["g1", "g2"] {
                try await Self.expectSameBothWays(archive, chat: chat, query: query, pageSize: 7)
            }
            try Self.expectSameWindowsBothWays(archive, chat: "g1", query: query)
        }
        try await Self.expectSameBothWays(archive, chat: "g1", query: "alpha", pageSize: 5, order: .relevance)
        #expect(try await archive.check().isEmpty)
    }

    @Test func editsDeletionsAndFlagsKeepBothIndexesInStep() async throws {
        let archive = try await Self.makeArchive()
        try await archive.upsert(items: (0..<120).map { Self.message("g1", $0, minute: Int64($0)) })
        // Edits (new text, in this transaction's batch and in later ones), marked deleted,
        // pinned, deleted, and a late message inserted between edited ones.
        var edited = Self.message("g1", 10, minute: 10)
        edited.content = MessageContent(type: .text, text: "東京 edited alpha")
        try await archive.upsert(items: [edited, Self.message("g1", 500, minute: 11)])
        try await archive.upsert(items: [Self.message("g1", 501, minute: 200), Self.message("g1", 501, minute: 200)])
        try await archive.markDeleted(["i20", "i21", "i22"], in: "g1")
        try await archive.setPinned(["i30", "i31"], in: "g1", to: true)
        try await archive.deleteItems(["i40", "i41", "i10"], in: "g1")
        try await archive.setPinned(["i31"], in: "g1", to: false)
        #expect(try Self.state(archive, "g1") == 1)
        try Self.expectIndexesAgree(archive)
        for query in Self.queries + ["is:pinned", "edited", "東京 edited"] {
            try await Self.expectSameBothWays(archive, chat: "g1", query: query, pageSize: 9)
            try await Self.expectSameBothWays(archive, chat: "g1", query: query, pageSize: 50, includeDeleted: true)
        }
        try await archive.deleteChat("g2")
        try await archive.deleteChat("g1")
        let rowsLeft = try await archive.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM itemChatFts WHERE itemChatFts MATCH 'all'")
        }
        #expect(rowsLeft == 0)
        #expect(try await archive.check().isEmpty)
    }

    @Test func lateMessagesBetweenTheSameTwoMakeRoomByMovingTheirNeighbours() async throws {
        let archive = try await Self.makeArchive()
        try await archive.upsert(items: (0..<40).map { Self.message("g1", $0, minute: Int64($0) * 1000) })
        // Each message older than the previous late one, all between the same two messages:
        // the room between their keys halves each time, then the keys around are spread out.
        for k in 0..<300 {
            try await archive.upsert(items: [Self.message("g1", 1000 + k, minute: Int64(20_999 - k))])
        }
        // And runs of late messages written oldest first, in one batch and one by one.
        try await archive.upsert(items: (0..<200).map { Self.message("g1", 2000 + $0, minute: 30_000 + Int64($0)) })
        for k in 0..<50 {
            try await archive.upsert(items: [Self.message("g1", 3000 + k, minute: 5_000 + Int64(k))])
        }
        #expect(try Self.state(archive, "g1") == 1)
        try Self.expectIndexesAgree(archive)
        for query in Self.queries {
            try await Self.expectSameBothWays(archive, chat: "g1", query: query, pageSize: 11)
        }
    }

    /// Messages delivered late into seconds that already hold a later message of the chat (a
    /// group's members writing at once): each takes the first free id after the second's, so
    /// its id follows items later in time, and its key follows those ids. The chat stays keyed,
    /// and every search in it answers as the items' index does.
    @Test func messagesLateWithinABusySecondKeepTheChatKeyed() async throws {
        let archive = try await Self.makeArchive()
        // Two messages in the first second of every four, 200 and 700 ms into it: ids s, s + 1.
        func at(_ n: Int, _ ms: Int64) -> Item {
            var item = Self.message("g1", n, minute: 0, member: n % 3 == 0 ? "me" : "m2")
            item.timestamp = Timestamp(milliseconds: Self.t0 + ms)
            return item
        }
        try await archive.upsert(items: (0..<80).map { at($0, Int64($0 / 2) * 4_000 + ($0 % 2 == 0 ? 200 : 700)) })
        // Late ones, 100 ms into such a second: id s + 2, after both messages later in time.
        // One by one, then in one batch.
        for k in 0..<20 { try await archive.upsert(items: [at(1_000 + k, Int64(k) * 4_000 + 100)]) }
        try await archive.upsert(items: (20..<40).map { at(1_000 + $0, Int64($0) * 4_000 + 100) })
        let lateIds = try await archive.database.writer.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT id - ? FROM item WHERE sourceId LIKE 'i1___' ORDER BY id", arguments: [Self.t0 / 1_000]
            )
        }
        #expect(lateIds == (0..<40).map { Int64($0) * 4 + 2 }, "after the ids of their second's two messages")
        #expect(try Self.state(archive, "g1") == 1)
        try Self.expectIndexesAgree(archive)
        for query in Self.queries {
            try await Self.expectSameBothWays(archive, chat: "g1", query: query, pageSize: 13)
        }
    }

    @Test func aChatWhoseKeysCannotFollowItsIdsIsSearchedWithoutThemUntilKeyedAgain() async throws {
        let archive = try await Self.makeArchive()
        try await archive.upsert(items: (0..<100).map { Self.message("g1", $0, minute: Int64($0) * 10) })
        // An edit moves message 0 to the end in time; its id (and key) stay first. A message
        // then written at the old start of the chat has no keyed neighbour before it in time;
        // its neighbours in id, one key along, take it between them (keys follow ids).
        try await archive.upsert(items: [Self.message("g1", 0, minute: 1_000)])
        #expect(try Self.state(archive, "g1") == 1)
        var early = Self.message("g1", 100, minute: 0)
        early.timestamp = Timestamp(milliseconds: Self.t0 + 30_000)
        try await archive.upsert(items: [early])
        #expect(try Self.state(archive, "g1") == 1, "keyed between its neighbours in id")
        try Self.expectIndexesAgree(archive)
        // An edit moves message 99, the last in id, to the start in time. A message then
        // written just after it in time has it as its neighbour in time, at the chat's last
        // key, further from its place in ids than the writer walks: the chat loses its keys.
        var moved = Self.message("g1", 99, minute: 0)
        moved.timestamp = Timestamp(milliseconds: Self.t0 + 40_000)
        try await archive.upsert(items: [moved])
        #expect(try Self.state(archive, "g1") == 1)
        var afterMoved = Self.message("g1", 101, minute: 0)
        afterMoved.timestamp = Timestamp(milliseconds: Self.t0 + 50_000)
        try await archive.upsert(items: [afterMoved])
        #expect(try Self.state(archive, "g1") == 0, "the chat lost its keys")
        let (keysLeft, pending) = try await archive.database.writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE chatKey IS NOT NULL"),
                try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'chatKeysPending'")
            )
        }
        #expect(keysLeft == 0)
        #expect(pending == "1")
        // Searched through the items' index meanwhile, and written to.
        try await archive.upsert(items: [Self.message("g1", 300, minute: 2000), Self.message("g1", 301, minute: 55)])
        let want = Set((0..<100).map { "i\($0)" } + ["i100", "i101", "i300", "i301"])
        let all = try await archive.search("", options: SearchOptions(chat: "g1", limit: 1000))
        #expect(Set(all.hits.map(\.item.sourceId)) == want)
        // In transactions of 7 items (a chat bigger than one transaction).
        try archive.database.keyChatsIfPending(chunk: 7)
        #expect(try Self.state(archive, "g1") == 1)
        try Self.expectIndexesAgree(archive)
        for query in Self.queries {
            try await Self.expectSameBothWays(archive, chat: "g1", query: query, pageSize: 4)
        }
        // Keyed again, it takes late messages as before.
        try await archive.upsert(items: [Self.message("g1", 302, minute: 1)])
        #expect(try Self.state(archive, "g1") == 1)
        try Self.expectIndexesAgree(archive)
    }

    @Test func anIngestOfAShuffledExportEndsWithEveryChatKeyed() async throws {
        var lines = [Lines.chat("p1", name: "Shuffled"), Lines.member("p1", "alice", "Alice")]
        var rng = SplitMix64(seed: 11)
        var order = Array(0..<400)
        order.shuffle(using: &rng)
        for n in order {
            let ts = String(format: "2024-03-01T%02d:%02d:00Z", n / 60, n % 60)
            lines.append(Lines.item("p1", "e\(n)", ts: ts, text: Self.text(n), member: "alice"))
        }
        let (archive, _) = try TestArchive.make(jsonl: lines.joined(separator: "\n"))
        #expect(try Self.state(archive, "p1") == 1)
        try Self.expectIndexesAgree(archive)
        for query in Self.queries {
            try await Self.expectSameBothWays(archive, chat: "p1", query: query, pageSize: 13)
        }
        // A rebuild of the full-text indexes keeps the keys and refills both.
        try archive.database.rebuildIndexes(chunk: 50)
        try Self.expectIndexesAgree(archive)
        try await Self.expectSameBothWays(archive, chat: "p1", query: "alpha", pageSize: 13)
    }
}
