import ChatModel
import Foundation
import Testing

@testable import ChatImport

private let slackCorpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Corpus/slack").path

private func importSlack(owner: String? = "Ana") throws -> CollectingSink {
    try readExport(slackCorpus, options: ImportOptions(ownerName: owner))
}

private func pieces(_ item: Item?) -> [FormattedText] {
    if case .formatted(let p)? = item?.markup { return p }
    return []
}

@Suite("Slack folder export")
struct SlackExportTests {
    let sink: CollectingSink
    init() throws { sink = try importSlack() }

    func item(_ ts: String) -> Item? { sink.items.first { $0.sourceId == ts } }

    @Test func chatsFromEveryListAndFolderByNameOrId() {
        #expect(
            sink.chats.map(\.sourceId) == [
                "slack:C07GARDEN", "slack:C07RANDOM", "slack:G07SECRET", "slack:G07MPIM01", "slack:D07ANABEN",
                "slack:old-channel",
            ])
        #expect(sink.chats.map(\.type) == [.group, .group, .group, .group, .direct, .group])
        #expect(
            sink.chats.map(\.displayName) == [
                "garden", "random", "committee", "Ana, Ben Okafor, cal", "Ben Okafor", "old-channel",
            ])
        #expect(sink.chats.allSatisfy { $0.source == "slack" })
        // random's folder is named by its id.
        #expect(
            sink.items.filter { $0.chatSourceId == "slack:C07RANDOM" }.first?.content.text
                == "random hello from a Grid user")
        #expect(sink.items.filter { $0.chatSourceId == "slack:C07RANDOM" }.count == 8)
        #expect(sink.items.count == 33)
        #expect(sink.items.filter { $0.chatSourceId == "slack:C07GARDEN" }.count == 20)
    }

    @Test func membersNamedFromProfiles() {
        let garden = sink.members.filter { $0.chatSourceId == "slack:C07GARDEN" }
        #expect(garden.map(\.sourceId) == ["U07ANA001", "U07BEN002", "U07CAL003", "B07WEATHER"])
        #expect(garden.map(\.displayName) == ["Ana", "Ben Okafor", "cal", "Weather Bot"])
        #expect(garden.map(\.isUser) == [true, false, false, false])
        #expect(garden.first?.fullName == "Ana Lima")
        #expect(sink.members.first { $0.sourceId == "W07DEE004" }?.displayName == "Dee")
    }

    @Test func theSpecExample() throws {
        let first = try #require(item("1726299665.004100"))
        #expect(first.content.text == "@Ben Okafor tomatoes are ready & shed is open")
        #expect(first.timestamp.rfc3339 == "2024-09-14T07:41:05.004Z")
        #expect(first.direction == .snd)
        #expect(first.mentions == ["Ben Okafor": MentionTarget(memberSourceId: "U07BEN002")])
        #expect(
            pieces(first) == [
                FormattedText("@Ben Okafor", .mention(memberName: "Ben Okafor")),
                FormattedText(" tomatoes are ready & shed is open"),
            ])
        #expect(first.quote == nil)
        let reply = try #require(item("1726299860.001900"))
        #expect(reply.isEdited)
        #expect(
            reply.quote
                == Quote(itemSourceId: "1726299665.004100", text: "@Ben Okafor tomatoes are ready & shed is open"))
        #expect(reply.direction == .rcv && reply.memberSourceId == "U07BEN002" && reply.senderName == "Ben Okafor")
        let join = try #require(item("1726300400.000200"))
        #expect(join.direction == .event && join.content.type == .event)
        #expect(join.content.text == "@cal has joined the channel")
        #expect(join.memberSourceId == nil)
    }

    @Test func richTextBlocksWinOverText() throws {
        let m = try #require(item("1726300500.000300"))
        #expect(
            m.content.text
                == "Saturday plan: rota \u{1F331} @here ask @Ben Okafor or see #random :custom_spade:\n• water beans\n• old\ngate code 1234\nbring gloves"
        )
        #expect(
            pieces(m) == [
                FormattedText("Saturday", .bold), FormattedText(" plan: "),
                FormattedText("rota", .hyperLink(showText: "rota", linkUri: "https://example.com/rota")),
                FormattedText(" \u{1F331} @here ask "),
                FormattedText("@Ben Okafor", .mention(memberName: "Ben Okafor")),
                FormattedText(" or see #random :custom_spade:\n• water beans\n• "),
                FormattedText("old", .strikeThrough),
                FormattedText("\n"), FormattedText("gate code 1234", .snippet), FormattedText("\n"),
                FormattedText("bring gloves", .italic),
            ])
        #expect(m.mentions.keys.sorted() == ["Ben Okafor"])
    }

    @Test func filesWithoutTokens() throws {
        let photo = try #require(item("1726300600.000400"))
        #expect(photo.content.type == .image)
        #expect(photo.file == FileRef(name: "harvest.jpg", size: 204800))
        #expect(photo.content.text == "harvest photo")
        let raw = try #require(photo.raw)
        #expect(!raw.contains("url_private") && !raw.contains("xoxe"))
        #expect(raw.contains("\"F07PHOTO1\""))
        #expect(!sink.items.contains { ($0.raw ?? "").contains("xoxe") })
        let hidden = try #require(item("1726300700.000500"))
        #expect(hidden.file?.name == "(file unavailable)")
        #expect(hidden.content.type == .file)
    }

    @Test func rawKeepsTheElementBytes() throws {
        let reply = try #require(item("1726299860.001900"))
        #expect(
            reply.raw?.hasPrefix("{\"type\": \"message\", \"user\": \"U07BEN002\", \"ts\": \"1726299860.001900\"")
                == true)
        #expect(reply.raw?.hasSuffix("\"edited\": {\"user\": \"U07BEN002\", \"ts\": \"1726300320.000000\"}}") == true)
    }

    @Test func legacyAttachmentsAndReactions() throws {
        let m = try #require(item("1726300800.000600"))
        #expect(m.content.type == .link)
        #expect(
            m.content.preview
                == LinkPreview(
                    uri: "https://seeds.example.org/beans", title: "Runner beans",
                    description: "Sow in May & water daily"))
        #expect(m.reactions == [Reaction(emoji: "👍", count: 2), Reaction(emoji: "🌱", count: 1)])
        #expect(pieces(m) == [FormattedText("https://seeds.example.org/beans", .uri)])
    }

    @Test func subtypes() throws {
        let bot = try #require(item("1726300900.000700"))
        #expect(bot.senderName == "Weather Bot" && bot.memberSourceId == "B07WEATHER" && bot.direction == .rcv)
        let tombstone = try #require(item("1726301000.000800"))
        #expect(tombstone.isDeleted && tombstone.content.text.isEmpty && tombstone.memberSourceId == nil)
        #expect(item("1726301100.000900")?.direction == .event)
        #expect(item("1726301100.000900")?.content.text == "@Ana set the channel topic: tomatoes & beans")
        #expect(item("1726301100.000900")?.mentions["Ana"]?.isUserMention == true)
        #expect(item("1726301200.001000")?.content.text == "waters the beans")
        #expect(item("1726301200.001000")?.direction == .rcv)
        #expect(item("1726301300.001100")?.quote?.itemSourceId == "1726299665.004100")
        #expect(item("1726301400.001200")?.direction == .event)
        let orphan = try #require(item("1726358400.000001"))
        #expect(orphan.quote == Quote(itemSourceId: "1726301000.000800", text: ""))
    }

    @Test func botAttachmentsAreTheTextShownOnceWithLinksResolved() throws {
        // No text: the attachment's pretext and text, links shown by their labels.
        let push = try #require(item("1726390000.000100"))
        #expect(
            push.content.text
                == "[allotment] 2 new commits pushed to main by ana\nabc123: water the beans 🌱 - ana\ndef456: 修复 typo - ana"
        )
        #expect(
            pieces(push).contains(
                FormattedText(
                    "abc123", .hyperLink(showText: "abc123", linkUri: "https://github.com/ana/allotment/commit/abc123"))
            ))
        #expect(pieces(push).contains(FormattedText("main", .snippet)))
        #expect(push.content.preview == nil)
        // Text, then the attachment: linked title, text, fields and footer; the fallback is not repeated.
        let issue = try #require(item("1726390100.000200"))
        #expect(
            issue.content.text
                == "Issue opened by @Ana\n#7 Shed door sticks\nIt sticks when it rains & the hinge squeaks\nLabels\nbug, شباك\nana/allotment"
        )
        #expect(!issue.content.text.contains("Issue #7: Shed door sticks"))
        #expect(issue.mentions["Ana"]?.memberSourceId == "U07ANA001")
        #expect(
            pieces(issue).contains(
                FormattedText(
                    "#7 Shed door sticks",
                    .hyperLink(showText: "#7 Shed door sticks", linkUri: "https://github.com/ana/allotment/issues/7"))))
        // A text that only repeats the attachment's fallback is shown once, as the attachment.
        let frost = try #require(item("1726390300.000400"))
        #expect(frost.content.text == "Frost warning\nLow of -2 °C at 04:00 & clear skies\nLow\n-2 °C")
        // An attachment with only a fallback shows the fallback.
        #expect(item("1726390400.000500")?.content.text == "New post: Compost 101 🍂")
    }

    @Test func layoutBlocksWinOverTheirNotificationText() throws {
        let poll = try #require(item("1726390200.000300"))
        #expect(
            poll.content.text
                == "New poll: when to plant?\nVote for the date in #garden, @Ben Okafor\nOption 1: مارس\nOption 2: אפריל\nPosted by Poll App ✓"
        )
        #expect(pieces(poll).contains(FormattedText("Option 1", .bold)))
        #expect(poll.senderName == "Poll App" && poll.memberSourceId == "U07BOTUSR")
    }

    @Test func botsAreNamedFromTheirProfileOrUsername() throws {
        let random = sink.members.filter { $0.chatSourceId == "slack:C07RANDOM" }
        // The first GitHub message has no name; the second names the member.
        #expect(random.last { $0.sourceId == "B0JL6UFSL" }?.displayName == "GitHub")
        #expect(random.first { $0.sourceId == "B0JL6UFSL" }?.displayName == "B0JL6UFSL")
        #expect(random.last { $0.sourceId == "B07RSS" }?.displayName == "RSS")  // an empty username is no name
        #expect(random.last { $0.sourceId == "B07WEATHER" }?.displayName == "Weather Bot")
        #expect(item("1726390100.000200")?.senderName == "GitHub")
    }

    @Test func unfurlPreviewsResolveSlackMarkup() throws {
        let m = try #require(item("1726390500.000600"))
        #expect(m.content.type == .link)
        #expect(m.content.text == "look https://news.example.com/a")
        #expect(
            m.content.preview
                == LinkPreview(
                    uri: "https://news.example.com/a", title: "Allotments & you",
                    description: "Read more from @Ben Okafor in #garden"))
    }

    @Test func sharedFileTitlesAreShown() throws {
        let plan = try #require(item("1726390600.000700"))
        #expect(plan.content.text == "Plot plan für 2025")
        #expect(plan.file?.name == "plot-plan-v2.pdf")
        // A title the text already says is not repeated.
        #expect(item("1726300600.000400")?.content.text == "harvest photo")
    }

    @Test func oldStyleTokens() throws {
        let m = try #require(item("1726358460.000100"))
        #expect(
            m.content.text
                == "old style @Ben Okafor and @ghost, @gardeners, Sep 14, @channel, @everyone, see #random and #elsewhere"
        )
        #expect(
            m.mentions == [
                "Ben Okafor": MentionTarget(memberSourceId: "U07BEN002"),
                "ghost": MentionTarget(memberSourceId: "U07ZZZ999"),
            ])
    }

    @Test func badRecordsReportedWithFileAndLine() {
        let folder = slackCorpus + "/Allotment Slack export Sep 14 2024/"
        let got = sink.issues.map {
            ($0.location.file.replacingOccurrences(of: folder, with: ""), $0.location.line ?? 0)
        }
        let expected: [(String, Int)] = [
            ("users.json", 10), ("garden/2024-09-16.json", 1), ("garden/2024-09-17.json", 3),
            ("garden/2024-09-17.json", 6),
            ("garden/2024-09-17.json", 4), ("garden/2024-09-17.json", 5), ("garden/2024-09-17.json", 7),
            ("garden/2024-09-18.json", 3), ("old-channel", 0),
        ]
        #expect(got.map(\.0) == expected.map(\.0))
        #expect(got.map(\.1) == expected.map(\.1))
        #expect(sink.issues.allSatisfy { $0.location.line == nil || $0.location.byteOffset != nil })
        // Good messages around the bad ones, and the complete element of a truncated file, are kept.
        #expect(item("1726531200.000100")?.content.text == "before the bad one")
        #expect(item("1726531380.000400")?.content.text == "after the bad ones")
        #expect(item("1726617600.000100")?.content.text == "complete element")
        #expect(sink.chats.last?.sourceId == "slack:old-channel")
    }

    @Test func directMessagesAndPrivateGroups() {
        let dm = sink.items.filter { $0.chatSourceId == "slack:D07ANABEN" }
        #expect(dm.map(\.direction) == [.snd, .rcv])
        #expect(
            sink.items.first { $0.chatSourceId == "slack:G07SECRET" }?.timestamp.rfc3339 == "2024-09-14T07:46:40.123Z")
    }

    @Test func withoutOwnerEverythingIsReceived() throws {
        let none = try importSlack(owner: nil)
        #expect(!none.items.contains { $0.direction == .snd })
        #expect(none.items.map(\.sourceId) == sink.items.map(\.sourceId))
    }
}

