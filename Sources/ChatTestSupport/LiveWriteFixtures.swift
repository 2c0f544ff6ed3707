import ChatArchive
import Testing

/// A group chat and its messages for tests of live writes and of what reads see after them.
package enum LiveWriteFixtures {
    package static let t0: Int64 = 1_714_557_600_000  // 2024-05-01T10:00:00Z

    package static func message(
        _ chat: String, _ id: String, _ text: String, at minute: Int64, from member: String? = "m2",
        unread: Bool = true,
        dir: ItemDirection = .rcv, mentions: [String: MentionTarget] = [:]
    ) -> Item {
        Item(
            chatSourceId: chat, sourceId: id, timestamp: Timestamp(milliseconds: t0 + minute * 60_000), direction: dir,
            memberSourceId: member, content: MessageContent(type: .text, text: text), mentions: mentions,
            isUnread: unread)
    }

    /// A group with the user, Zoë and Łukasz, and no items.
    package static func makeGroup() async throws -> Archive {
        let archive = try Archive(path: TestArchive.temporaryPath())
        try await archive.upsert(chats: [Chat(sourceId: "g1", type: .group, displayName: "Hiking club")])
        try await archive.upsert(members: [
            Member(chatSourceId: "g1", sourceId: "me", displayName: "Me", isUser: true),
            Member(chatSourceId: "g1", sourceId: "m2", displayName: "Zoë", fullName: "Zoë Smith"),
            Member(chatSourceId: "g1", sourceId: "m3", displayName: "Łukasz"),
        ])
        return archive
    }

    package static func row(_ archive: Archive, _ chat: String = "g1") async throws -> ChatRow {
        try #require(try await archive.chats().first { $0.chatId == chat })
    }
}
