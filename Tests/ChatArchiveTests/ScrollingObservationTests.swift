import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// Observation that follows a scrolling screen: a window that grows both ways, chat-list pages
/// and tab counts, and a first value at once.
@Suite struct ScrollingObservationTests {
    static let t0: Int64 = 1_714_557_600_000
    static let texts = ["山の上で", "บนภูเขา", "على الجبل", "על ההר", "на горе", "🏔️", "e\u{301}te"]

    static func item(_ chat: String, _ i: Int) -> Item {
        Item(
            chatSourceId: chat, sourceId: String(i), timestamp: Timestamp(milliseconds: t0 + Int64(i) * 60_000),
            direction: .rcv, content: MessageContent(type: .text, text: texts[i % texts.count] + " \(i)"),
            isUnread: true)
    }

    /// An archive on disk with a group of `count` items.
    static func archive(count: Int) async throws -> Archive {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scroll-\(UUID().uuidString).sqlite")
            .path
        let archive = try await Archive.open(path: path)
        try await archive.upsert(chats: [Chat(sourceId: "g1", type: .group, displayName: "Hiking")])
        try await archive.upsert(items: (0..<count).map { item("g1", $0) })
        return archive
    }

    /// Iterates `sequence`, handing each value to `step` until it says stop (or 120 s pass, a
    /// bound for a hang only).
    static func follow<S: AsyncSequence & Sendable>(
        _ sequence: S, _ step: @escaping @Sendable (S.Element, Int) async throws -> Bool
    ) async throws -> Bool where S.Element: Sendable {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                var n = 0
                for try await value in sequence {
                    if try await !step(value, n) { return true }
                    n += 1
                }
                return false
            }
            group.addTask {
                try await Task.sleep(nanoseconds: 120_000_000_000)
                return false
            }
            let finished = try await group.next() ?? false
            group.cancelAll()
            return finished
        }
    }

    @Test func aWindowGrowsBothWaysAndFollowsWrites() async throws {
        let archive = try await Self.archive(count: 40)
        let twentieth = try #require(try await archive.itemId(chat: "g1", sourceId: "20"))
        let window = archive.observeItemWindow(in: "g1", window: .around(twentieth, count: 2))
        let seen = try await Self.follow(window) { value, n in
            let sources = value.items.map(\.sourceId)
            switch n {
            case 0:
                #expect(sources == ["18", "19", "20", "21", "22"])
                #expect(value.counts == WindowCounts(before: 18, after: 17))
                window.loadOlder(5)
            case 1:
                #expect(sources == (13...22).map(String.init))
                #expect(value.counts == WindowCounts(before: 13, after: 17))
                window.loadNewer(100)
            case 2:
                #expect(sources == (13...39).map(String.init))
                #expect(value.counts == WindowCounts(before: 13, after: 0))
                #expect(value.navInfo == NavigationInfo(afterTotal: 0, afterUnread: 0))
                // A message arrives: the grown window shows it.
                try await archive.upsert(items: [Self.item("g1", 40)])
            default:
                #expect(sources == (13...40).map(String.init))
                return false
            }
            return true
        }
        #expect(seen)
    }

    @Test func growingPastTheStartRepeatsNothing() async throws {
        let archive = try await Self.archive(count: 6)
        let window = archive.observeItemWindow(in: "g1", window: .last(3))
        let seen = try await Self.follow(window) { value, n in
            switch n {
            case 0:
                #expect(value.items.map(\.sourceId) == ["3", "4", "5"])
                window.loadOlder(10)
            case 1:
                #expect(value.items.map(\.sourceId) == ["0", "1", "2", "3", "4", "5"])
                // Nothing older is left: no new value, until a write changes the window.
                window.loadOlder(10)
                try await archive.markDeleted(chat: "g1", items: ["0"])
            default:
                #expect(value.items.first?.isDeleted == true)
                return false
            }
            return true
        }
        #expect(seen)
    }

    @Test func chatListPagesAndTabCountsAreObserved() async throws {
        let archive = try await Self.archive(count: 3)
        try await archive.upsert(
            chats: (0..<5).map { Chat(sourceId: "c\($0)", type: .direct, displayName: "Чат \($0)") })
        let pages = archive.observeChats(limit: 2, after: nil)
        let sawPage = try await Self.follow(pages) { page, n in
            if n == 0 {
                #expect(page.rows.count == 2)
                #expect(page.nextCursor != nil)
                try await archive.upsert(items: [Self.item("c4", 100)])
                return true
            }
            #expect(page.rows.first?.chatId == "c4")
            return false
        }
        #expect(sawPage)
        let counts = archive.observeChatFilterCounts()
        let sawCounts = try await Self.follow(counts) { value, n in
            if n == 0 {
                try await archive.setFavorite(chat: "c1", true)
                return true
            }
            #expect(value.favorites == 1)
            return false
        }
        #expect(sawCounts)
        await #expect(throws: ArchiveError.self) {
            for try await _ in archive.observeChats(limit: 2, after: "not a cursor") {}
        }
    }

    @Test func writesByAnotherConnectionAndAnotherProcessReachAnObserver() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scroll-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/archive.sqlite"
        let archive = try await Archive.open(path: path)
        try await archive.upsert(chats: [Chat(sourceId: "g1", type: .group, displayName: "Hiking")])
        try await archive.upsert(items: (0..<3).map { Self.item("g1", $0) })
        let other = try await Archive.open(path: path, mode: .readWrite)
        let export = folder + "/export.jsonl"
        let lines = [
            #"{"kind":"chat","chatId":"p1","type":"direct","displayName":"Процесс 进程"}"#,
            #"{"kind":"item","chatId":"p1","id":"1","ts":"2030-01-01T00:00:00Z","dir":"rcv","content":{"type":"text","text":"مرحبا"}}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: export, atomically: true, encoding: .utf8)
        let seen = try await Self.follow(archive.observeItemWindow(in: "g1", window: .last(2))) { window, n in
            guard n > 0 else {
                // Another connection pool on the same file.
                try await other.upsert(items: [Self.item("g1", 3)])
                return true
            }
            #expect(window.items.map(\.sourceId) == ["2", "3"])
            return false
        }
        #expect(seen)
        let listed = try await Self.follow(archive.observeChats()) { rows, n in
            guard n > 0 else {
                // Another process: the command line's ingest.
                let run = try ChildProcess.run(ChildProcess.chatArchiveBinary, ["ingest", "--archive", path, export])
                #expect(run.status == 0)
                return true
            }
            return rows.first?.chatId != "p1"
        }
        #expect(listed)
    }

    @Test func aFirstValueCanComeAtOnce() async throws {
        let archive = try await Self.archive(count: 5)
        let observation = archive.observeItems(chat: "g1", .last(2)).startingImmediately()
        #expect(try observation.currentValue().items.map(\.sourceId) == ["3", "4"])
        var iterator = observation.makeAsyncIterator()
        #expect(try await iterator.next()?.items.map(\.sourceId) == ["3", "4"])
        try await archive.upsert(items: [Self.item("g1", 5)])
        #expect(try await iterator.next()?.items.map(\.sourceId) == ["4", "5"])
        var failing = archive.observeItems(chat: "nope", .last(2)).startingImmediately().makeAsyncIterator()
        await #expect(throws: ArchiveError.self) { _ = try await failing.next() }
    }
}
