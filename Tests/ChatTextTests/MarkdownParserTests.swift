import ChatModel
import Testing

@testable import ChatText

/// A plain piece.
private func t(_ text: String) -> FormattedText { FormattedText(text) }
private func bold(_ text: String) -> FormattedText { FormattedText(text, .bold) }
private func mention(_ name: String, _ text: String) -> FormattedText { FormattedText(text, .mention(memberName: name)) }
private func command(_ str: String, _ text: String) -> FormattedText { FormattedText(text, .command(str)) }
private func name(
    _ text: String, _ type: SimplexNameInfo.NameType, _ tld: String, _ domain: String, _ sub: [String] = []
) -> FormattedText {
    FormattedText(text, .simplexName(SimplexNameInfo(nameType: type, nameTLD: tld, domain: domain, subDomain: sub)))
}

/// A valid 43-character base64url key.
let testKey = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"

/// One `parseMarkdown` case: a name, the line, the pieces.
struct LineCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let expected: [FormattedText]
    init(_ name: String, _ input: String, _ expected: [FormattedText]) {
        self.name = name
        self.input = input
        self.expected = expected
    }
    var testDescription: String { name }
}

/// One `parseMaybeMarkdownList` case.
struct ListCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let expected: [FormattedText]?
    init(_ name: String, _ input: String, _ expected: [FormattedText]?) {
        self.name = name
        self.input = input
        self.expected = expected
    }
    var testDescription: String { name }
}

@Suite("MARKDOWN.md §9 examples")
struct MarkdownExampleTests {
    static let lines: [LineCase] = [
        LineCase("1 bold in a sentence", "Lunch at *noon* ok?", [t("Lunch at "), bold("noon"), t(" ok?")]),
        LineCase("2 double star", "**Deadline** moved", [bold("Deadline"), t(" moved")]),
        LineCase(
            "3 strike and italic", "~old~new _draft_",
            [FormattedText("old", .strikeThrough), t("new "), FormattedText("draft", .italic)]),
        LineCase("4 adjacent bolds fuse", "*rock**solid*", [bold("rocksolid")]),
        LineCase("5 unclosed star", "5 * 3 = 15, see www.site.org", [t("5 * 3 = 15, see www.site.org")]),
        LineCase(
            "6 secret with extra hashes", "the code is ##7731## today",
            [t("the code is "), FormattedText("#7731#", .secret), t(" today")]),
        LineCase(
            "7 channel name", "#foo_bar and #Weekend plans",
            [t("#foo_bar and "), name("#Weekend", .publicGroup, "simplex", "weekend"), t(" plans")]),
        LineCase(
            "8 small and colour", "!- fine print! !3 blue note!",
            [FormattedText("fine print", .small), t(" "), FormattedText("blue note", .colored(.blue))]),
        LineCase(
            "9 colour names and !7", "!g go! !magenta stop! !7 no!",
            [
                FormattedText("go", .colored(.green)), t(" "), FormattedText("stop", .colored(.magenta)),
                t(" !7 no!"),
            ]),
        LineCase(
            "10 uri keeps ) and _", "docs: https://ex.org/guide_(v2).",
            [t("docs: "), FormattedText("https://ex.org/guide_(v2)", .uri), t(".")]),
        LineCase(
            "11 bare domains", "try shop.example.net, or bit.ly!",
            [t("try "), FormattedText("shop.example.net", .uri), t(", or bit.ly!")]),
        LineCase(
            "12 hyperlink", "[our wiki](https://wiki.example.org/start)",
            [
                FormattedText(
                    "[our wiki](https://wiki.example.org/start)",
                    .hyperLink(showText: "our wiki", linkUri: "https://wiki.example.org/start"))
            ]),
        LineCase(
            "13 anti-spoofing", "[docs.example.org](https://evil.example.net)",
            [t("[docs.example.org](https://evil.example.net)")]),
        LineCase(
            "14 bracketed short link", "[Join us](https://smp9.example.net/g#\(testKey))",
            [
                FormattedText(
                    "[Join us](https://smp9.example.net/g#\(testKey))",
                    .simplexLink(
                        showText: "Join us", linkType: .group, simplexUri: "simplex:/g#\(testKey)?h=smp9.example.net",
                        smpHosts: ["smp9.example.net"]))
            ]),
        LineCase(
            "15 mentions", "thanks @'Ann Lee', and @bob.",
            [t("thanks "), mention("Ann Lee", "@'Ann Lee'"), t(", and "), mention("bob", "@bob"), t(".")]),
        LineCase(
            "16 contact name and mention", "ping @dan.smith or @dan",
            [t("ping "), name("@dan.smith", .contact, "web", "dan.smith"), t(" or "), mention("dan", "@dan")]),
        LineCase(
            "17 group name", "join #Hiking-Club.simplex!",
            [t("join "), name("#Hiking-Club.simplex", .publicGroup, "simplex", "hiking-club"), t("!")]),
        LineCase(
            "18 commands, pieces stay apart", "type /help, then /'set name'",
            [t("type "), command("help", "/help"), t(","), t(" then "), command("set name", "/'set name'")]),
        LineCase(
            "19 punctuation commands", "try /? or /x+y",
            [t("try "), command("?", "/?"), t(" or "), command("x+y", "/x+y")]),
        LineCase(
            "20 split punctuation stays apart", "ok @sam! *go*",
            [t("ok "), mention("sam", "@sam"), t("!"), t(" "), bold("go")]),
        LineCase(
            "22 phone", "call +49 (30) 1234-5678 now",
            [t("call "), FormattedText("+49 (30) 1234-5678", .phone), t(" now")]),
        LineCase("23 date is a phone", "due 2031.12.24", [t("due "), FormattedText("2031.12.24", .phone)]),
        LineCase("23 short numbers", "room 42, 555  1234", [t("room 42, 555  1234")]),
        LineCase(
            "24 email", "mail ops@example.org.", [t("mail "), FormattedText("ops@example.org", .email), t(".")]),
        LineCase("24 email-like bare domain", "me@dev.example.com", [FormattedText("me@dev.example.com", .uri)]),
    ]

    @Test(arguments: lines)
    func parseMarkdown(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }

    static let lists: [ListCase] = [
        ListCase("5 all plain", "5 * 3 = 15, see www.site.org", nil),
        ListCase("20 merged", "ok @sam! *go*", [t("ok "), mention("sam", "@sam"), t("! "), bold("go")]),
        ListCase("21 one-line command", "  /search cats", [command("search cats", "  /search cats")]),
        ListCase("25 empty line dissolves", "*hi*\n\nsee you", [bold("hi"), t("\n\nsee you")]),
        ListCase("25 plain lines", "just text\nmore", nil),
    ]

    @Test(arguments: lists)
    func parseMaybeMarkdownList(_ c: ListCase) {
        #expect(SimplexMarkdown.parseMaybeMarkdownList(c.input) == c.expected)
    }
}