/// mrkdwn text and the pieces it becomes (ChatImport's SlackFormat article).
@Test(arguments: [
    ("plain", "hello", [FormattedText("hello")]),
    ("user", "<@U1>", [FormattedText("@Ann", .mention(memberName: "Ann"))]),
    ("user with label", "<@U9|bob>", [FormattedText("@bob", .mention(memberName: "bob"))]),
    ("known user ignores label", "<@U1|old>", [FormattedText("@Ann", .mention(memberName: "Ann"))]),
    ("channel", "<#C1|general>", [FormattedText("#general")]),
    ("here", "<!here> now", [FormattedText("@here now")]),
    ("channel broadcast", "<!channel>", [FormattedText("@channel")]),
    ("everyone", "<!everyone>", [FormattedText("@everyone")]),
    ("subteam", "<!subteam^S1|@team>", [FormattedText("@team")]),
    ("date", "<!date^1392734382^{date_num}|2014-02-18>", [FormattedText("2014-02-18")]),
    (
        "link with label", "<https://a.example/x|the site>",
        [FormattedText("the site", .hyperLink(showText: "the site", linkUri: "https://a.example/x"))]
    ),
    ("bare link", "<https://a.example/?a=1&amp;b=2>", [FormattedText("https://a.example/?a=1&b=2", .uri)]),
    ("escapes after tokens", "a &lt;b&gt; &amp;amp;", [FormattedText("a <b> &amp;")]),
    ("escaped brackets are not tokens", "&lt;@U1&gt;", [FormattedText("<@U1>")]),
    ("bold", "*b* x", [FormattedText("b", .bold), FormattedText(" x")]),
    ("italic", "an _i_", [FormattedText("an "), FormattedText("i", .italic)]),
    ("strike", "~s~", [FormattedText("s", .strikeThrough)]),
    ("code keeps markers", "`a *b*`", [FormattedText("a *b*", .snippet)]),
    ("code block", "```x\ny```", [FormattedText("x\ny", .snippet)]),
    ("inside words stays literal", "2*3*4 snake_case_name", [FormattedText("2*3*4 snake_case_name")]),
    ("unclosed", "*not closed", [FormattedText("*not closed")]),
    ("space after opener", "* not bold*", [FormattedText("* not bold*")]),
    ("bold around escaped", "*a &amp; b*", [FormattedText("a & b", .bold)]),
    ("lone angle", "a < b", [FormattedText("a < b")]),
])
func mrkdwnTokens(_ name: String, _ text: String, _ expected: [FormattedText]) {
    var directory = SlackDirectory()
    directory.users["U1"] = SlackDirectory.User(id: "U1", name: "Ann", realName: "")
    directory.channelNames["C1"] = "general"
    let got = SlackMrkdwn.parse(text, directory: directory)
    #expect(got.pieces == expected, "\(name)")
}

