// A chat app's use of ChatArchive, built against a tagged release by `.ci/consumer-check`.
// Only `import ChatArchive`: everything an app needs comes through that one module.
import ChatArchive
import Foundation

func check(_ condition: Bool, _ what: String) {
    if !condition {
        print("consumer: FAILED: \(what)")
        exit(1)
    }
}

let archive = try Archive.inMemory()

// The chat list, observed from the start: the first value at once, then one per change (an
// observer always comes to the latest state: the message arrived and read).
let watched = Task {
    var values = 0
    for try await rows in archive.observeChats(matching: nil, filter: .all) {
        values += 1
        if let row = rows.first, row.preview.kind == .message, row.unreadCount == 0 { break }
    }
    return values
}
try await archive.upsert(chats: [Chat(sourceId: "g1", type: .group, displayName: "Hiking club")])
try await archive.upsert(members: [
    Member(chatSourceId: "g1", sourceId: "m1", displayName: "Zoë", fullName: "Zoë Smith"),
    Member(chatSourceId: "g1", sourceId: "me", displayName: "Me", isUser: true),
])
let now = Timestamp(milliseconds: 1_750_000_000_000)
try await archive.upsert(items: [
    Item(
        chatSourceId: "g1", sourceId: "1", timestamp: now, direction: .rcv, memberSourceId: "m1",
        content: MessageContent(type: .text, text: "Meet at the café in 東京 at 9"), isUnread: true)
])

let page = try await archive.search("cafe", options: SearchOptions(chat: "g1"))
check(page.hits.count == 1, "search finds the new message")
let window = try await archive.items(in: "g1", window: .around(page.hits[0].id, count: 10))
check(window.items.count == 1, "the hit opens in context")
check(window.items[0].memberSourceId == "m1", "an item names its sender's member")
let people = try await archive.members(chat: "g1", matching: "zo", limit: 5)
check(people.first?.displayName == "Zoë", "mention autocomplete folds accents")
let json = String(decoding: try JSONEncoder().encode(page), as: UTF8.self)
check(json.contains("\"hits\"") && json.contains("東京"), "a search page encodes as the CLI's JSON")
// The open chat, observed while the user reads it (a local iterator: top-level variables
// belong to the main actor, and an iterator's next() mutates it).
do {
    var chatView = archive.observeItems(in: "g1", window: .last(50)).makeAsyncIterator()
    check(try await chatView.next()?.items.first?.isUnread == true, "the open chat is observed")
    try await archive.markRead(chat: "g1", through: window.items[0].id)
    let rows = try await archive.chats(matching: "hik", filter: .groups)
    check(rows.first?.unreadCount == 0, "mark read by the window's item id reaches the chat list")
    check(try await chatView.next()?.items.first?.isUnread == false, "the observed chat follows the read")
}
check(try await watched.value >= 1, "the observed chat list follows the new message and its read")

// Errors are ArchiveError values an app matches by code.
do {
    try await archive.markRead(chat: "no-such-chat")
    check(false, "an unknown chat throws")
} catch let error as ArchiveError where error.code == .unknownChat {
    check(!error.message.isEmpty, "an error carries a message")
}
do {
    try await archive.deleteItems([Int64.max], in: "g1")
    check(false, "an unknown item throws")
} catch let error as ArchiveError {
    check(error.code == .unknownItem, "an unknown item is .unknownItem (got \(error.code))")
}

do {
    _ = try Archive(path: "/nonexistent-folder/chats.sqlite", mode: .readOnly)
    check(false, "a missing archive opened read-only throws")
} catch let error as ArchiveError {
    check(error.code == .notFound, "a missing archive is .notFound (got \(error.code))")
}
print("consumer: ok")
