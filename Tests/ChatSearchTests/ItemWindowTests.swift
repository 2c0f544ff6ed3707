import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

@Suite struct ItemWindowTests {
    /// Ten items; 3, 4 and 5 share one timestamp; 7 and 9 are images; 6 and 8 unread.
    static let fixture: String = {
        var lines = [Lines.chat("c", type: "direct", name: "Ann")]
        let times = ["01", "02", "03", "03", "03", "04", "05", "06", "07", "08"]
        for k in 1...10 {
            let type = (k == 7 || k == 9) ? "image" : "text"
            lines.append(
                Lines.item(
                    "c", "s\(k)", ts: "2024-01-01T10:\(times[k - 1]):00Z", text: "message number \(k)", type: type,
                    unread: k == 6 || k == 8))
        }
        return lines.joined(separator: "\n")
    }()

    func ids(_ archive: Archive) throws -> [String: Int64] {
        let rows = try archive.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, sourceId FROM item")
        }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["sourceId"] as String, $0["id"] as Int64) })
    }

    @Test func lastReturnsTheNewestOldestFirst() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let w = try await a.items(in: "c", window: .last(3))
        #expect(w.items.map(\.sourceId) == ["s8", "s9", "s10"])
        #expect(w.navInfo == nil)
    }

    @Test func tiesOnTimestampAreBrokenById() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let id = try ids(a)
        let before = try await a.items(in: "c", window: .before(id["s5"]!, count: 2))
        #expect(before.items.map(\.sourceId) == ["s3", "s4"])
        let after = try await a.items(in: "c", window: .after(id["s3"]!, count: 2))
        #expect(after.items.map(\.sourceId) == ["s4", "s5"])
    }

    @Test func aroundIncludesTheAnchorEvenWhenTheFilterExcludesIt() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let id = try ids(a)
        let w = try await a.items(in: "c", window: .around(id["s8"]!, count: 1), content: .image)
        #expect(w.items.map(\.sourceId) == ["s7", "s8", "s9"])
        let plain = try await a.items(in: "c", window: .around(id["s4"]!, count: 2))
        #expect(plain.items.map(\.sourceId) == ["s2", "s3", "s4", "s5", "s6"])
    }

    @Test func navInfoIgnoresFilters() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let id = try ids(a)
        let w = try await a.items(in: "c", window: .around(id["s5"]!, count: 1), content: .image)
        // Newest returned is s7 (the next image); after it: s8, s9, s10, of which s8 unread.
        #expect(w.items.map(\.sourceId) == ["s5", "s7"])
        #expect(w.navInfo == NavigationInfo(afterTotal: 3, afterUnread: 1))
    }

    @Test func initialOpensAtTheOldestUnread() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let w = try await a.items(in: "c", window: .initial(1))
        #expect(w.items.map(\.sourceId) == ["s5", "s6", "s7"])
        #expect(w.navInfo == NavigationInfo(afterTotal: 3, afterUnread: 1))
    }

    @Test func initialWithNothingUnreadIsLast() async throws {
        let (a, _) = try TestArchive.make(
            jsonl: Self.fixture.replacingOccurrences(of: "\"unread\":true", with: "\"unread\":false"))
        let w = try await a.items(in: "c", window: .initial(2))
        #expect(w.items.map(\.sourceId) == ["s9", "s10"])
        #expect(w.navInfo == NavigationInfo(afterTotal: 0, afterUnread: 0))
    }

    @Test func unknownIdIsAClearError() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        await #expect {
            _ = try await a.items(in: "c", window: .around(42, count: 3))
        } throws: { e in
            (e as? ArchiveError).map { $0.code == .unknownItem && $0.message.contains("no item with id 42") } == true
        }
        await #expect { _ = try await a.items(in: "nope", window: .last(3)) } throws: {
            ($0 as? ArchiveError)?.code == .unknownChat
        }
    }

    @Test func searchHitsOpenInContext() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let hit = try #require(try await a.search("number 4").hits.first)
        let w = try await a.context(of: hit, count: 1)
        #expect(w.items.map(\.sourceId) == ["s3", "s4", "s5"])
    }
}
