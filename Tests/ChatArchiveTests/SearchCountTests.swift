import ChatArchive
import Foundation
import Testing

/// "k of N" in a chat (`Archive.searchCount`) and the counts around a window (`ItemWindow.counts`).
@Suite struct SearchCountTests {
    static let t0: Int64 = 1_714_557_600_000
    static let texts = [
        "山の上で会おう", "พบกันบนภูเขา", "نلتقي على الجبل", "ניפגש על ההר", "встретимся на горе", "🏔️ café",
        "cafe\u{301} au lait",
    ]

    /// A group of `count` items cycling through `texts`, and another chat with the same texts.
    static func archive(count: Int = 70) async throws -> Archive {
        let archive = try Archive.inMemory()
        try await archive.upsert(chats: [
            Chat(sourceId: "g1", type: .group, displayName: "Hiking"),
            Chat(sourceId: "g2", type: .group, displayName: "Other"),
        ])
        var items: [Item] = []
        for chat in ["g1", "g2"] {
            for i in 0..<count {
                items.append(
                    Item(
                        chatSourceId: chat, sourceId: String(i),
                        timestamp: Timestamp(milliseconds: t0 + Int64(i) * 60_000),
                        direction: .rcv, content: MessageContent(type: .text, text: texts[i % texts.count] + " \(i)")))
            }
        }
        try await archive.upsert(items: items)
        return archive
    }

    /// Every hit of a search, page after page.
    static func allHits(_ archive: Archive, _ query: String, _ options: SearchOptions) async throws -> [Int64] {
        var options = options
        options.limit = 3
        var ids: [Int64] = []
        repeat {
            let page = try await archive.search(query, options: options)
            ids += page.hits.map(\.item.id)
            options.cursor = page.nextCursor
        } while options.cursor != nil
        return ids
    }

    @Test(arguments: ["ภูเขา", "café", "山", "الجبل", "ההר", "горе", "🏔️", "nothing-matches", "\"unbalanced", "from:"])
    func theCountAndEachHitsPlaceFollowTheSearch(query: String) async throws {
        let archive = try await Self.archive()
        let options = SearchOptions(chat: "g1")
        let hits = try await Self.allHits(archive, query, options)
        #expect(try await archive.searchCount(query, options: options).total == hits.count)
        for (k, id) in hits.enumerated() {
            let count = try await archive.searchCount(query, options: options, positionOf: id)
            #expect(count == SearchCount(total: hits.count, position: k + 1))
        }
    }

    @Test func anItemThatDoesNotMatchHasNoPlaceAndDeletedOnesLeaveTheCount() async throws {
        let archive = try await Self.archive()
        let options = SearchOptions(chat: "g1")
        let hits = try await Self.allHits(archive, "ภูเขา", options)
        let other = try #require(try await archive.itemId(chat: "g1", sourceId: "0"))
        #expect(try await archive.searchCount("ภูเขา", options: options, positionOf: other).position == nil)
        let sourceId = try #require(
            try await archive.items(in: "g1", window: .around(hits[0], count: 0)).items.first?.sourceId)
        try await archive.markDeleted(chat: "g1", items: [sourceId])
        let after = try await archive.searchCount("ภูเขา", options: options, positionOf: hits[1])
        #expect(after == SearchCount(total: hits.count - 1, position: 1))
        var withDeleted = options
        withDeleted.includeDeleted = true
        #expect(try await archive.searchCount("ภูเขา", options: withDeleted).total == hits.count)
    }

    /// The count and every hit's place under `limit`, against the paged hits.
    static func expectLimitedCounts(
        _ archive: Archive, _ query: String, _ options: SearchOptions, limit: Int?
    ) async throws {
        let hits = try await allHits(archive, query, options)
        let counted = try await archive.searchCount(query, options: options, limit: limit)
        let isExact = limit.map { hits.count <= $0 } ?? true
        #expect(counted == SearchCount(total: isExact ? hits.count : limit!, position: nil, isExact: isExact))
        for (k, id) in hits.enumerated() {
            let place = try await archive.searchCount(query, options: options, positionOf: id, limit: limit)
            #expect(place.position == (k + 1 <= (limit ?? Int.max) ? k + 1 : nil))
        }
    }

    @Test(arguments: ["café", "山", "горе", "café is:unread", ""])
    func aLimitedCountStopsAtItsLimitWhateverIsDeleted(query: String) async throws {
        let archive = try await Self.archive(count: 84)
        for options in [SearchOptions(chat: "g1"), SearchOptions()] {
            let n = try await Self.allHits(archive, query, options).count
            for limit in [1, 5, n - 1, n, n + 1, nil] where (limit ?? 1) > 0 {
                try await Self.expectLimitedCounts(archive, query, options, limit: limit)
            }
        }
        // Two of every three of g1's newest hits deleted: the walk reads past them.
        let hits = try await Self.allHits(archive, query, SearchOptions(chat: "g1"))
        let gone = hits.prefix(hits.count / 2).enumerated().filter { $0.offset % 3 != 0 }.map(\.element)
        try await archive.markDeleted(gone, in: "g1")
        for options in [SearchOptions(chat: "g1"), SearchOptions()] {
            let n = try await Self.allHits(archive, query, options).count
            for limit in [1, 4, n / 2, n - 1, n, nil] where (limit ?? 1) > 0 {
                try await Self.expectLimitedCounts(archive, query, options, limit: limit)
            }
        }
    }

    @Test func anUnknownChatThrowsUnknownChat() async throws {
        let archive = try await Self.archive(count: 3)
        await #expect(throws: ArchiveError.self) {
            _ = try await archive.searchCount("x", options: SearchOptions(chat: "nope"))
        }
    }

    @Test func everyWindowSaysWhatLiesBeforeAndAfterIt() async throws {
        let archive = try await Self.archive(count: 30)
        let tenth = try #require(try await archive.itemId(chat: "g1", sourceId: "9"))
        let around = try await archive.items(in: "g1", window: .around(tenth, count: 3))
        #expect(around.counts == WindowCounts(before: 6, after: 17))
        let json = String(decoding: try JSONEncoder().encode(around), as: UTF8.self)
        #expect(
            json.contains("\"counts\":{\"after\":17,\"before\":6}")
                || json.contains("\"counts\":{\"before\":6,\"after\":17}"))
        #expect(try await archive.items(in: "g1", window: .last(5)).counts == WindowCounts(before: 25, after: 0))
        #expect(
            try await archive.items(in: "g1", window: .before(tenth, count: 4)).counts
                == WindowCounts(before: 5, after: 21))
        #expect(
            try await archive.items(in: "g1", window: .after(tenth, count: 4)).counts
                == WindowCounts(before: 10, after: 16))
        // Filters leave the counts about the chat's items.
        let filtered = try await archive.items(in: "g1", window: .last(2), search: "горе")
        let oldest = try #require(filtered.items.first)
        let place = try await archive.items(in: "g1", window: .around(oldest.id, count: 0)).counts
        #expect(filtered.counts?.before == place?.before)
        #expect(
            try await archive.items(
                in: "g1", window: .before(try #require(try await archive.itemId(chat: "g1", sourceId: "0")), count: 5)
            ).counts == nil)
    }
}
