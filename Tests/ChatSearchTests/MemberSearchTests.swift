import ChatArchive
import ChatTestSupport
import ChatText
import Foundation
import GRDB
import Testing

/// Mention autocomplete (`Archive.members(chat:matching:limit:)`): the analyser's folding,
/// word starts before inner parts, recent writers first, the user and members who left excluded.
@Suite struct MemberSearchTests {
    static func makeGroup() async throws -> Archive {
        let archive = try Archive(path: TestArchive.temporaryPath())
        try await archive.upsert(chats: [Chat(sourceId: "g1", type: .group, displayName: "Crew")])
        try await archive.upsert(members: [
            Member(chatSourceId: "g1", sourceId: "me", displayName: "Zoran", isUser: true),
            Member(chatSourceId: "g1", sourceId: "zoe", displayName: "Zoë", fullName: "Zoë Smith"),
            Member(chatSourceId: "g1", sourceId: "luk", displayName: "Łukasz"),
            Member(chatSourceId: "g1", sourceId: "dim", displayName: "Дмитрий"),
            Member(chatSourceId: "g1", sourceId: "ann", displayName: "Anna"),
            Member(chatSourceId: "g1", sourceId: "joa", displayName: "Joanna"),
            Member(chatSourceId: "g1", sourceId: "mar", displayName: "Anne-Marie", localAlias: "Mimi"),
            Member(chatSourceId: "g1", sourceId: "wang", displayName: "王小明"),
            Member(chatSourceId: "g1", sourceId: "old", displayName: "Zoltan", hasLeft: true),
            Member(chatSourceId: "g1", sourceId: "amr", displayName: "عمرو"),
        ])
        return archive
    }

    static func ids(_ archive: Archive, _ q: String, limit: Int = 10) async throws -> [String] {
        try await archive.members(chat: "g1", matching: q, limit: limit).map(\.sourceId)
    }

    @Test(arguments: [
        ("zo", ["zoe"]), ("ZOË", ["zoe"]), ("lu", ["luk"]), ("łuk", ["luk"]), ("dm", ["dim"]), ("дми", ["dim"]),
        ("smi", ["zoe"]), ("mimi", ["mar"]), ("marie", ["mar"]), ("小明", ["wang"]), ("عمر", ["amr"]), ("qq", []),
    ])
    func foldsAndTransliteratesNames(query: String, expected: [String]) async throws {
        let archive = try await Self.makeGroup()
        #expect(try await Self.ids(archive, query) == expected)
    }

    @Test func wordStartsComeBeforeInnerPartsThenRecentWritersFirst() async throws {
        let archive = try await Self.makeGroup()
        // "ann": Anna and Anne-Marie start with it; Joanna holds it inside.
        let before = try await Self.ids(archive, "ann")
        #expect(Set(before.prefix(2)) == ["ann", "mar"])
        #expect(before.last == "joa")
        try await archive.upsert(items: [
            LiveWriteFixtures.message("g1", "1", "hi", at: 0, from: "ann"),
            LiveWriteFixtures.message("g1", "2", "hello", at: 5, from: "mar"),
            LiveWriteFixtures.message("g1", "3", "hey", at: 9, from: "joa"),
        ])
        #expect(try await Self.ids(archive, "ann") == ["mar", "ann", "joa"])
        #expect(try await Self.ids(archive, "ann", limit: 2) == ["mar", "ann"])
        let all = try await archive.members(chat: "g1", matching: "", limit: 3)
        #expect(all.map(\.sourceId) == ["joa", "mar", "ann"])
        #expect(all[0].lastActivity == Timestamp(milliseconds: LiveWriteFixtures.t0 + 9 * 60_000))
    }

    @Test func theUserAndMembersWhoLeftAreNotOffered() async throws {
        let archive = try await Self.makeGroup()
        #expect(try await Self.ids(archive, "zo") == ["zoe"])  // not Zoran (the user), not Zoltan (left)
        try await archive.upsert(members: [
            Member(chatSourceId: "g1", sourceId: "zoe", displayName: "Zoë", hasLeft: true)
        ])
        #expect(try await Self.ids(archive, "zo") == [])
        try await archive.upsert(members: [Member(chatSourceId: "g1", sourceId: "old", displayName: "Zoltan")])
        #expect(try await Self.ids(archive, "zo") == ["old"])
    }

