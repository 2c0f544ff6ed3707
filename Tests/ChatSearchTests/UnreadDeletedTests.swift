import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// Unread items that are marked deleted count and open a chat, as in SimpleX.
@Suite struct UnreadDeletedTests {
    /// Six items; 2 unread and marked deleted, 4 unread, 5 marked deleted and read.
    static let fixture: String = {
        var lines = [Lines.chat("c", type: "group", name: "Ð ε 群")]
        let texts = ["первый", "مرحبا 2", "שלום 3", "สวัสดี 4", "こんにちは 5", "👋🏽 6"]
        for k in 1...6 {
            lines.append(
                Lines.item(
                    "c", "s\(k)", ts: "2024-01-01T10:0\(k):00Z", text: texts[k - 1], unread: k == 2 || k == 4,
                    deleted: k == 2 || k == 5))
        }
        return lines.joined(separator: "\n")
    }()

    @Test func initialOpensAtTheOldestUnreadEvenWhenItIsMarkedDeleted() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let w = try await a.items(in: "c", window: .initial(1))
        #expect(w.items.map(\.sourceId) == ["s1", "s2", "s3"])
        // After s3: s4 (unread), s5, s6.
        #expect(w.navInfo == NavigationInfo(afterTotal: 3, afterUnread: 1))
    }

    @Test func onlyDeletedUnreadItemsStillOpenTheChatThere() async throws {
        let only = Self.fixture.replacingOccurrences(
            of: "\"unread\":true,\"deleted\":false", with: "\"unread\":false,\"deleted\":false")
        let (a, _) = try TestArchive.make(jsonl: only)
        let w = try await a.items(in: "c", window: .initial(1))
        #expect(w.items.map(\.sourceId) == ["s1", "s2", "s3"])
        #expect(w.navInfo == NavigationInfo(afterTotal: 3, afterUnread: 0))
        #expect(try await a.chats().first?.unreadCount == 1)
    }

    @Test func unreadCountIncludesMarkedDeletedItemsAndAfterUnreadToo() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        #expect(try await a.chats().first?.unreadCount == 2)
        #expect(try await a.chats(filter: .unread).map(\.chatId) == ["c"])
        let first = try await a.items(in: "c", window: .last(6)).items[0]
        let w = try await a.items(in: "c", window: .around(first.id, count: 0))
        #expect(w.navInfo == NavigationInfo(afterTotal: 5, afterUnread: 2))
        #expect(try await a.check().isEmpty)
    }

    @Test func reimportThatReadsADeletedItemLowersTheCount() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let read = Self.fixture.replacingOccurrences(
            of: "\"unread\":true,\"deleted\":true", with: "\"unread\":false,\"deleted\":true")
        _ = try a.ingestSync([try TestArchive.writeFile(read, name: "later.jsonl")])
        #expect(try await a.chats().first?.unreadCount == 1)
        #expect(try await a.check().isEmpty)
    }

    /// An archive whose counters and index were written under the old rule (deleted items not
    /// counted) is recounted by the migration.
    @Test func migrationRecountsArchivesWrittenUnderTheOldRule() async throws {
        let path = TestArchive.temporaryPath()
        do {
            let a = try Archive(path: path)
            _ = try a.ingestSync([try TestArchive.writeFile(Self.fixture)])
            try await a.database.writer.write { db in
                try db.execute(
                    sql: """
                        DROP INDEX item_unreadAll;
                        CREATE INDEX item_unread ON item(chatId, ts, id, flags) WHERE flags & 6 = 4;
                        UPDATE chat SET unreadCount = 1;
                        DELETE FROM grdb_migrations WHERE identifier = 'v3-unreadIncludesDeleted';
                        """)
            }
        }
        let reopened = try Archive(path: path)
        #expect(try await reopened.chats().first?.unreadCount == 2)
        #expect(try await reopened.check().isEmpty)
        let plan = try await reopened.database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: "EXPLAIN QUERY PLAN SELECT id FROM item WHERE chatId = 1 AND flags & 4 = 4 ORDER BY ts, id LIMIT 1"
            ).map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.joined().contains("item_unreadAll"))
    }
}
