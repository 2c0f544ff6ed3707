import ChatArchive
import ChatTestSupport
import Foundation
import Testing

@testable import ChatSearch

/// Newest-first order is `(ts, id)` descending, ties on one timestamp broken by id (the order
/// items arrived in), and cursor paging returns every match exactly once, down to the first.
@Suite struct PagingTests {
    struct Entry: Sendable {
        var n: Int
        var chat: String
        var member: String
        var minute: Int
        var isImage: Bool
        var isDeleted: Bool
        var arrival: Int
        var sourceId: String { "e\(n)" }
        var text: String { "entry \(n) " + (n % 2 == 0 ? "even" : "odd") }
    }

    /// 150 items in two chats, six to a timestamp (ties across chats too), imported in a shuffled
    /// but fixed order so that id order within a tie is not the order of `n`.
    static let entries: [Entry] = {
        var order = Array(0..<150)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for k in stride(from: order.count - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            order.swapAt(k, Int((state >> 33) % UInt64(k + 1)))
        }
        var arrival = [Int](repeating: 0, count: 150)
        for (k, n) in order.enumerated() { arrival[n] = k }
        return (0..<150).map { n in
            let chat = n % 4 == 0 ? "p2" : "p1"
            let member = chat == "p2" ? "carol" : (n % 3 == 0 ? "alice" : "bob")
            return Entry(
                n: n, chat: chat, member: member, minute: n / 6, isImage: n % 5 == 0, isDeleted: n % 11 == 0,
                arrival: arrival[n])
        }
    }()

    static let fixture = Result {
        var lines = [
            Lines.chat("p1", name: "Paging one"), Lines.member("p1", "alice", "Alice"),
            Lines.member("p1", "bob", "Bob"),
            Lines.chat("p2", name: "Paging two"), Lines.member("p2", "carol", "Carol"),
        ]
        for e in entries.sorted(by: { $0.arrival < $1.arrival }) {
            let ts = String(format: "2024-03-01T12:%02d:00Z", e.minute)
            lines.append(
                Lines.item(
                    e.chat, e.sourceId, ts: ts, text: e.text, member: e.member, type: e.isImage ? "image" : "text",
                    deleted: e.isDeleted))
        }
        return try TestArchive.make(jsonl: lines.joined(separator: "\n")).0
    }

