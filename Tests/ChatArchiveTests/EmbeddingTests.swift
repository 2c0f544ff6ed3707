import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// The code of the "Embedding ChatArchive in a chat app" article
/// (Sources/ChatArchive/ChatArchive.docc/EmbeddingInAChatApp.md), run with its results
/// checked. Keep the two in step.
@Suite struct EmbeddingTests {
    @Test func embeddingChatArchiveInAChatApp() async throws {
        try await TestTemporary.withTemporaryDirectory("embedding") { dir in
            // Open the app's archive (created on first launch).
            let archive = try Archive(path: dir + "/chats.sqlite")

            // A group arrives, with its members.
            try await archive.upsert(chats: [Chat(sourceId: "g1", type: .group, displayName: "Hiking club")])
            try await archive.upsert(members: [
                Member(chatSourceId: "g1", sourceId: "me", displayName: "Sam", isUser: true),
                Member(chatSourceId: "g1", sourceId: "zoe", displayName: "Zoë", fullName: "Zoë Smith"),
                Member(chatSourceId: "g1", sourceId: "lukasz", displayName: "Łukasz"),
            ])

            // Watch the chat list while messages arrive.
            let chatList = Task {
                var seen: [[ChatRow]] = []
                for try await rows in archive.observeChats(matching: nil, filter: .all) {
                    seen.append(rows)
                    if rows.first?.unreadCount == 3 { break }
                }
                return seen
            }

            // Messages arrive: store each as it comes.
            func received(_ id: String, from member: String, _ text: String, minute: Int64) -> Item {
                Item(
                    chatSourceId: "g1", sourceId: id,
                    timestamp: Timestamp(milliseconds: 1_714_557_600_000 + minute * 60_000),
                    direction: .rcv, memberSourceId: member, content: MessageContent(type: .text, text: text),
                    isUnread: true)
            }
            try await archive.upsert(items: [
                received("1001", from: "zoe", "Summit at *Heinestraße* 5, 9:00 🏔️", minute: 0)
            ])
            try await archive.upsert(items: [received("1002", from: "lukasz", "Bringing the map 地图", minute: 1)])
            try await archive.upsert(items: [received("1003", from: "zoe", "Who has the stove?", minute: 2)])

            let rows = try await chatList.value
            #expect(rows.last?.first?.preview.text == "Who has the stove?")
            #expect(rows.last?.first?.preview.sender == "Zoë")

            // An edit arrives for a stored message: the same ids, new text.
            var edited = received("1003", from: "zoe", "Who has the gas stove?", minute: 2)
            edited.isEdited = true
            try await archive.upsert(items: [edited])

            // Search as you type inside the chat: each keystroke is a query; the last word is a prefix.
            var page: SearchPage?
            for typed in ["h", "he", "hei", "heine"] {
                page = try await archive.search(typed, options: SearchOptions(chat: "g1", limit: 20))
            }
            #expect(page?.hits.map(\.item.sourceId) == ["1001"])
            let hit = try #require(page?.hits.first)
            // Ranges are UTF-16 offsets, as NSString and NSAttributedString count.
            let text = hit.item.text as NSString
            let highlighted = hit.ranges.map {
                text.substring(with: NSRange(location: $0.lowerBound, length: $0.count))
            }
            #expect(highlighted == ["Heinestraße"])

            // Open the hit in context: the chat scrolled to it, with what follows.
            let window = try await archive.items(chat: "g1", .around(hit.item.id, count: 25))
            #expect(window.items.map(\.sourceId) == ["1001", "1002", "1003"])
            #expect(window.navInfo == NavigationInfo(afterTotal: 0, afterUnread: 0))  // nothing newer to load

            // The user reads up to the newest message on screen.
            try await archive.markRead(chat: "g1", through: "1003")
            let unread = try await archive.unreadCounters()
            #expect(unread == UnreadCounters(unreadChats: 0, unreadItems: 0, unreadMentions: 0))

            // The user types "@zo" in the compose bar: offer the matching members.
            let people = try await archive.members(chat: "g1", matching: "zo", limit: 10)
            #expect(people.map(\.displayName) == ["Zoë"])
            #expect(people.first?.mentionText == "@Zoë")
            let lu = try await archive.members(chat: "g1", matching: "lu", limit: 10)
            #expect(lu.map(\.displayName) == ["Łukasz"])

            // A message is deleted for everyone: SimpleX keeps a placeholder.
            try await archive.markDeleted(chat: "g1", items: ["1002"])
            #expect(try await archive.search("map").hits.isEmpty)
            #expect(try await archive.items(chat: "g1", .last(3)).items.map(\.isDeleted) == [false, true, false])
            #expect(try await archive.check() == [])
        }
    }
}
