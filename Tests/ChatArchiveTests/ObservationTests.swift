import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// Observation (`Archive+Observation`): a first value at once, a new one when what it shows
/// changes, the end when the task is cancelled; and readers during live writes never see half
/// of one.
@Suite struct ObservationTests {
    /// Takes values from an observation until `done` accepts one (or 120 s pass, a bound for a
    /// hang only: then `nil`). The first value runs `change`.
    static func firstValue<T: Sendable & Equatable>(
        _ observation: ArchiveObservation<T>, where done: @escaping @Sendable (T) -> Bool,
        after change: @escaping @Sendable () async throws -> Void
    ) async throws -> T? {
        let accepted = Recorder<T>()
        _ = try await ScrollingObservationTests.follow(observation) { value, n in
            if n == 0 {
                try await change()
                return true
            }
            guard done(value) else { return true }
            accepted.append(value)
            return false
        }
        return accepted.values.first
    }

    @Test func theChatListIsObservedAsMessagesArrive() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        let rows = try await Self.firstValue(archive.observeChats(), where: { $0.first?.itemCount == 1 }) {
            try await archive.upsert(items: [LiveWriteFixtures.message("g1", "1", "ola 🌊", at: 0)])
        }
        let row = try #require(rows?.first)
        #expect(row.preview.text == "ola 🌊")
        #expect(row.unreadCount == 1)
    }

    @Test func aFilteredChatListFollowsReadsAndSettings() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "1", "unread", at: 0)])
        let rows = try await Self.firstValue(
            archive.observeChats(matching: "hik", filter: .unread), where: { $0.isEmpty }
        ) {
            try await archive.markRead(chat: "g1")
        }
        #expect(rows == [])
        let favorites = try await Self.firstValue(archive.observeChats(filter: .favorites), where: { !$0.isEmpty }) {
            try await archive.setFavorite(chat: "g1", to: true)
        }
        #expect(favorites?.map(\.chatId) == ["g1"])
    }

    @Test func aWindowIsObservedAsItemsArriveAndAreDeleted() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(
            items: (0..<3).map { LiveWriteFixtures.message("g1", "\($0)", "m\($0)", at: Int64($0)) })
        let grown = try await Self.firstValue(
            archive.observeItems(in: "g1", window: .last(2)), where: { $0.items.last?.sourceId == "9" }
        ) {
            try await archive.upsert(items: [LiveWriteFixtures.message("g1", "9", "سلام", at: 9)])
        }
        #expect(grown?.items.map(\.text) == ["m2", "سلام"])
        let anchor = try #require(grown?.items.first?.id)
        let around = try await Self.firstValue(
            archive.observeItems(in: "g1", window: .around(anchor, count: 1)), where: { $0.navInfo?.afterTotal == 0 }
        ) {
            try await archive.deleteItems(["9"], in: "g1")
        }
        #expect(around?.items.map(\.sourceId) == ["1", "2"])
    }

    @Test func unreadCountersFollowWritesAndReads() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        #expect(try await archive.unreadCounters() == UnreadCounters(unreadChats: 0, unreadItems: 0, unreadMentions: 0))
        let up = try await Self.firstValue(archive.observeUnreadCounters(), where: { $0.unreadItems == 2 }) {
            try await archive.upsert(items: [
                LiveWriteFixtures.message(
                    "g1", "1", "@Me 你好", at: 0,
                    mentions: ["Me": MentionTarget(memberSourceId: "me", isUserMention: true)]),
                LiveWriteFixtures.message("g1", "2", "再见", at: 1),
            ])
        }
        #expect(up == UnreadCounters(unreadChats: 1, unreadItems: 2, unreadMentions: 1))
        let down = try await Self.firstValue(archive.observeUnreadCounters(), where: { $0.unreadItems == 0 }) {
            try await archive.markRead(chat: "g1")
        }
        #expect(down == UnreadCounters(unreadChats: 0, unreadItems: 0, unreadMentions: 0))
    }

    @Test func anObservationEndsWhenItsTaskIsCancelled() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        let values = Recorder<Int>()
        let task = Task {
            for try await rows in archive.observeChats() { values.append(rows.count) }
        }
        while values.values.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        _ = await task.result
        let seen = values.values.count
        try await archive.upsert(chats: [Chat(sourceId: "x", type: .direct, displayName: "Later")])
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(values.values.count == seen)
        #expect(values.values.first == 1)
    }

    @Test func anObservationOfAnUnknownChatEndsWithAnError() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        await #expect(throws: (any Error).self) {
            for try await _ in archive.observeItems(in: "nope", window: .last(5)) {}
        }
    }

    /// Readers during live writes: each write adds ten items holding one word and marks the
    /// previous ten read; every read sees multiples of ten, whatever it reads.
    @Test func concurrentReadersNeverSeeHalfAWrite() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        let rounds = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for r in 0..<rounds {
                    let items = (0..<10).map { k in
                        LiveWriteFixtures.message("g1", "\(r)-\(k)", "round 東京 \(r) 😂 \(k)", at: Int64(r * 10 + k))
                    }
                    try await archive.upsert(items: items)
                    try await archive.markRead(chat: "g1", through: "\(r)-9")
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<rounds {
                        let rows = try await archive.chats()
                        let row = try #require(rows.first)
                        #expect(row.itemCount % 10 == 0)
                        #expect(row.unreadCount % 10 == 0)
                        let hits = try await archive.search("東京", options: SearchOptions(limit: 10_000)).hits
                        #expect(hits.count % 10 == 0)
                        let window = try await archive.items(in: "g1", window: .last(10_000))
                        #expect(window.items.count % 10 == 0)
                        #expect(window.items.filter(\.isUnread).count % 10 == 0)
                        let unread = try await archive.unreadCounters()
                        #expect(unread.unreadItems % 10 == 0)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await archive.check() == [])
    }
}
