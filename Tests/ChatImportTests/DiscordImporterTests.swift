import ChatModel
import Foundation
import Testing

@testable import ChatImport

private func importDiscord(_ relative: String, owner: String? = nil) throws -> CollectingSink {
    try readExport(corpusRoot + "/discord/" + relative, options: ImportOptions(ownerName: owner))
}

private func item(_ sink: CollectingSink, _ id: String) -> Item? { sink.items.first { $0.sourceId == id } }

@Suite struct DiscordDirectMessageTests {
    let sink: CollectingSink
    init() throws { sink = try importDiscord("dm") }

    @Test func chatAndMembers() {
        #expect(
            sink.chats == [
                Chat(sourceId: "discord:771230000000000042", type: .direct, displayName: "vee_k", source: "discord")
            ])
        #expect(
            sink.members.map(\.sourceId) == [
                "300000000000000022", "300000000000000011", "300000000000000033", "456226577798135808",
            ])
        #expect(sink.members.map(\.displayName) == ["Vee", "Moss", "Kit", "Deleted User"])
        #expect(sink.members.map(\.fullName) == ["vee_k", "moss", "kit", "Deleted User"])
    }

    @Test func badRecordIsReportedAndSkipped() {
        #expect(sink.items.count == 8)
        #expect(sink.issues.count == 1)
        #expect(sink.issues.first?.message.contains("content is not a string") == true)
        #expect(sink.issues.first?.location.line != nil)
        #expect(sink.items.allSatisfy { $0.sourceId != "1206406500000000000" })
    }

    @Test func escapedSurrogatePairsAndOffsets() throws {
        let m = try #require(item(sink, "1206405132535849536"))
        #expect(m.content.text == "boot log? 🚀 über-fast, 日本")
        #expect(m.markup == .plain)
        #expect(m.timestamp.rfc3339 == "2024-02-12T01:01:00Z")
        #expect(m.direction == .rcv)
        #expect(m.memberSourceId == "300000000000000022")
    }

    @Test func replyWithMentionBoldAttachmentsAndReactions() throws {
        let m = try #require(item(sink, "1206405319098491456"))
        #expect(m.timestamp.rfc3339 == "2024-02-12T01:04:02Z")
        #expect(m.isEdited)
        #expect(m.content.text == "@Vee log attached, v0.3 boots")
        #expect(
            m.markup
                == .formatted([
                    FormattedText("@Vee", .mention(memberName: "Vee")), FormattedText(" log attached, "),
                    FormattedText("v0.3", .bold),
                    FormattedText(" boots"),
                ]))
        #expect(m.mentions == ["Vee": MentionTarget(memberSourceId: "300000000000000022")])
        #expect(m.quote == Quote(itemSourceId: "1206405132535849536", text: ""))
        #expect(m.file == FileRef(name: "boot.log", size: 5120, path: "dm.json_Files/boot-7F3A1.log"))
        // Every attachment is kept, with its backslashes turned into slashes.
        #expect(m.moreFiles == [FileRef(name: "dmesg.txt", size: 900, path: "dm.json_Files/dmesg-1A2B3.txt")])
        #expect(m.files.map(\.name) == ["boot.log", "dmesg.txt"])
        #expect(m.content.type == .file)
        #expect(m.raw?.contains("dmesg.txt") == true)
        #expect(m.reactions == [Reaction(emoji: "👍", count: 2), Reaction(emoji: ":blobwave:", count: 1)])
    }

    @Test(arguments: [
        ("1206406000000000000", "Moss started a call (125 s)"),
        ("1206406100000000000", "Pinned a message."),
    ])
    func systemMessagesAreEvents(id: String, text: String) throws {
        let m = try #require(item(sink, id))
        #expect(m.direction == .event)
        #expect(m.content.type == .event)
        #expect(m.content.text == text)
    }

    @Test func unrenderedTokensDeletedUserAndPin() throws {
        let m = try #require(item(sink, "1206406200000000000"))
        #expect(m.memberSourceId == "456226577798135808")
        #expect(m.isPinned)
        #expect(m.timestamp.rfc3339 == "2024-02-12T01:14:00.123Z")
        #expect(
            m.content.text
                == "@Moss thanks :blobwave: see you 2024-02-12T01:06:40Z in #771230000000000099 @300000000000000099")
        #expect(
            m.mentions == [
                "Moss": MentionTarget(memberSourceId: "300000000000000011"),
                "300000000000000099": MentionTarget(memberSourceId: "300000000000000099"),
            ])
        #expect(m.content.type == .image)
        #expect(
            m.file
                == FileRef(
                    name: "photo.PNG", size: 204800,
                    path: "https://cdn.discordapp.com/attachments/771230000000000042/1/photo.PNG"))
    }

    @Test func embedsStickersAndVoice() throws {
        let link = try #require(item(sink, "1206406300000000000"))
        #expect(link.content.type == .link)
        #expect(
            link.content.preview
                == LinkPreview(
                    uri: "https://example.com/article", title: "Kernel 6.8 released",
                    description: "What is new in the scheduler"))
        #expect(link.markup == .formatted([FormattedText("https://example.com/article", .uri)]))
        #expect(item(sink, "1206406400000000000")?.content.text == "Wave")
        let voice = try #require(item(sink, "1206406600000000000"))
        #expect(voice.content.type == .voice)
        #expect(
            voice.file == FileRef(name: "voice-message.ogg", size: 30000, path: "dm.json_Files/voice-message-5C2D1.ogg")
        )
    }

    @Test func theOwnerNameMakesSentItems() throws {
        let mine = try importDiscord("dm", owner: "moss")
        #expect(mine.items.first { $0.sourceId == "1206405319098491456" }?.direction == .snd)
        #expect(mine.items.first { $0.sourceId == "1206405132535849536" }?.direction == .rcv)
        #expect(mine.members.filter(\.isUser).map(\.sourceId) == ["300000000000000011"])
    }
}

