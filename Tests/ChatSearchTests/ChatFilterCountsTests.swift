import ChatArchive
import ChatTestSupport
import Testing

/// The chat list's tab counts are the lengths of the tabs' lists, whatever the archive's size.
@Suite struct ChatFilterCountsTests {
    @Test func everyTabCountsWhatItLists() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        _ = try archive.ingestSync([TestArchive.corpusPath])
        let rows = try await archive.chats(limit: 100_000)
        // Favorites, tags, muted and mentions-only chats, a chat marked unread.
        for (k, row) in rows.enumerated() {
            if k % 3 == 0 { try await archive.setFavorite(chat: row.chatId, to: true) }
            if k % 4 == 0 { try await archive.setTags(chat: row.chatId, ["work", k % 8 == 0 ? "家族" : "friends"]) }
            if k % 5 == 0 { try await archive.setNotifications(chat: row.chatId, k % 10 == 0 ? .none : .mentions) }
            if k % 7 == 0 { try await archive.setMarkedUnread(chat: row.chatId, to: true) }
        }
        let counts = try await archive.chatFilterCounts()
        #expect(counts.all == rows.count)
        #expect(Set(["friends", "work", "家族"]).isSubset(of: counts.tags.keys))
        var filters: [ChatFilter] = [.all, .unread, .favorites, .contacts, .groups, .business, .notes, .reports]
        filters += counts.tags.keys.map { ChatFilter.tag($0) }
        for filter in filters {
            let listed = try await archive.chats(filter: filter, limit: 100_000).count
            #expect(counts.count(filter) == listed, "\(filter)")
        }
        #expect(counts.count(.tag("nobody")) == 0)
        try expectSameJSON(counts, "tab counts")
    }
}
