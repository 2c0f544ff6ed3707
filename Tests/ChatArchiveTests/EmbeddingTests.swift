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
            let archive = try await Archive.open(path: dir + "/chats.sqlite", busyTimeout: .seconds(2))

            // A group arrives, with its members.
            try await archive.upsert(chats: [Chat(sourceId: "g1", type: .group, displayName: "Hiking club")])
            try await archive.upsert(members: [
                Member(chatSourceId: "g1", sourceId: "me", displayName: "Sam", isUser: true),
                Member(chatSourceId: "g1", sourceId: "zoe", displayName: "Zoë", fullName: "Zoë Smith"),
                Member(chatSourceId: "g1", sourceId: "lukasz", displayName: "Łukasz"),
            ])

            // The chat list: watched while messages arrive.
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
            var question = received("1003", from: "zoe", "@Łukasz who has the stove?", minute: 2)
            question.mentions = ["Łukasz": MentionTarget(memberSourceId: "lukasz")]
            question.quote = Quote(itemSourceId: "1002", text: "Bringing the map 地图")
            try await archive.upsert(items: [question])

            let rows = try await chatList.value
            let row = try #require(rows.last?.first)
            #expect(row.id == "g1" && row.preview.text == "@Łukasz who has the stove?" && row.preview.sender == "Zoë")
            #expect(!row.isMarkedUnread && row.notifications == .all)
            let tabs = try await archive.chatFilterCounts()
            #expect(tabs.count(.unread) == 1 && tabs.count(.groups) == 1)

            // An edit arrives for a stored message: the same ids, new text.
            question.content.text = "@Łukasz who has the gas stove?"
            question.isEdited = true
            try await archive.upsert(items: [question])

            // The chat view: the newest messages, again whenever they change, growing as the
            // user scrolls up.
            let opened = archive.observeItemWindow(in: "g1", window: .last(2))
            var chatView = opened.makeAsyncIterator()
            let newest = try #require(try await chatView.next())
            #expect(newest.items.map(\.sourceId) == ["1002", "1003"] && newest.counts?.before == 1)
            opened.loadOlder(50)
            let window = try #require(try await chatView.next())
            #expect(window.counts == WindowCounts(before: 0, after: 0))
            let last = try #require(window.items.last)
            #expect(window.items.map(\.sourceId) == ["1001", "1002", "1003"])
            #expect(last.sender == "Zoë" && last.memberSourceId == "zoe")
            #expect(last.text == "@Łukasz who has the gas stove?")
            let first = window.items[0]
            #expect(first.text == "Summit at Heinestraße 5, 9:00 🏔️")
            #expect(first.sourceText == "Summit at *Heinestraße* 5, 9:00 🏔️")  // what an edit starts from
            let mention = try #require(last.mentions.first)
            let mentioned = (last.text as NSString).substring(
                with: NSRange(location: mention.range.lowerBound, length: mention.range.count))
            #expect(mentioned == "@Łukasz" && mention.memberSourceId == "lukasz")

            // Tap the quote: the quoted message in its context, in one call.
            #expect(last.quote?.sender == "Łukasz")
            let quoted = try #require(try await archive.context(ofQuoteIn: last, count: 25))
            #expect(quoted.items.map(\.id).contains(try #require(last.quotedItemId)))

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
            // "k of N" beside the search bar.
            let count = try await archive.searchCount(
                "heine", options: SearchOptions(chat: "g1"), positionOf: hit.item.id)
            #expect("\(count.position ?? 0) of \(count.total)" == "1 of 1")

            // Open the hit in context: the chat scrolled to it, with what follows.
            let context = try await archive.context(of: hit, count: 25)
            #expect(context.items.map(\.id) == window.items.map(\.id))
            #expect(context.navInfo == NavigationInfo(afterTotal: 0, afterUnread: 0))  // nothing newer to load

            // The user reads up to the newest message on screen: the id the window returned.
            try await archive.markRead(chat: "g1", through: last.id)
            let unread = try await archive.unreadCounters()
            #expect(unread == UnreadCounters(unreadChats: 0, unreadItems: 0, unreadMentions: 0))
            let reread = try #require(try await chatView.next())
            #expect(reread.items.allSatisfy { !$0.isUnread })

            // The user types "@zo" in the compose bar: offer the matching members.
            let people = try await archive.members(chat: "g1", matching: "zo", limit: 10)
            #expect(people.map(\.id) == ["zoe"])
            #expect(people.first?.mentionText == "@Zoë")
            let lu = try await archive.members(chat: "g1", matching: "lu", limit: 10)
            #expect(lu.map(\.displayName) == ["Łukasz"])

            // An attachment comes from the export the message came from; a live message has none.
            #expect(try await archive.attachmentInfo(item: first.id) == nil)

            // A message is deleted for everyone: SimpleX keeps a placeholder.
            try await archive.markDeleted([window.items[1].id], in: "g1")
            #expect(try await archive.search("map").hits.isEmpty)
            #expect(try await archive.items(in: "g1", window: .last(3)).items.map(\.isDeleted) == [false, true, false])

            // Errors are ArchiveError values with a code a catch matches.
            do {
                _ = try await archive.items(in: "g9", window: .last(50))
                Issue.record("an unknown chat throws")
            } catch ArchiveError.unknownChat {
                // refresh the chat list
            } catch ArchiveError.busy {
                Issue.record("not busy")
            }
            do {
                _ = try await archive.items(in: "g9", window: .last(50))
            } catch let error as ArchiveError {
                #expect(error.localizedDescription.contains("g9"))
            }
            #expect(try await archive.check() == [])
        }
    }
}