@Suite struct DiscordPartitionTests {
    let sink: CollectingSink
    init() throws { sink = try importDiscord("guild") }

    @Test func oneChatFromBothPartitions() {
        #expect(sink.chats.count == 1)
        #expect(sink.chats.first?.sourceId == "discord:990000000000000001")
        #expect(sink.chats.first?.type == .group)
        #expect(sink.chats.first?.displayName == "general")
        #expect(sink.chats.first?.fullName == "Climbing Club")
        #expect(sink.members.map(\.displayName) == ["Ann Lee", "Cy", "bo"])
    }

    @Test func overlappingMessagesComeOnceFromTheNewestExport() throws {
        #expect(
            sink.items.map(\.sourceId).map { String($0.suffix(3)) } == [
                "103", "104", "105", "107", "108", "109", "101", "102",
            ])
        let newer = try #require(item(sink, "1210000000000000103"))
        #expect(newer.content.text == "second version")
        #expect(newer.isEdited)
        #expect(sink.issues.count == 1)
        #expect(sink.issues.first?.message.contains("1210000000000000105 appears again in this file") == true)
        #expect(item(sink, "1210000000000000105")?.content.text.hasPrefix("@Ann Lee") == true)
    }

    @Test func entryOrderDoesNotMatter() throws {
        let container = try FolderContainer(path: corpusRoot + "/discord/guild")
        let reversed = CollectingSink()
        try DiscordImporter().read(
            container, entries: container.entryNames.reversed(), into: reversed, options: ImportOptions())
        #expect(reversed.items == sink.items)
    }

    @Test func markdownMarkersAreRemoved() throws {
        let m = try #require(item(sink, "1210000000000000101"))
        #expect(m.timestamp.rfc3339 == "2024-02-29T18:00:00Z")
        #expect(
            m.markup
                == .formatted([
                    FormattedText("i", .italic), FormattedText(" "), FormattedText("j", .italic), FormattedText(" "),
                    FormattedText("u", .underline), FormattedText(" "), FormattedText("s", .strikeThrough),
                    FormattedText(" "),
                    FormattedText("spoil", .secret), FormattedText(" "), FormattedText("code", .snippet),
                    FormattedText(" "),
                    FormattedText("docs", .hyperLink(showText: "docs", linkUri: "https://example.com/docs")),
                    FormattedText(" see "),
                    FormattedText("https://example.org/x", .uri), FormattedText("."),
                ]))
        #expect(m.content.text == "i j u s spoil code docs see https://example.org/x.")
    }

    @Test func escapesSnakeCaseAndFences() throws {
        let m = try #require(item(sink, "1210000000000000102"))
        #expect(
            m.markup
                == .formatted([
                    FormattedText("keep snake_case_name plain, *not italic*\n"), FormattedText("let x = 1", .snippet),
                ]))
    }

    @Test func mentionsMatchTheLongestNameAndNestedFormats() throws {
        let m = try #require(item(sink, "1210000000000000105"))
        #expect(m.timestamp.rfc3339 == "2024-03-01T08:00:00Z")
        #expect(
            m.markup
                == .formatted([
                    FormattedText("@Ann Lee", .mention(memberName: "Ann Lee")), FormattedText(" hi @Ann, "),
                    FormattedText("bold ", .bold),
                    FormattedText("both", .italic), FormattedText(" and "), FormattedText("all", .italic),
                ]))
        #expect(m.mentions == ["Ann Lee": MentionTarget(memberSourceId: "500000000000000001")])
    }

    @Test func repliesThreadsForwardsAndBackslashPaths() throws {
        let reply = try #require(item(sink, "1210000000000000107"))
        #expect(reply.quote == Quote(itemSourceId: "1210000000000000101", text: ""))
        #expect(reply.file == FileRef(name: "clip-9F.mp4", size: 1000, path: "general_Files/clip-9F.mp4"))
        #expect(reply.content.type == .video)
        let thread = try #require(item(sink, "1210000000000000108"))
        #expect(thread.direction == .event)
        #expect(thread.content.text == "Started a thread.")
        #expect(thread.quote == Quote(itemSourceId: nil, text: ""))
        let forward = try #require(item(sink, "1210000000000000109"))
        #expect(forward.content.text == "original text")
        #expect(forward.quote == nil)
        #expect(item(sink, "1210000000000000104")?.content.text == "Cy joined the server")
    }

    @Test func truncatedPartitionKeepsCompleteMessages() throws {
        let name = "Climbing Club - Text Channels - general [990000000000000001] [part 1].json"
        let text = try String(contentsOfFile: corpusRoot + "/discord/guild/" + name, encoding: .utf8)
        let cut = try #require(text.range(of: "first version"))
        let container = try MemoryContainer(["part1.json": Array(text[..<cut.lowerBound].utf8)])
        let sink = CollectingSink()
        try DiscordImporter().read(container, entries: ["part1.json"], into: sink, options: ImportOptions())
        #expect(sink.items.map(\.sourceId) == ["1210000000000000101", "1210000000000000102"])
        let issue = try #require(sink.issues.first)
        #expect(issue.location.file == "memory!part1.json")
        let start = try #require(text.range(of: "{\n      \"id\": \"1210000000000000103\""))
        #expect(issue.location.byteOffset == Int64(text[..<start.lowerBound].utf8.count))
    }

    @Test func recognisesExportsByTheirStart() {
        #expect(DiscordImporter.recognises(prefix: Array(#"{"guild": {"id": "0"}, "channel": {"id": "1"}"#.utf8)))
        #expect(
            !DiscordImporter.recognises(prefix: Array(#"{"name": "x", "type": "personal_chat", "messages": []}"#.utf8)))
    }
}

@Suite struct DiscordMarkdownTests {
    @Test(arguments: [
        ("plain", "just text", [FormattedText("just text")]),
        ("bold italic", "***x***", [FormattedText("x", .italic)]),
        ("unclosed", "**open and *half", [FormattedText("**open and *half")]),
        ("fence without language", "```\na b\n```", [FormattedText("a b", .snippet)]),
        ("double backtick", "``a`b``", [FormattedText("a`b", .snippet)]),
        (
            "url in parentheses", "(see https://x.org/a_(b))",
            [FormattedText("(see "), FormattedText("https://x.org/a_(b)", .uri), FormattedText(")")]
        ),
        ("angle url", "<https://x.org>", [FormattedText("https://x.org", .uri)]),
        ("email is not a mention", "a@Vee", [FormattedText("a@Vee")]),
    ])
    func cases(name: String, input: String, expected: [FormattedText]) {
        let md = DiscordMarkdown(input, users: [DiscordMarkdown.User(id: "1", names: ["Vee"])])
        #expect(md.pieces == expected, "\(name)")
    }
}

/// Media paths kept only inside the export (ChatImport's DiscordFormat article, trap 2; BadInput, paths with ..).
@Test(
    arguments: [
        ("dm.json_Files\\boot-7F3A1.log", "dm.json_Files/boot-7F3A1.log"),
        ("photos/./photo_1.jpg", "photos/photo_1.jpg"),
        ("https://cdn.example.com/a.png", "https://cdn.example.com/a.png"),
        ("../secret.txt", nil),
        ("a/../../b", nil),
        ("/etc/passwd", nil),
        ("C:\\Users\\x.png", nil),
        ("\\\\server\\share\\x.png", nil),
        ("", nil),
    ] as [(String, String?)])
func exportRelativePaths(_ input: String, _ expected: String?) {
    #expect(JSONField.relativePath(input) == expected)
}
