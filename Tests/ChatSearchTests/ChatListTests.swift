import ChatArchive
import ChatTestSupport
import Foundation
import Testing

@Suite struct ChatListTests {
    static let fixture = [
        Lines.chat("d1", type: "direct", name: "Zoë", favorite: true),
        Lines.chat("muted", type: "group", name: "Muted group", notifications: "none"),
        Lines.chat("mutedMarked", type: "group", name: "Muted but marked", notifications: "none", unreadChat: true),
        Lines.chat("mentionsOnly", type: "group", name: "Mentions only", notifications: "mentions"),
        Lines.chat("req", type: "contactRequest", name: "Request from Łukasz"),
        Lines.chat("pending", type: "contactConnection", name: "Pending invite"),
        Lines.chat("shop", type: "group", name: "Bike shop", business: "business"),
        Lines.chat("client", type: "group", name: "Customer Дмитрий", alias: "Dima", business: "customer"),
        Lines.chat("notes", type: "local", name: "Notes", tags: ["work"]),
        Lines.chat("club", type: "group", name: "Hiking club", fullName: "Alpine Hiking Club", alias: "Hikers", tags: ["friends"]),
        Lines.item("d1", "1", ts: "2024-01-01T10:00:00Z", text: "hi", unread: true),
        Lines.item("muted", "1", ts: "2024-01-02T10:00:00Z", text: "noise", unread: true),
        Lines.item("mutedMarked", "1", ts: "2024-01-03T10:00:00Z", text: "old"),
        Lines.item("mentionsOnly", "1", ts: "2024-01-04T10:00:00Z", text: "not for you", unread: true),
        Lines.item("club", "1", ts: "2024-01-05T10:00:00Z", text: "summit!", member: "m1", type: "image"),
        Lines.member("club", "m1", "Zoë"),
        Lines.item("shop", "1", ts: "2024-01-06T10:00:00Z", text: "gone", deleted: true),
        Lines.item("client", "r", ts: "2024-01-07T10:00:00Z", text: "spam", type: "report"),
    ].joined(separator: "\n")

    func names(_ rows: [ChatRow]) -> [String] { rows.map(\.chatId) }

    @Test func unreadExcludesMutedUnlessMarked() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        #expect(Set(names(try await a.chats(filter: .unread))) == ["d1", "mutedMarked"])
    }

    @Test func contactsIncludeRequestsPendingAndCustomerBusinessChats() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        #expect(Set(names(try await a.chats(filter: .contacts))) == ["d1", "req", "pending", "client"])
        #expect(Set(names(try await a.chats(filter: .business))) == ["shop"])
        #expect(Set(names(try await a.chats(filter: .groups))) == ["muted", "mutedMarked", "mentionsOnly", "club"])
        #expect(names(try await a.chats(filter: .notes)) == ["notes"])
        #expect(names(try await a.chats(filter: .favorites)) == ["d1"])
        #expect(names(try await a.chats(filter: .tag("friends"))) == ["club"])
        #expect(names(try await a.chats(filter: .reports)) == ["client"])
    }

    @Test func sortedByLastActivity() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let all = names(try await a.chats())
        #expect(Array(all.prefix(6)) == ["client", "shop", "club", "mentionsOnly", "mutedMarked", "muted"])
        #expect(all.count == 10)
    }

    @Test(arguments: [
        ("zoe", "d1"), ("ZOË", "d1"), ("alpine", "club"), ("hikers", "club"), ("hiking", "club"), ("dima", "client"),
        ("bike", "shop"), ("invite", "pending"),
    ])
    func nameSearchCoversEveryNameField(query: String, expected: String) async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        #expect(names(try await a.chats(matching: query)).contains(expected))
    }

    @Test func nameSearchCombinesWithATab() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        #expect(names(try await a.chats(matching: "zoe", filter: .groups)) == [])
        #expect(names(try await a.chats(matching: "club", filter: .groups)) == ["club"])
    }

    @Test func previewShowsSenderKindAndDeletion() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let rows = try await a.chats()
        let club = try #require(rows.first { $0.chatId == "club" })
        #expect(club.preview.kind == .message)
        #expect(club.preview.sender == "Zoë")
        #expect(club.preview.contentType == .image)
        #expect(rows.first { $0.chatId == "shop" }?.preview.kind == .deleted)
        #expect(rows.first { $0.chatId == "req" }?.preview.kind == ChatPreview.Kind.none)
        #expect(rows.first { $0.chatId == "d1" }?.unreadCount == 1)
    }
}
