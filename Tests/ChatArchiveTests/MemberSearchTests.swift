import ChatArchive
import ChatTestSupport
import Foundation
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
        try await archive.members(chat: "g1", matching: q, limit: limit).map(\.memberId)
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
            LiveWritesTests.message("g1", "1", "hi", at: 0, from: "ann"),
            LiveWritesTests.message("g1", "2", "hello", at: 5, from: "mar"),
            LiveWritesTests.message("g1", "3", "hey", at: 9, from: "joa"),
        ])
        #expect(try await Self.ids(archive, "ann") == ["mar", "ann", "joa"])
        #expect(try await Self.ids(archive, "ann", limit: 2) == ["mar", "ann"])
        let all = try await archive.members(chat: "g1", matching: "", limit: 3)
        #expect(all.map(\.memberId) == ["joa", "mar", "ann"])
        #expect(all[0].lastActivity == Timestamp(milliseconds: LiveWritesTests.t0 + 9 * 60_000))
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
        #expect(ChatMember(memberId: "a", displayName: "Zoë").mentionText == "@Zoë")
        #expect(ChatMember(memberId: "b", displayName: "Bob M").mentionText == "@'Bob M'")
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
        #expect(try await archive.members(chat: "g1", matching: "").map(\.memberId) == ["m2", "m1"])
        #expect(try await archive.members(chat: "g1", matching: "zo").map(\.memberId) == ["m1"])
    }
}