    /// The expected hits newest first: by minute, then by arrival (ids follow arrival within a tie).
    static func expected(_ keep: (Entry) -> Bool, includeDeleted: Bool = false) -> [String] {
        entries.filter { (includeDeleted || !$0.isDeleted) && keep($0) }
            .sorted { ($0.minute, $0.arrival) > ($1.minute, $1.arrival) }
            .map(\.sourceId)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var query: String
        var chat: String?
        var content: ContentFilter?
        var includeDeleted = false
        var keep: @Sendable (Entry) -> Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "everything, globally", query: "", keep: { _ in true }),
        Case(name: "everything in p1", query: "", chat: "p1", keep: { $0.chat == "p1" }),
        Case(name: "a word, globally", query: "even", keep: { $0.n % 2 == 0 }),
        Case(name: "a word in p2", query: "even", chat: "p2", keep: { $0.chat == "p2" && $0.n % 2 == 0 }),
        Case(name: "images", query: "entry", content: .image, keep: { $0.isImage }),
        Case(
            name: "images in p1 with deleted", query: "", chat: "p1", content: .image, includeDeleted: true,
            keep: { $0.chat == "p1" && $0.isImage }),
        Case(name: "from:", query: "from:alice odd", keep: { $0.member == "alice" && $0.n % 2 == 1 }),
        Case(
            name: "a time range", query: "odd after:2024-03-01T12:05:00Z before:2024-03-01T12:15:00Z",
            keep: { $0.n % 2 == 1 && (5..<15).contains($0.minute) }),
        Case(name: "everything with deleted", query: "", includeDeleted: true, keep: { _ in true }),
        Case(name: "an exclusion in p1", query: "-even", chat: "p1", keep: { $0.chat == "p1" && $0.n % 2 == 1 }),
    ]

    @Test(arguments: cases)
    func firstPageIsTheNewestInOrder(_ c: Case) async throws {
        let archive = try Self.fixture.get()
        let want = Self.expected(c.keep, includeDeleted: c.includeDeleted)
        #expect(want.count > 10)
        let page = try await archive.search(
            c.query,
            options: SearchOptions(chat: c.chat, content: c.content, limit: 1000, includeDeleted: c.includeDeleted))
        #expect(page.hits.map(\.item.sourceId) == want)
        #expect(page.nextCursor == nil)
    }

    /// Both ways of reading a chat's matches: newest first with a limit (0: never the other
    /// way) and oldest first, all of them (every chat of any size), in one walk or in two
    /// (the newest 3 items first, then the rest).
    @Test(arguments: cases, [1, 2, 5, 6, 7, 10, 33, 74, 1000])
    func cursorPagesReturnEveryMatchOnce(_ c: Case, pageSize: Int) async throws {
        for (ascendingWalkMaxItems, recentWindowItems) in [(0, 512), (Int.max, Int.max), (Int.max, 3)] {
            try await pageThrough(
                c, pageSize: pageSize, ascendingWalkMaxItems: ascendingWalkMaxItems,
                recentWindowItems: recentWindowItems)
        }
    }

    func pageThrough(_ c: Case, pageSize: Int, ascendingWalkMaxItems: Int, recentWindowItems: Int = 512) async throws {
        let archive = try Self.fixture.get()
        let want = Self.expected(c.keep, includeDeleted: c.includeDeleted)
        var seen: [String] = []
        var cursor: String? = nil
        var pages = 0
        repeat {
            var options = SearchOptions(
                chat: c.chat, content: c.content, limit: pageSize, cursor: cursor, includeDeleted: c.includeDeleted)
            options.ascendingWalkMaxItems = ascendingWalkMaxItems
            options.recentWindowItems = recentWindowItems
            let page = try await archive.search(c.query, options: options)
            #expect(page.hits.count == min(pageSize, want.count - seen.count), "full pages until the last")
            seen += page.hits.map(\.item.sourceId)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages <= want.count + 1
        #expect(seen == want, "every match once, newest first, down to the oldest")
        #expect(pages == max(1, (want.count + pageSize - 1) / pageSize), "no empty trailing page")
    }

    @Test(arguments: [1, 7, 40], [(nil, 0), ("p1", 0), ("p1", Int.max)] as [(String?, Int)])
    func relevancePagesReturnEveryMatchOnce(pageSize: Int, scope: (chat: String?, ascendingWalkMaxItems: Int))
        async throws
    {
        let (chat, ascendingWalkMaxItems) = scope
        let archive = try Self.fixture.get()
        let want = Set(Self.expected { $0.n % 2 == 0 && (chat == nil || $0.chat == chat) })
        var seen: [String] = []
        var cursor: String? = nil
        repeat {
            var options = SearchOptions(chat: chat, limit: pageSize, cursor: cursor, order: .relevance)
            options.ascendingWalkMaxItems = ascendingWalkMaxItems
            let page = try await archive.search("even", options: options)
            seen += page.hits.map(\.item.sourceId)
            cursor = page.nextCursor
        } while cursor != nil && seen.count <= want.count
        #expect(seen.count == want.count)
        #expect(Set(seen) == want)
    }

    @Test func tiesOnOneTimestampFollowArrivalOrder() async throws {
        let archive = try Self.fixture.get()
        let hits = try await archive.search("", options: SearchOptions(limit: 1000, includeDeleted: true)).hits
        let keys = hits.map { ($0.item.timestamp.milliseconds, $0.item.id) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 > $1 }, "strictly descending (ts, id)")
        // The last minute holds six items; they come newest arrival first.
        let lastMinute = Self.entries.filter { $0.minute == 24 }.sorted { $0.arrival > $1.arrival }.map(\.sourceId)
        #expect(Array(hits.prefix(6).map(\.item.sourceId)) == lastMinute)
        #expect(
            lastMinute != (144...149).reversed().map { "e\($0)" },
            "the fixture's arrival order differs from its numbering")
    }

    @Test func limitIsClampedToAtLeastOne() async throws {
        let archive = try Self.fixture.get()
        for limit in [0, -5] {
            let page = try await archive.search("even", options: SearchOptions(limit: limit))
            #expect(page.hits.map(\.item.sourceId) == Array(Self.expected { $0.n % 2 == 0 }.prefix(1)))
            #expect(page.nextCursor != nil)
        }
    }
}