@Test(arguments: [
    ("1726299665.004100", Int64(1_726_299_665_004)), ("1726299665", 1_726_299_665_000), ("1.9999999", 1999),
    ("0.000001", 0),
])
func slackTimestamps(_ ts: String, _ ms: Int64) {
    #expect(SlackConversationReader.timestamp(ts)?.milliseconds == ms)
}

@Test(arguments: ["", "abc", "1.2.3", "-5.000100", "1e9", "1726299665.", ".5", "12345678901234567890.1"])
func badSlackTimestamps(_ ts: String) {
    #expect(SlackConversationReader.timestamp(ts) == nil)
}

@Test func recognition() {
    #expect(SlackImporter.recognises(entryNames: ["channels.json", "users.json", "general/2024-01-01.json"]))
    #expect(SlackImporter.recognises(entryNames: ["export/dms.json", "export/org_users.json"]))
    #expect(!SlackImporter.recognises(entryNames: ["users.json"]))
    #expect(!SlackImporter.recognises(entryNames: ["a/b/channels.json", "a/b/users.json"]))
    #expect(!SlackImporter.recognises(entryNames: ["result.json"]))
}

@Test(arguments: [
    ("empty array", "[]", 0, false),
    ("two elements", "[{\"a\": \"],\"}, [1, 2]]", 2, false),
    ("escaped quote", "[\"a\\\"]\", 3]", 2, false),
    ("truncated", "[{\"a\": 1}, {\"b\":", 1, true),
    ("trailing data", "[1] x", 1, true),
    ("object", "{\"a\": []}", 0, true),
    ("empty file", "", 0, true),
])
func jsonArraySplitting(_ name: String, _ json: String, _ count: Int, _ hasError: Bool) {
    let split = SlackJSONArray(Array(json.utf8))
    #expect(split.elements.count == count, "\(name)")
    #expect((split.error != nil) == hasError, "\(name)")
}

