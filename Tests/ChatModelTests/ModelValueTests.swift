import ChatModel
import Testing

@Suite struct ModelValueTests {
    @Test func itemDefaultsAreAPlainUnflaggedMessage() {
        let item = Item(
            chatSourceId: "c", sourceId: "1", timestamp: Timestamp(seconds: 60), direction: .rcv,
            content: MessageContent(type: .text, text: "hi"))
        #expect(item.memberSourceId == nil)
        #expect(item.senderName == nil)
        #expect(item.markup == .simplex)
        #expect(item.mentions.isEmpty)
        #expect(item.quote == nil)
        #expect(item.file == nil)
        #expect(item.reactions.isEmpty)
        #expect(!item.isEdited && !item.isDeleted && !item.isUnread && !item.isPinned)
        #expect(item.status == nil)
        #expect(item.raw == nil)
    }

    @Test func messageContentDefaultsHaveNoExtras() {
        let content = MessageContent(type: .voice, text: "")
        #expect(content.preview == nil)
        #expect(content.duration == nil)
        #expect(content.reason == nil)
        let link = MessageContent(type: .link, text: "see", preview: LinkPreview(uri: "https://a.example"))
        #expect(link.preview?.title == "")
        #expect(link.preview?.description == "")
        #expect(link != content)
    }

    @Test func itemsDifferingInOneFlagAreDifferent() {
        let a = Item(
            chatSourceId: "c", sourceId: "1", timestamp: Timestamp(seconds: 1), direction: .snd,
            content: MessageContent(type: .text, text: "x"))
        var b = a
        #expect(a == b)
        b.isEdited = true
        #expect(a != b)
        b = a
        b.mentions["@al"] = MentionTarget(memberSourceId: "m1")
        #expect(a != b)
        #expect(b.mentions["@al"]?.isUserMention == false)
    }

    @Test func chatAndMemberDefaults() {
        let chat = Chat(sourceId: "g1", type: .group, displayName: "Hikers")
        #expect(chat.fullName == "" && chat.localAlias == "")
        #expect(!chat.isFavorite && !chat.isMarkedUnread)
        #expect(chat.notifications == .all && !chat.isMuted)
        #expect(chat.business == nil && chat.tags.isEmpty && chat.draft == nil)
        #expect(chat.source == "jsonl")
        #expect(Chat(sourceId: "g", type: .group, displayName: "G", notifications: .none).isMuted)
        #expect(!Chat(sourceId: "g", type: .group, displayName: "G", notifications: .mentions).isMuted)

        let member = Member(chatSourceId: "g1", sourceId: "m1", displayName: "alice")
        #expect(!member.isUser)
        #expect(member.shownName == "alice")
        #expect(Member(chatSourceId: "g1", sourceId: "m1", displayName: "alice", localAlias: "Mum").shownName == "Mum")
    }

    @Test func rawValuesAreSimplexNames() {
        #expect(
            ChatType.allCases.map(\.rawValue) == ["direct", "group", "local", "contactRequest", "contactConnection"])
        #expect(
            ContentType.allCases.map(\.rawValue) == [
                "text", "link", "image", "video", "voice", "file", "report", "chat", "event", "unknown",
            ])
        #expect(ItemDirection.allCases.map(\.rawValue) == ["snd", "rcv", "event"])
        #expect(FormatColor.allCases.count == 8)
        #expect(BusinessRole(rawValue: "customer") == .customer)
        #expect(NotificationMode(rawValue: "none") == NotificationMode.none)
        #expect(ItemStatus(rawValue: "delivered") == .delivered)
        #expect(SimplexLinkType(rawValue: "channel") == .channel)
    }

    @Test(arguments: [
        (FormattedText("x", .hyperLink(showText: "shown", linkUri: "u")), "shown"),
        (FormattedText("https://u", .hyperLink(showText: nil, linkUri: "https://u")), "https://u"),
        (
            FormattedText("raw", .simplexLink(showText: "join", linkType: .group, simplexUri: "s", smpHosts: ["h"])),
            "join"
        ),
        (FormattedText("raw", .simplexLink(showText: nil, linkType: .group, simplexUri: "s", smpHosts: ["h"])), "raw"),
        (FormattedText("@al", .mention(memberName: "alice")), "@alice"),
        (FormattedText("bold", .bold), "bold"),
        (FormattedText("plain"), "plain"),
    ])
    func shownTextIsWhatAReaderSees(_ piece: FormattedText, _ shown: String) {
        #expect(piece.shownText == shown)
    }

    @Test(arguments: [
        (Format.uri, true), (.hyperLink(showText: nil, linkUri: "u"), true),
        (.simplexLink(showText: nil, linkType: .invitation, simplexUri: "s", smpHosts: ["h"]), true),
        (.simplexName(SimplexNameInfo(nameType: .contact, nameTLD: "simplex", domain: "a", subDomain: [])), true),
        (.email, false), (.phone, false), (.mention(memberName: "a"), false), (.hashtag, false), (.bold, false),
    ])
    func onlyLinkFormatsCountAsLinks(_ format: Format, _ isLink: Bool) {
        #expect(format.isLink == isLink)
    }

    @Test func spanAndAttachmentValues() {
        let span = Span(start: 2, end: 5, format: .italic)
        #expect(span.end - span.start == 3)
        #expect(span != Span(start: 2, end: 5, format: .bold))
        #expect(FileRef(name: "a.jpg").size == nil)
        #expect(Quote(itemSourceId: nil, text: "q").text == "q")
        #expect(Reaction(emoji: "👍", count: 3).count == 3)
    }
}
