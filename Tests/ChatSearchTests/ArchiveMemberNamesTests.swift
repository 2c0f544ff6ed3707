import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// `from:` autocomplete across chats (`Archive.memberNames(matching:limit:)`): the members of
/// every chat, one row per folded name with its number of chats, ranked as mention autocomplete.
@Suite struct ArchiveMemberNamesTests {
    static func makeArchive() async throws -> Archive {
        let archive = try Archive(path: TestArchive.temporaryPath())
        try await archive.upsert(chats: [
            Chat(sourceId: "g1", type: .group, displayName: "Crew"),
            Chat(sourceId: "g2", type: .group, displayName: "Family"),
            Chat(sourceId: "g3", type: .group, displayName: "Work"),
        ])
        try await archive.upsert(members: [
            Member(chatSourceId: "g1", sourceId: "me", displayName: "Zoran", isUser: true),
            Member(chatSourceId: "g1", sourceId: "zoe", displayName: "Zoë"),
            Member(chatSourceId: "g2", sourceId: "zoe2", displayName: "ZOË"),
            Member(chatSourceId: "g3", sourceId: "zoe3", displayName: "Zoë", fullName: "Zoë Smith", localAlias: "Zo"),
            Member(chatSourceId: "g2", sourceId: "dim", displayName: "Дмитрий"),
            Member(chatSourceId: "g3", sourceId: "wang", displayName: "王小明"),
            Member(chatSourceId: "g3", sourceId: "amr", displayName: "عمرو"),
            Member(chatSourceId: "g2", sourceId: "somchai", displayName: "สมชาย"),
            Member(chatSourceId: "g1", sourceId: "joa", displayName: "Joanna"),
            Member(chatSourceId: "g2", sourceId: "ann", displayName: "Anna"),
            Member(chatSourceId: "g3", sourceId: "old", displayName: "Zoltan", hasLeft: true),
            Member(chatSourceId: "g1", sourceId: "emoji", displayName: "🎉 Party"),
        ])
        return archive
    }

    @Test(arguments: [
        ("zo", ["Zoë"]), ("zoë", ["Zoë"]), ("dm", ["Дмитрий"]), ("дми", ["Дмитрий"]), ("小明", ["王小明"]),
        ("عمر", ["عمرو"]), ("สมช", ["สมชาย"]), ("party", ["🎉 Party"]), ("qq", []),
    ])
    func foldsAndTransliteratesAcrossChats(query: String, expected: [String]) async throws {
        let archive = try await Self.makeArchive()
        let names = try await archive.memberNames(matching: query).map(\.name)
        // Any spelling of the name (the newest writer's): compared without case.
        #expect(names.map { $0.lowercased() } == expected.map { $0.lowercased() })
    }

    @Test func oneRowPerNameWithItsChatsAndNeitherTheUserNorLeavers() async throws {
        let archive = try await Self.makeArchive()
        let zo = try await archive.memberNames(matching: "zo")
        #expect(zo.count == 1)
        #expect(zo.first?.chats == 3)
        let all = try await archive.memberNames(matching: "", limit: 100)
        #expect(!all.contains { $0.name == "Zoran" || $0.name == "Zoltan" })
        #expect(all.count == 8)
    }

    @Test func wordStartsComeFirstThenRecentWriters() async throws {
        let archive = try await Self.makeArchive()
        // "ann": Anna starts with it; Joanna holds it inside.
        #expect(try await archive.memberNames(matching: "ann").map(\.name) == ["Anna", "Joanna"])
        try await archive.upsert(items: [
            LiveWriteFixtures.message("g1", "1", "hi", at: 0, from: "zoe"),
            LiveWriteFixtures.message("g2", "2", "hello", at: 5, from: "dim"),
        ])
        let recent = try await archive.memberNames(matching: "", limit: 2).map(\.name)
        #expect(recent == ["Дмитрий", "Zoë"])
        let json = ArchiveJSON.memberNames(try await archive.memberNames(matching: "zo"))
        #expect(json.hasPrefix(#"{"names":[{"name":"#))
        #expect(json.contains(#""chats":3"#))
    }
}