private final class SlackBytesContainer: ExportContainer {
    let path = "x.zip"
    let files: [String: String]
    var entryNames: [String] { files.keys.sorted() }
    var refusedEntries: [(name: String, reason: String)] { [] }
    init(_ files: [String: String]) { self.files = files }
    func open(_ name: String) throws -> ByteStream { MemoryByteStream(Array((files[name] ?? "").utf8)) }
    func size(of name: String) -> Int64? { files[name].map { Int64($0.utf8.count) } }
    func displayName(of name: String) -> String { path + "!" + name }
}

@Test func absurdNumbersAndNestedPrivateURLsAreHarmless() throws {
    let container = SlackBytesContainer([
        "users.json": "[]",
        "channels.json": #"[{"id": "C1", "name": "dev", "members": []}]"#,
        "dev/2024-09-14.json": #"""
        [{"ts": "1726299665.000001", "user": "U1", "text": "x",
          "files": [{"name": "a.bin", "size": 1e300, "mimetype": "application/octet-stream"}],
          "reactions": [{"name": "tada", "count": -1e300, "users": ["U1"]}],
          "attachments": [{"title": "t", "image": {"url_private": "https://files.slack.com/x?t=xoxe-1"}}],
          "blocks": [{"type": "rich_text", "elements": [{"type": "rich_text_list", "style": "ordered", "offset": 1e300, "indent": -4,
             "elements": [{"type": "rich_text_section", "elements": [{"type": "text", "text": "one"}]}]}]}]}]
        """#,
    ])
    let sink = CollectingSink()
    try SlackImporter().read(container, into: sink, options: ImportOptions())
    let item = try #require(sink.items.first)
    #expect(item.file == FileRef(name: "a.bin", size: nil))
    #expect(item.reactions == [Reaction(emoji: "🎉", count: 1)])
    // The attachment is content a bot posted (no link it previews): its title is shown.
    #expect(item.content.text == "1. one\nt")
    #expect(item.raw?.contains("xoxe") == false)
    #expect(item.chatSourceId == "slack:C1")
}
