import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// Marking read moves a per-chat mark instead of rewriting items: every read (windows, search,
/// the chat list's counters, `initial`, `navInfo`, `check`) must still see exactly the items a
/// flag-by-flag mark-read would leave unread, whatever writes come after it: late messages older
/// than the mark, edits that move items across it, deletions and marked deletions.
@Suite struct ReadMarkTests {
    typealias L = LiveWriteFixtures

    @Test func aLateUnreadMessageOlderThanTheMarkIsUnread() async throws {
        let archive = try await L.makeGroup()
        try await archive.upsert(
            items: (0..<5).map { L.message("g1", "m\($0)", "Nachricht \($0) 東京", at: Int64($0 * 10)) })
        try await archive.markRead(chat: "g1")
        #expect(try await L.row(archive).unreadCount == 0)
        // Sent before the newest read message, received now: unread, and the chat opens at it.
        try await archive.upsert(items: [L.message("g1", "late", "spät angekommen مرحبا", at: 15)])
        #expect(try await L.row(archive).unreadCount == 1)
        let initial = try await archive.items(in: "g1", window: .initial(1))
        #expect(initial.items.map(\.sourceId) == ["m1", "late", "m2"])
        #expect(initial.items.map(\.isUnread) == [false, true, false])
        #expect(initial.navInfo?.afterUnread == 0)
        #expect(try await archive.search("is:unread").hits.map(\.item.sourceId) == ["late"])
        #expect(try await archive.check() == [])
    }

    @Test func editsDeletionsAndNewMessagesAroundTheMarkKeepCountsExact() async throws {
        let archive = try await L.makeGroup()
        try await archive.upsert(items: (0..<6).map { L.message("g1", "m\($0)", "שלום \($0)", at: Int64($0 * 10)) })
        try await archive.markRead(chat: "g1", through: "m3")
        #expect(try await L.row(archive).unreadCount == 2)
        // An edit of a read item that the source still calls read, and one moved after the mark.
        try await archive.upsert(items: [L.message("g1", "m1", "שלום edited", at: 10, unread: false)])
        try await archive.upsert(items: [L.message("g1", "m2", "moved later", at: 55)])
        #expect(try await L.row(archive).unreadCount == 3)
        try await archive.markDeleted(["m0", "m4"], in: "g1")
        #expect(try await L.row(archive).unreadCount == 3)
        try await archive.deleteItems(["m3", "m5"], in: "g1")
        #expect(try await L.row(archive).unreadCount == 2)
        let window = try await archive.items(in: "g1", window: .last(10))
        #expect(window.items.map(\.sourceId) == ["m0", "m1", "m4", "m2"])
        #expect(window.items.map(\.isUnread) == [false, false, true, true])
        #expect(try await archive.check() == [])
        try await archive.deleteChat("g1")
        #expect(try await archive.stats().unreadItems == 0)
    }

    /// Random writes against a model of which items are unread.
    @Test func randomWritesAgreeWithAModelOfUnreadItems() async throws {
        let archive = try await L.makeGroup()
        var rng = SplitMix64(seed: 42)
        // id → (minute, unread, deleted); minutes are unique, so (ts, id) order is minute order.
        var model: [String: (minute: Int64, unread: Bool, deleted: Bool)] = [:]
        var usedMinutes = Set<Int64>()
        var next = 0
        func freshMinute() -> Int64 {
            while true {
                let m = Int64(rng.next() % 100_000)
                if usedMinutes.insert(m).inserted { return m }
            }
        }
        func pick() -> String? {
            let ids = model.keys.sorted()
            return ids.isEmpty ? nil : ids[Int(rng.next() % UInt64(ids.count))]
        }
        let words = ["Zürich", "東京", "مرحبا", "שלום", "สวัสดี", "привет", "😂", "İstanbul"]
        for step in 0..<120 {
            switch rng.next() % 6 {
            case 0, 1:
                var items: [Item] = []
                for _ in 0..<Int(1 + rng.next() % 3) {
                    next += 1
                    let minute = freshMinute()
                    let unread = rng.next() % 4 != 0
                    items.append(
                        L.message(
                            "g1", "i\(next)", "\(words[Int(rng.next() % 8)]) n\(next)", at: minute, unread: unread))
                    model["i\(next)"] = (minute, unread, false)
                }
                try await archive.upsert(items: items)
            case 2:
                guard let id = pick() else { continue }
                let minute = rng.next() % 2 == 0 ? model[id]?.minute ?? 0 : freshMinute()
                let unread = rng.next() % 2 == 0
                try await archive.upsert(items: [
                    L.message("g1", id, "edited \(words[Int(rng.next() % 8)])", at: minute, unread: unread)
                ])
                model[id] = (minute, unread, false)
            case 3:
                let through = rng.next() % 4 == 0 ? nil : pick()
                try await archive.markRead(chat: "g1", through: through)
                let bound = through.flatMap { model[$0]?.minute } ?? Int64.max
                for (id, v) in model where v.minute <= bound { model[id]?.unread = false }
            case 4:
                guard let id = pick() else { continue }
                if rng.next() % 2 == 0 {
                    try await archive.markDeleted([id], in: "g1")
                    model[id]?.deleted = true
                } else {
                    try await archive.deleteItems([id], in: "g1")
                    model[id] = nil
                }
            default:
                guard let id = pick() else { continue }
                try await archive.setPinned([id], in: "g1", to: true)
            }
            let problems = try await archive.check()
            #expect(problems == [], "step \(step)")
            if !problems.isEmpty { return }
            let unread = Set(model.filter { $0.value.unread }.map(\.key))
            #expect(try await L.row(archive).unreadCount == unread.count, "step \(step)")
            let window = try await archive.items(in: "g1", window: .last(1_000))
            #expect(Set(window.items.filter(\.isUnread).map(\.sourceId)) == unread, "step \(step)")
            let found = try await archive.search("is:unread", options: SearchOptions(limit: 1_000))
            #expect(
                Set(found.hits.map(\.item.sourceId)) == unread.filter { model[$0]?.deleted == false }, "step \(step)")
            let oldest = model.filter { $0.value.unread }.min { $0.value.minute < $1.value.minute }?.key
            let initial = try await archive.items(in: "g1", window: .initial(0))
            if let oldest {
                #expect(initial.items.map(\.sourceId) == [oldest], "step \(step)")
                #expect(initial.navInfo?.afterUnread == unread.count - 1, "step \(step)")
            }
            // navInfo around every item: the unread items after it, however the unread ones lie
            // around the read mark and the window (both sides of the count are taken).
            if step % 3 == 0 {
                for (k, item) in window.items.enumerated() {
                    let around = try await archive.items(in: "g1", window: .around(item.id, count: 0))
                    let after = window.items[(k + 1)...].filter { unread.contains($0.sourceId) }.count
                    #expect(around.navInfo?.afterUnread == after, "step \(step), item \(item.sourceId)")
                    #expect(around.navInfo?.afterTotal == window.items.count - k - 1, "step \(step)")
                }
            }
        }
    }
}
