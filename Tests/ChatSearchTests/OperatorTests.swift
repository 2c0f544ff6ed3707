import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// Every query operator and search option, end to end, against one small hand-built archive.
///
/// Each case names the exact set of items (by source id) the query must return; order is
/// asserted separately.
@Suite struct OperatorTests {
    /// Inserts raw fields into an item line's `content` object (`preview`, `duration`, `reason`).
    static func content(_ line: String, _ fields: String) -> String {
        line.replacingOccurrences(of: "},\"unread\"", with: "," + fields + "},\"unread\"")
    }

    /// Three chats. Every item has its own timestamp, so newest-first order is by time alone.
    static let lines: [String] = [
        Lines.chat("g1", name: "Hiking club"),
        Lines.member("g1", "m0", "Sam", isUser: true),
        Lines.member("g1", "m1", "Zoë"),
        Lines.member("g1", "m2", "Bob M"),
        Lines.member("g1", "m3", "Anna"),
        Lines.chat("g2", name: "Work Stuff"),
        Lines.member("g2", "me2", "Sam", isUser: true),
        Lines.member("g2", "w1", "Bobby"),
        Lines.member("g2", "w2", "Zoltan"),
        Lines.chat("d1", type: "direct", name: "Zoë"),

        Lines.item(
            "g1", "h1", ts: "2024-04-10T09:00:00Z", text: "Going hiking with everyone on Saturday", member: "m1"),
        Lines.item("g1", "h2", ts: "2024-04-11T09:00:00Z", text: "hi everyone", member: "m2"),
        Lines.item(
            "g1", "h3", ts: "2024-04-12T09:00:00Z", text: "the quick brown fox jumps over the lazy dog", member: "m3"),
        Lines.item("g1", "h4", ts: "2024-04-13T09:00:00Z", text: "a brown bear in the woods", member: "m1"),
        Lines.item("g1", "h5", ts: "2024-04-14T09:00:00Z", text: "a fox in the garden", member: "m2"),
        Lines.item(
            "g1", "h6", ts: "2024-04-15T09:00:00Z", text: "I'll bring the map, see https://maps.example.com/trail",
            dir: "snd",
            member: "m0"),
        content(
            Lines.item("g1", "h7", ts: "2024-04-16T09:00:00Z", text: "trail report", member: "m1", type: "link"),
            #""preview":{"uri":"https://news.example.net/a","title":"Alpine news","description":"conditions"}"#),
        Lines.item(
            "g1", "h8", ts: "2024-04-17T09:00:00Z", text: "[the docs](https://docs.example.org/plan) are updated",
            member: "m3"),
        Lines.item(
            "g1", "h9", ts: "2024-04-18T09:00:00Z", text: "summit photo", member: "m1", type: "image",
            extra: #""file":{"name":"summit.jpg","size":1000}"#),
        content(
            Lines.item("g1", "h10", ts: "2024-04-19T09:00:00Z", text: "summit video", member: "m2", type: "video"),
            #""duration":30"#),
        content(
            Lines.item("g1", "h11", ts: "2024-04-20T09:00:00Z", text: "", member: "m3", type: "voice"), #""duration":5"#
        ),
        Lines.item(
            "g1", "h12", ts: "2024-04-21T09:00:00Z", text: "packing list", member: "m1", type: "file",
            extra: #""file":{"name":"packing.pdf","size":20}"#),
        Lines.item("g1", "h13", ts: "2024-04-22T09:00:00Z", text: "@'Bob M' can you bring the stove?", member: "m3"),
        Lines.item(
            "g1", "h14", ts: "2024-04-23T09:00:00Z", text: "@Sam please check the route", member: "m1",
            extra: #""mentions":{"Sam":{"memberId":"m0","userMention":true}}"#),
        Lines.item("g1", "h15", ts: "2024-04-30T23:59:59Z", text: "boundary before may", member: "m3"),
        Lines.item("g1", "h16", ts: "2024-05-01T00:00:00Z", text: "boundary may first", member: "m3"),
        Lines.item("g1", "h17", ts: "2024-05-31T23:59:59Z", text: "boundary may last", member: "m3"),
        Lines.item("g1", "h18", ts: "2024-06-01T00:00:00Z", text: "boundary june first", member: "m3"),
        Lines.item("g1", "h19", ts: "2024-05-10T09:00:00Z", text: "unread fox news", member: "m1", unread: true),
        Lines.item(
            "g1", "h20", ts: "2024-05-11T09:00:00Z", text: "meeting point is the north gate", member: "m2", pinned: true
        ),
        Lines.item(
            "g1", "h21", ts: "2024-05-12T09:00:00Z", text: "this fox message was deleted", member: "m2", deleted: true),
        Lines.item("g1", "h22", ts: "2024-05-13T09:00:00Z", text: "harvest harvest harvest", member: "m1"),
        Lines.item("g1", "h23", ts: "2024-05-14T09:00:00Z", text: "harvest once and then we go home", member: "m2"),
        content(
            Lines.item("g1", "h24", ts: "2024-05-15T09:00:00Z", text: "this is spam", member: "m3", type: "report"),
            #""reason":"spam""#),
        Lines.item("g1", "h25", ts: "2024-05-16T09:00:00Z", text: "note: remember the milk", member: "m2"),

        Lines.item("g2", "w1", ts: "2024-04-12T10:00:00Z", text: "brown fox in the office", member: "w1"),
        Lines.item("g2", "w2", ts: "2024-04-13T10:00:00Z", text: "hiking next week?", member: "w2"),
        Lines.item("g2", "w3", ts: "2024-04-14T10:00:00Z", text: "@Bobby check the budget", dir: "snd", member: "me2"),
        Lines.item("g2", "w4", ts: "2024-04-15T10:00:00Z", text: "@Sam are you coming?", member: "w2"),

        Lines.item("d1", "z1", ts: "2024-04-15T08:00:00Z", text: "see you at the trailhead", extra: #""sender":"Zoë""#),
        Lines.item("d1", "z2", ts: "2024-04-15T08:05:00Z", text: "see you there", dir: "snd"),
        // A received direct message with no sender: it is from the contact.
        Lines.item("d1", "z3", ts: "2024-04-15T08:10:00Z", text: "running late, sorry"),
    ]

    static let fixture = Result { try TestArchive.make(jsonl: lines.joined(separator: "\n")) }

    /// Every item that is not deleted.
    static let live: Set<String> = {
        var ids = Set(["w1", "w2", "w3", "w4", "z1", "z2", "z3"])
        for k in 1...25 where k != 21 { ids.insert("h\(k)") }
        return ids
    }()
    static let g1Live = live.filter { $0.hasPrefix("h") }

    static func search(_ query: String, _ options: SearchOptions = SearchOptions(limit: 1000)) async throws -> [String]
    {
        let (archive, report) = try fixture.get()
        #expect(report.errors.isEmpty, "\(report.errors)")
        return try await archive.search(query, options: options).hits.map(\.item.sourceId)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var query: String
        var expected: Set<String>
        var why: String
        init(_ query: String, _ expected: Set<String>, _ why: String = "") {
            self.query = query
            self.expected = expected
            self.why = why
        }
        var testDescription: String { why.isEmpty ? query : "\(query) — \(why)" }
    }

    static let cases: [Case] = [
        // Words: all must match, anywhere in the item.
        Case("brown fox", ["h3", "w1"], "every word must match"),
        Case("quick fox", ["h3"], "words need not be adjacent"),
        Case("fox", ["h3", "h5", "h19", "w1"], "deleted h21 excluded"),
        Case("FOX", ["h3", "h5", "h19", "w1"], "case folded"),
        Case("brown fox bear", [], "no item has all three"),
        // The last word is a prefix (search as you type).
        Case("hik", ["h1", "w2"], "hik finds hiking"),
        Case("hi", ["h1", "h2", "w2"], "a short last word is a prefix"),
        Case("everyone hi", ["h1", "h2"], "the last word is a prefix"),
        Case("hi everyone", ["h2"], "a short word that is not last is a whole word: hiking does not count"),
        Case("hi everyone ", ["h2"], "a trailing space ends the last word"),
        Case("hik ", ["h1", "w2"], "words of three or more letters match inside words wherever they are (infix)"),
        Case("iking saturday", ["h1"], "infix for a word that is not last"),
        // Exact phrases: order and adjacency matter.
        Case(#""quick brown""#, ["h3"]),
        Case(#""brown fox""#, ["h3", "w1"]),
        Case(#""brown quick""#, [], "order matters"),
        Case(#""quick fox""#, [], "adjacency matters"),
        Case(#""the quick brown fox" jumps"#, ["h3"], "a phrase and a word"),
        Case(#""brown fox"#, ["h3", "w1"], "an unclosed quote runs to the end"),
        // Exclusions, of words and phrases.
        Case("fox -garden", ["h3", "h19", "w1"]),
        Case(#"fox -"in the garden""#, ["h3", "h19", "w1"], "a phrase can be excluded"),
        Case(#"fox -"the office""#, ["h3", "h5", "h19"]),
        Case(#"fox -"garden in""#, ["h3", "h5", "h19", "w1"], "an excluded phrase only excludes the phrase"),
        Case("brown -fo", ["h3", "h4", "w1"], "an excluded word is a whole word"),
        Case("-fox -brown in:g1", g1Live.subtracting(["h3", "h4", "h5", "h19"]), "exclusions alone"),
        // OR.
        Case("bear OR garden", ["h4", "h5"]),
        Case("bear OR garden OR office", ["h4", "h5", "w1"]),
        Case("brown bear OR garden", ["h4"], "OR binds its two neighbours; the other words still must match"),
        Case(#""brown fox" OR bear"#, ["h3", "h4", "w1"], "a phrase OR a word"),
        Case("OR fox", ["h3", "h5", "h19", "w1"], "a leading OR is a no-op"),
        Case("bear or garden", [], "lower-case or is a word"),
        // from:
        Case(
            "from:zoe", ["h1", "h4", "h7", "h9", "h12", "h14", "h19", "h22", "z1", "z3"],
            "display name, folded; in the direct chat with Zoë, every message she sent, named or not"),
        Case("from:ZOË", ["h1", "h4", "h7", "h9", "h12", "h14", "h19", "h22", "z1", "z3"]),
        Case("late from:zoe", ["z3"]),
        Case("from:zoltan", ["w2", "w4"]),
        Case(#"from:"Bob M""#, ["h2", "h5", "h10", "h20", "h23", "h25"], "a name with a space, quoted"),
        Case("from:bob", ["h2", "h5", "h10", "h20", "h23", "h25", "w1"], "part of a name matches every such member"),
        Case("from:me", ["h6", "w3", "z2"], "the archive's owner"),
        Case("from:nobody", [], "a name that matches no one finds nothing"),
        Case("fox from:bob", ["h5", "w1"]),
        // in:
        Case("in:hiking", g1Live, "by chat name"),
        Case("in:g2", ["w1", "w2", "w3", "w4"], "by chat id"),
        Case(#"in:"work stuff""#, ["w1", "w2", "w3", "w4"], "a quoted name with a space"),
        Case("in:zoe", ["z1", "z2", "z3"], "a direct chat by its folded name"),
        Case("fox in:g1", ["h3", "h5", "h19"]),
        Case("fox in:nowhere", [], "an unknown chat finds nothing"),
        // has:
        Case("has:link", ["h6", "h7", "h8"], "a URL in the text, a preview card, a hyperlink"),
        Case("has:image", ["h9"]),
        Case("has:video", ["h10"]),
        Case("has:voice", ["h11"]),
        Case("has:file", ["h12"]),
        Case("has:IMAGE", ["h9"], "kinds are case-insensitive"),
        Case("trail has:link", ["h6", "h7"], "a word in a URL or the text, with a link; z1's trailhead has none"),
        Case("summit has:image", ["h9"]),
        Case("summit", ["h9", "h10"]),
        Case("has:nothing", [], "an unknown kind is searched as text"),
        // mentions:
        Case(#"mentions:"Bob M""#, ["h13"]),
        Case("mentions:bob", ["h13", "w3"]),
        Case("mentions:me", ["h14", "w4"], "by the mention map, and by the owner's name"),
        Case("mentions:sam", ["h14", "w4"]),
        Case("mentions:anna", []),
        // Dates: before is exclusive, after inclusive, both at UTC midnight of the day (or month, or year).
        Case("boundary", ["h15", "h16", "h17", "h18"]),
        Case("boundary before:2024-05-01", ["h15"], "strictly before May 1 00:00"),
        Case("boundary after:2024-05-01", ["h16", "h17", "h18"], "at or after May 1 00:00"),
        Case("boundary after:2024-05", ["h16", "h17", "h18"], "a month is its first day"),
        Case("boundary before:2024-06", ["h15", "h16", "h17"]),
        Case("boundary after:2024-05 before:2024-06", ["h16", "h17"], "exactly May"),
        Case("boundary after:2024-05-31", ["h17", "h18"]),
        Case("boundary after:2024", ["h15", "h16", "h17", "h18"], "a year is its first day"),
        Case("boundary before:2024", []),
        Case("boundary after:2024-04 after:2024-05-15", ["h17", "h18"], "the latest after: wins"),
        Case("boundary before:2024-06 before:2024-05", ["h15"], "the earliest before: wins"),
        Case("boundary before:2024-05-01T00:00:01Z", ["h15", "h16"], "a full time, to the second"),
        Case("boundary after:2024-05-01T02:00:00+02:00", ["h16", "h17", "h18"], "a time with an offset"),
        Case("boundary after:2024-05-01T00:00:00-01:00", ["h17", "h18"], "a negative offset"),
        Case("boundary before:2024-99", [], "an impossible date is searched as text"),
        Case("before:2024-04-11", ["h1"], "a date alone"),
        // is:
        Case("is:unread", ["h19"]),
        Case("is:pinned", ["h20"]),
        Case("fox is:unread", ["h19"]),
        Case("gate is:pinned", ["h20"]),
        Case("brown is:unread", []),
        Case("is:starred", [], "an unknown state is searched as text"),
        // Operators together, with and without words.
        Case("from:zoe in:hiking has:link", ["h7"]),
        Case("from:zoe has:image", ["h9"]),
        Case("from:zoe after:2024-05", ["h19", "h22"]),
        Case("harvest from:zoe", ["h22"]),
        Case("from:zoe -harvest after:2024-05", ["h19"]),
        Case("from:me in:g2", ["w3"]),
        Case("in:g1 in:g2", [], "two chats at once is nothing"),
        Case("fox OR bear from:bob", ["h5", "w1"]),
        // Unknown keys are text.
        Case("note:remember", ["h25"], "searched as the phrase note remember"),
        Case("from:", [], "an empty operator is the word from"),
    ]

    @Test(arguments: cases)
    func operatorFindsExactlyTheseItems(_ c: Case) async throws {
        let hits = try await Self.search(c.query)
        #expect(Set(hits) == c.expected, "\(c.query)")
        #expect(hits.count == Set(hits).count, "no duplicates")
    }

    @Test func emptyQueryFindsEveryLiveItemNewestFirst() async throws {
        let hits = try await Self.search("")
        #expect(Set(hits) == Self.live)
        #expect(hits.count == Self.live.count)
        let (archive, _) = try Self.fixture.get()
        let page = try await archive.search("", options: SearchOptions(limit: 1000))
        let keys = page.hits.map { ($0.item.timestamp.milliseconds, $0.item.id) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 > $1 }, "newest first by (ts, id)")
    }

    // MARK: SearchOptions

    struct OptionCase: Sendable, CustomTestStringConvertible {
        var query: String
        var options: SearchOptions
        var expected: Set<String>
        var testDescription: String {
            "\(query) chat=\(options.chat ?? "-") content=\(options.content?.rawValue ?? "-") deleted=\(options.includeDeleted)"
        }
    }

    static let optionCases: [OptionCase] = [
        OptionCase(query: "fox", options: SearchOptions(chat: "g1"), expected: ["h3", "h5", "h19"]),
        OptionCase(query: "fox", options: SearchOptions(chat: "g2"), expected: ["w1"]),
        OptionCase(query: "", options: SearchOptions(chat: "d1"), expected: ["z1", "z2", "z3"]),
        OptionCase(query: "see", options: SearchOptions(chat: "d1"), expected: ["z1", "z2"]),
        OptionCase(
            query: "fox", options: SearchOptions(chat: "g1", includeDeleted: true),
            expected: ["h3", "h5", "h19", "h21"]),
        OptionCase(
            query: "fox", options: SearchOptions(includeDeleted: true), expected: ["h3", "h5", "h19", "h21", "w1"]),
        OptionCase(query: "deleted", options: SearchOptions(), expected: []),
        OptionCase(query: "deleted", options: SearchOptions(includeDeleted: true), expected: ["h21"]),
        OptionCase(query: "from:zoe", options: SearchOptions(chat: "d1"), expected: ["z1", "z3"]),
        OptionCase(query: "from:zoe", options: SearchOptions(chat: "g2"), expected: []),
        OptionCase(
            query: "from:bob", options: SearchOptions(chat: "g1"), expected: ["h2", "h5", "h10", "h20", "h23", "h25"]),
        OptionCase(query: "mentions:bob", options: SearchOptions(chat: "g2"), expected: ["w3"]),
        OptionCase(query: "fox in:g2", options: SearchOptions(chat: "g1"), expected: []),
        // Content filters.
        OptionCase(query: "fox", options: SearchOptions(content: .text), expected: ["h3", "h5", "h19", "w1"]),
        OptionCase(query: "summit", options: SearchOptions(content: .text), expected: []),
        OptionCase(query: "summit", options: SearchOptions(content: .image), expected: ["h9"]),
        OptionCase(query: "summit", options: SearchOptions(content: .video), expected: ["h10"]),
        OptionCase(query: "", options: SearchOptions(content: .voice), expected: ["h11"]),
        OptionCase(query: "", options: SearchOptions(content: .file), expected: ["h12"]),
        OptionCase(query: "packing", options: SearchOptions(content: .file), expected: ["h12"]),
        OptionCase(query: "", options: SearchOptions(content: .image), expected: ["h9"]),
        OptionCase(query: "", options: SearchOptions(content: .link), expected: ["h6", "h7", "h8"]),
        OptionCase(query: "", options: SearchOptions(content: .report), expected: ["h24"]),
        OptionCase(query: "spam", options: SearchOptions(content: .report), expected: ["h24"]),
        OptionCase(query: "", options: SearchOptions(chat: "g2", content: .link), expected: []),
        OptionCase(query: "from:zoe", options: SearchOptions(content: .link), expected: ["h7"]),
        OptionCase(query: "has:image", options: SearchOptions(content: .video), expected: []),
    ]

    @Test(arguments: optionCases)
    func optionsNarrowTheSearch(_ c: OptionCase) async throws {
        var options = c.options
        options.limit = 1000
        let hits = try await Self.search(c.query, options)
        #expect(Set(hits) == c.expected, "\(c.testDescription)")
    }

    @Test func contentFilterTextExcludesEveryOtherType() async throws {
        let hits = Set(try await Self.search("", SearchOptions(content: .text, limit: 1000)))
        #expect(hits == Self.live.subtracting(["h7", "h9", "h10", "h11", "h12", "h24"]))
    }

    @Test func unknownChatIsAnError() async throws {
        await #expect { _ = try await Self.search("fox", SearchOptions(chat: "nope")) } throws: {
            ($0 as? ArchiveError)?.code == .unknownChat
        }
    }

    // MARK: Order

    @Test func newestFirstIsTheDefault() async throws {
        #expect(try await Self.search("harvest") == ["h23", "h22"])
        #expect(try await Self.search("fox") == ["h19", "h5", "w1", "h3"])
        #expect(try await Self.search("boundary") == ["h18", "h17", "h16", "h15"])
    }

    @Test func relevancePutsTheStrongestMatchFirst() async throws {
        #expect(try await Self.search("harvest", SearchOptions(limit: 100, order: .relevance)) == ["h22", "h23"])
        // Same ranking within a chat, and for the same set of hits.
        #expect(
            try await Self.search("harvest", SearchOptions(chat: "g1", limit: 100, order: .relevance)) == [
                "h22", "h23",
            ])
        let relevance = try await Self.search("fox", SearchOptions(limit: 100, order: .relevance))
        #expect(Set(relevance) == ["h3", "h5", "h19", "w1"])
    }

    @Test func relevancePagesThroughEveryHitOnce() async throws {
        let (archive, _) = try Self.fixture.get()
        var seen: [String] = []
        var cursor: String? = nil
        repeat {
            let page = try await archive.search("", options: SearchOptions(limit: 4, cursor: cursor, order: .relevance))
            seen += page.hits.map(\.item.sourceId)
            cursor = page.nextCursor
        } while cursor != nil && seen.count < 1000
        #expect(seen.count == Self.live.count)
        #expect(Set(seen) == Self.live)
    }

    @Test func hitsCarryTheItemAsStored() async throws {
        let (archive, _) = try Self.fixture.get()
        let link = try #require(try await archive.search("alpine").hits.first)
        #expect(link.item.sourceId == "h7")
        #expect(link.item.contentType == .link)
        #expect(link.item.preview?.title == "Alpine news")
        #expect(link.item.sender == "Zoë")
        #expect(link.ranges.isEmpty, "the match is in the preview, not in the display text")
        let doc = try #require(try await archive.search("docs").hits.first)
        #expect(doc.item.text == "the docs are updated", "hyperlink markers removed")
        let direct = try #require(try await archive.search("trailhead").hits.first)
        #expect(direct.item.sender == "Zoë")
        #expect(direct.item.chatId == "d1")
    }
}