    @Test func mentionTextQuotesNamesWithSpaces() {
        #expect(ChatMember(sourceId: "a", displayName: "Zoë").mentionText == "@Zoë")
        #expect(ChatMember(sourceId: "b", displayName: "Bob M").mentionText == "@'Bob M'")
    }

    @Test func anUnknownChatThrows() async throws {
        let archive = try await Self.makeGroup()
        await #expect(throws: (any Error).self) { try await archive.members(chat: "nope", matching: "a") }
    }

    @Test func membersOfAnIngestedArchiveAreSearchableAfterTheMigration() async throws {
        let (archive, _) = try TestArchive.make(
            jsonl: [
                Lines.chat("g1"), Lines.member("g1", "m1", "Zoë"), Lines.member("g1", "m2", "Łukasz"),
                #"{"kind":"member","chatId":"g1","memberId":"m3","displayName":"Zoltan","left":true}"#,
                Lines.item("g1", "1", ts: "2024-05-01T10:00:00Z", text: "hi", member: "m2"),
            ].joined(separator: "\n"))
        #expect(try await archive.members(chat: "g1", matching: "").map(\.sourceId) == ["m2", "m1"])
        #expect(try await archive.members(chat: "g1", matching: "zo").map(\.sourceId) == ["m1"])
    }
    /// The trigram index answers exactly what testing every member's names answers: the same
    /// members in the same order, in two groups of many scripts, for queries of 1 to 6
    /// characters cut from the names, and for queries found nowhere.
    @Test func theNameIndexAnswersWhatAWalkOverEveryMemberAnswers() async throws {
        let path = TestArchive.temporaryPath()
        let archive = try Archive(path: path)
        let names = [
            "Zoë Smith", "Łukasz Nowak", "Дмитрий Иванов", "王小明", "山田太郎", "김민수", "สมชาย ใจดี", "عمرو خالد",
            "דוד לוי", "राहुल शर्मा", "Jürgen Groß", "Işıl Yılmaz", "Ｆｕｌｌ Ｗｉｄｔｈ", "Rene\u{301}e", "🦊 Fox",
            "Anna", "Joanna", "Anne-Marie", "Hannah", "Ann Lee",
        ]
        var rng = SplitMix64(seed: 7)
        for g in ["g1", "g2"] {
            try await archive.upsert(chats: [Chat(sourceId: g, type: .group, displayName: g)])
            var members: [Member] = []
            var items: [Item] = []
            for k in 0..<120 {
                let name = names[Int(rng.next() % UInt64(names.count))] + (k % 3 == 0 ? " \(k)" : "")
                members.append(
                    Member(
                        chatSourceId: g, sourceId: "\(g)-\(k)", displayName: name,
                        localAlias: k % 7 == 0 ? "alias\(k)" : "",
                        hasLeft: k % 11 == 0))
                if k % 2 == 0 {
                    items.append(
                        LiveWriteFixtures.message(g, "\(k)", "hi", at: Int64(rng.next() % 1000), from: "\(g)-\(k)"))
                }
            }
            try await archive.upsert(members: members)
            try await archive.upsert(items: items)
        }
        var queries = [
            "qqz", "xyzzy", "ann", "an", "a", "zoe", "łuk", "luk", "дми", "dmi", "小明", "ｆｕｌｌ", "full", "ren",
        ]
        for name in names {
            let scalars = Array(name.unicodeScalars)
            for length in 1...6 where length <= scalars.count {
                let start = Int(rng.next() % UInt64(scalars.count - length + 1))
                var q = String.UnicodeScalarView()
                q.append(contentsOf: scalars[start..<start + length])
                queries.append(String(q))
            }
        }
        let queue = try DatabaseQueue(path: path)
        for g in ["g1", "g2"] {
            for q in queries {
                let key = TextNormalizer.normalize(q.trimmingCharacters(in: .whitespaces))
                let expected = try await queue.read { db in
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT m.sourceId FROM member m JOIN chat c ON c.id = m.chatId
                            WHERE c.sourceId = ? AND m.isUser = 0 AND m.hasLeft = 0
                                AND (? = '' OR instr(m.searchKey, ?) > 0 OR instr(m.nameKey, ?) > 0)
                            ORDER BY instr(m.searchKey, char(10) || ?) > 0 DESC, m.lastTs DESC, m.id LIMIT 1000
                            """, arguments: [g, key, key, key, key])
                }
                let found = try await archive.members(chat: g, matching: q, limit: 1000).map(\.sourceId)
                #expect(found == expected, "\(g) \(q)")
            }
        }
    }
}
