import ChatModel
import Testing

@testable import ChatText

/// A plain piece.
private func t(_ text: String) -> FormattedText { FormattedText(text) }
private func bold(_ text: String) -> FormattedText { FormattedText(text, .bold) }
private func mention(_ name: String, _ text: String) -> FormattedText {
    FormattedText(text, .mention(memberName: name))
}
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

@Suite("MarkdownGrammar article: examples")
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

private func italic(_ text: String) -> FormattedText { FormattedText(text, .italic) }
private func secret(_ text: String) -> FormattedText { FormattedText(text, .secret) }
private func red(_ text: String) -> FormattedText { FormattedText(text, .colored(.red)) }
private func phone(_ text: String) -> FormattedText { FormattedText(text, .phone) }
private func uri(_ text: String) -> FormattedText { FormattedText(text, .uri) }
private func email(_ text: String) -> FormattedText { FormattedText(text, .email) }
private func link(_ text: String, _ show: String, _ url: String) -> FormattedText {
    FormattedText(text, .hyperLink(showText: show, linkUri: url))
}

private let hex64 = String(repeating: "0123456789abcdef", count: 4)

@Suite("MarkdownGrammar article: recognisers")
struct MarkdownRuleTests {
    static let markers: [LineCase] = [
        LineCase("spaces inside content", "a *b c* d", [t("a "), bold("b c"), t(" d")]),
        LineCase("unclosed star", "*x", [t("*x")]),
        LineCase("unclosed star hides a later url", "x *y https://a.com", [t("x *y https://a.com")]),
        LineCase("unclosed after a span", "_a_ *b https://ex.org", [italic("a"), t(" *b https://ex.org")]),
        LineCase("unclosed underscore swallows spans", "_a *b* c", [t("_a *b* c")]),
        LineCase("content starts with space", "* a*", [t("* a*")]),
        LineCase("content ends with space", "*a *", [t("*a *")]),
        LineCase("continues after a failed span", "*a * *b*", [t("*a * "), bold("b")]),
        LineCase("empty content", "**", [t("**")]),
        LineCase("empty tildes", "~~ x", [t("~~ x")]),
        LineCase("markers inside a word are literal", "x*y* z", [t("x*y* z")]),
        LineCase("a closed span ends its fragment", "_a_b_", [italic("a"), t("b_")]),
        LineCase("text right after a span", "*a*b", [bold("a"), t("b")]),
        LineCase("tabs are not spaces", "*\ta\t*", [bold("\ta\t")]),
        LineCase("no nesting", "`code *x*`", [FormattedText("code *x*", .snippet)]),
        LineCase("double star", "**a b** c", [bold("a b"), t(" c")]),
        LineCase("double star then text", "**a**b", [bold("a"), t("b")]),
        LineCase("double star missing second closer", "**a*", [t("**a*")]),
        LineCase("double star with inner space", "** a**", [t("** a**")]),
        LineCase("triple stars", "***a***", [t("**"), bold("a"), t("**")]),
        LineCase("strike", "~gone~", [FormattedText("gone", .strikeThrough)]),
    ]

    static let secrets: [LineCase] = [
        LineCase("#a#", "#a#", [secret("a")]),
        LineCase("#a##", "#a##", [secret("a#")]),
        LineCase("##a##", "##a##", [secret("#a#")]),
        LineCase("##a#", "##a#", [secret("#a")]),
        LineCase("inner spaces", "#a b# c", [secret("a b"), t(" c")]),
        LineCase("leading space fails", "# a#", [t("# a#")]),
        LineCase("trailing space falls to a name", "#a #", [name("#a", .publicGroup, "simplex", "a"), t(" #")]),
        LineCase("only hashes", "##", [t("##")]),
        LineCase("hash then word", "#foo_bar.", [t("#foo_bar.")]),
    ]

    static let names: [LineCase] = [
        LineCase("channel", "#hiking", [name("#hiking", .publicGroup, "simplex", "hiking")]),
        LineCase("digits", "#1", [name("#1", .publicGroup, "simplex", "1")]),
        LineCase("hyphen", "#a-b,", [name("#a-b", .publicGroup, "simplex", "a-b"), t(",")]),
        LineCase("leading hyphen", "#-ab", [t("#-ab")]),
        LineCase("double hyphen", "#a--b", [t("#a--b")]),
        LineCase("underscore", "#ab_c", [t("#ab_c")]),
        LineCase("empty label", "#a..b", [t("#a..b")]),
        LineCase(
            "64-character label", "#" + String(repeating: "a", count: 64), [t("#" + String(repeating: "a", count: 64))]),
        LineCase(
            "63-character label", "#" + String(repeating: "a", count: 63),
            [name("#" + String(repeating: "a", count: 63), .publicGroup, "simplex", String(repeating: "a", count: 63))]),
        LineCase(
            "subdomains nearest first", "#x.y.club.simplex",
            [name("#x.y.club.simplex", .publicGroup, "simplex", "club", ["y", "x"])]),
        LineCase("testing tld", "#Club.Testing", [name("#Club.Testing", .publicGroup, "testing", "club")]),
        LineCase(
            "web name", "#Shop.Example.com", [name("#Shop.Example.com", .publicGroup, "web", "shop.example.com")]),
        LineCase(
            "bracketed key", "#[\(hex64)].simplex",
            [name("#[\(hex64)].simplex", .publicGroup, "simplex", "[\(hex64)]")]),
        LineCase("bracketed key outside simplex", "#[\(hex64)].com", [t("#[\(hex64)].com")]),
        LineCase("contact web", "@Dan.Smith", [name("@Dan.Smith", .contact, "web", "dan.smith")]),
        LineCase("contact simplex", "@team.simplex", [name("@team.simplex", .contact, "simplex", "team")]),
        LineCase(
            "contact testing sub", "@a.b.testing.", [name("@a.b.testing", .contact, "testing", "b", ["a"]), t(".")]),
        LineCase("invalid contact name is a mention", "@dan_s.com", [mention("dan_s.com", "@dan_s.com")]),
        LineCase("leading hyphen contact", "@-a.com", [mention("-a.com", "@-a.com")]),
    ]

    static let colours: [LineCase] = [
        LineCase("!1", "!1 x!", [red("x")]),
        LineCase("!r", "!r x!", [red("x")]),
        LineCase("!red", "!red two words!", [red("two words")]),
        LineCase("!2", "!2 x!", [FormattedText("x", .colored(.green))]),
        LineCase("!green", "!green x!", [FormattedText("x", .colored(.green))]),
        LineCase("!b", "!b x!", [FormattedText("x", .colored(.blue))]),
        LineCase("!yellow", "!yellow x!", [FormattedText("x", .colored(.yellow))]),
        LineCase("!4", "!4 x!", [FormattedText("x", .colored(.yellow))]),
        LineCase("!5", "!5 x!", [FormattedText("x", .colored(.cyan))]),
        LineCase("!cyan", "!cyan x!", [FormattedText("x", .colored(.cyan))]),
        LineCase("!m", "!m x!", [FormattedText("x", .colored(.magenta))]),
        LineCase("!6", "!6 x!", [FormattedText("x", .colored(.magenta))]),
        LineCase("small", "!- a b! y", [FormattedText("a b", .small), t(" y")]),
        LineCase("!7", "!7 x!", [t("!7 x!")]),
        LineCase("!re", "!re x!", [t("!re x!")]),
        LineCase("!black", "!black x!", [t("!black x!")]),
        LineCase("two spaces", "!1  x!", [t("!1  x!")]),
        LineCase("unclosed", "!1 x", [t("!1 x")]),
        LineCase("content ends with space", "!1 x !", [t("!1 x !")]),
        LineCase("content starts with !", "!1 !x!", [t("!1 !x!")]),
        LineCase("tab after the code", "!1\tx!", [red("x")]),
        LineCase("no-break space after the code", "!1\u{A0}x!", [red("x")]),
        LineCase("text after the closer", "!1 x!y!", [red("x"), t("y!")]),
    ]

    static let mentions: [LineCase] = [
        LineCase("plain", "@bob", [mention("bob", "@bob")]),
        LineCase("split comma", "@bob,", [mention("bob", "@bob"), t(",")]),
        LineCase("split run", "@ann.!", [mention("ann", "@ann"), t(".!")]),
        LineCase("all punctuation", "@...", [mention("", "@"), t("...")]),
        LineCase("quoted", "@'Ann Lee'", [mention("Ann Lee", "@'Ann Lee'")]),
        LineCase("quoted then text", "@'a'b", [mention("a", "@'a'"), t("b")]),
        LineCase("quoted then bang", "@'x y'!", [mention("x y", "@'x y'"), t("!")]),
        LineCase("quoted with punctuation", "@'a@b, c'", [mention("a@b, c", "@'a@b, c'")]),
        LineCase("unclosed quote", "@'Ann Lee", [t("@'Ann Lee")]),
        LineCase("empty quotes", "@''", [t("@''")]),
        LineCase("quote space", "@' x'", [t("@' x'")]),
        LineCase("space after @", "@ x", [t("@ x")]),
        LineCase("@ alone", "@", [t("@")]),
        LineCase("@#", "@#x", [t("@#x")]),
        LineCase("@@", "@@x", [t("@@x")]),
        LineCase("inner apostrophe", "@bob's", [mention("bob's", "@bob's")]),
        LineCase("non-ASCII", "@Zoë:", [mention("Zoë", "@Zoë"), t(":")]),
        LineCase("tab ends the name", "@bob\tsmith", [mention("bob", "@bob"), t("\tsmith")]),
        LineCase("no-break space ends the name", "@bob\u{A0}x", [mention("bob", "@bob"), t("\u{A0}x")]),
        LineCase("ideographic space ends the name", "@bob\u{3000}x", [mention("bob", "@bob"), t("\u{3000}x")]),
        LineCase("unicode punctuation split", "@bob…", [mention("bob", "@bob"), t("…")]),
    ]

    static let commands: [LineCase] = [
        LineCase("command", "/help", [command("help", "/help")]),
        LineCase("name ends at space", "/find cats", [command("find", "/find"), t(" cats")]),
        LineCase("split punctuation", "/help.", [command("help", "/help"), t(".")]),
        LineCase("/?", "/?", [command("?", "/?")]),
        LineCase("all punctuation", "/...", [command("...", "/...")]),
        LineCase("quoted", "/'set name'", [command("set name", "/'set name'")]),
        LineCase("symbol", "/÷", [command("÷", "/÷")]),
        LineCase("plus", "/x+y", [command("x+y", "/x+y")]),
        LineCase("slash alone", "/", [t("/")]),
        LineCase("slash space", "/ x", [t("/ x")]),
        LineCase("slash hash", "/#x", [t("/#x")]),
        LineCase("slash inside a word", "a/b", [t("a/b")]),
        LineCase("double slash", "//", [command("/", "//")]),
    ]

    static let hyperlinks: [LineCase] = [
        LineCase("simple", "[a](https://ex.org)", [link("[a](https://ex.org)", "a", "https://ex.org")]),
        LineCase(
            "text is host", "[ex.org](https://ex.org)", [link("[ex.org](https://ex.org)", "ex.org", "https://ex.org")]),
        LineCase(
            "text is url", "[https://ex.org](https://ex.org)",
            [link("[https://ex.org](https://ex.org)", "https://ex.org", "https://ex.org")]),
        LineCase("http spoof", "[ex.org](http://ex.org)", [t("[ex.org](http://ex.org)")]),
        LineCase(
            "hyphen and underscore allowed", "[my-site_x](https://ex.org)",
            [link("[my-site_x](https://ex.org)", "my-site_x", "https://ex.org")]),
        LineCase("bang is spoofing", "[go!](https://ex.org)", [t("[go!](https://ex.org)")]),
        LineCase("no scheme", "[a](ex.org)", [t("[a](ex.org)")]),
        LineCase("space in url", "[a](https://ex.org/a b)", [t("[a](https://ex.org/a b)")]),
        LineCase("host without dot", "[a](https://localhost)", [t("[a](https://localhost)")]),
        LineCase("empty text", "[](https://ex.org)", [t("[](https://ex.org)")]),
        LineCase("empty url", "[a]()", [t("[a]()")]),
        LineCase("space before (", "[a] (https://ex.org)", [t("[a] (https://ex.org)")]),
        LineCase(
            "trailing paren", "[a](https://ex.org))", [link("[a](https://ex.org)", "a", "https://ex.org"), t(")")]),
        LineCase(
            "in a sentence", "see [a b](https://ex.org/p?q=1#top).",
            [t("see "), link("[a b](https://ex.org/p?q=1#top)", "a b", "https://ex.org/p?q=1#top"), t(".")]),
        LineCase(
            "short contact link", "[me](https://smp.example.net/a#\(testKey))",
            [
                FormattedText(
                    "[me](https://smp.example.net/a#\(testKey))",
                    .simplexLink(
                        showText: "me", linkType: .contact, simplexUri: "simplex:/a#\(testKey)?h=smp.example.net",
                        smpHosts: ["smp.example.net"]))
            ]),
        LineCase(
            "full link is refused", "[me](\(SimplexLinkTests.fullContact))",
            [t("[me](\(SimplexLinkTests.fullContact))")]),
    ]

    static let phones: [LineCase] = [
        LineCase("7 digits", "1234567", [phone("1234567")]),
        LineCase("6 digits", "123456", [t("123456")]),
        LineCase("22 characters", "+123456789012345678901", [phone("+123456789012345678901")]),
        LineCase("23 characters", "+1234567890123456789012", [t("+1234567890123456789012")]),
        LineCase("22 digits", String(repeating: "1", count: 22), [phone(String(repeating: "1", count: 22))]),
        LineCase("23 digits", String(repeating: "1", count: 23), [t(String(repeating: "1", count: 23))]),
        LineCase("country and area", "+1 (555) 123-4567", [phone("+1 (555) 123-4567")]),
        LineCase("area without country", "(555) 123-4567", [t("(555) "), phone("123-4567")]),
        LineCase("no code after plain digits", "12 (34) 5678", [t("12 (34) 5678")]),
        LineCase("compact code", "+49(30)12345", [phone("+49(30)12345")]),
        LineCase("letters after", "0123456789x", [phone("0123456789"), t("x")]),
        LineCase("space separated", "555 1234", [phone("555 1234")]),
        LineCase("double space ends", "555  1234", [t("555  1234")]),
        LineCase("dashes", "12-34-56", [phone("12-34-56")]),
        LineCase("dots", "1.2.3.4", [phone("1.2.3.4")]),
        LineCase("date", "2031-12-24", [phone("2031-12-24")]),
        LineCase("trailing dot", "1234567.", [phone("1234567"), t(".")]),
        LineCase("trailing separator", "1234567- x", [phone("1234567"), t("- x")]),
        LineCase("plus alone", "+ 1234567", [t("+ "), phone("1234567")]),
        LineCase("short plus", "+123", [t("+123")]),
    ]

    static let words: [LineCase] = [
        LineCase("https", "https://ex.org", [uri("https://ex.org")]),
        LineCase("trailing dot split", "see https://ex.org/a.", [t("see "), uri("https://ex.org/a"), t(".")]),
        LineCase("trailing run split", "https://ex.org/a?!.,", [uri("https://ex.org/a?!"), t(".,")]),
        LineCase("bang kept", "https://ex.org/a!", [uri("https://ex.org/a!")]),
        LineCase("underscore kept", "https://ex.org/a_", [uri("https://ex.org/a_")]),
        LineCase("slash kept", "https://ex.org/", [uri("https://ex.org/")]),
        LineCase("10 characters", "http://x.y", [uri("http://x.y")]),
        LineCase("9 characters", "http://ab", [t("http://ab")]),
        LineCase("paren before", "(https://ex.org)", [t("(https://ex.org)")]),
        LineCase("no dot in host", "https://localhost:8080/x", [t("https://localhost:8080/x")]),
        LineCase("space ends", "https://ex.org/a b", [uri("https://ex.org/a"), t(" b")]),
        LineCase("bad percent", "https://ex.org/a%zz", [t("https://ex.org/a%zz")]),
        LineCase("good percent", "https://ex.org/a%20b", [uri("https://ex.org/a%20b")]),
        LineCase("brackets in query", "https://ex.org/?q=[1]x", [uri("https://ex.org/?q=[1]x")]),
        LineCase("trailing bracket split", "https://ex.org/?q=[1]", [uri("https://ex.org/?q=[1"), t("]")]),
        LineCase("brackets in path", "https://ex.org/[1]", [t("https://ex.org/[1]")]),
        LineCase("second hash", "https://ex.org/#a#b", [t("https://ex.org/#a#b")]),
        LineCase("pipe", "https://ex.org/a|b", [t("https://ex.org/a|b")]),
        LineCase("non-ASCII", "https://ünï.org", [t("https://ünï.org")]),
        LineCase("full authority", "https://u:p@ex.org:8080/p?q#f", [uri("https://u:p@ex.org:8080/p?q#f")]),
        LineCase("bad port", "https://ex.org:80a", [t("https://ex.org:80a")]),
        LineCase("ftp", "ftp://ex.org/file", [t("ftp://ex.org/file")]),
        LineCase("upper-case scheme", "HTTPS://EX.ORG", [t("HTTPS://EX.ORG")]),
        LineCase("carriage return", "https://ex.org\r", [t("https://ex.org\r")]),
        LineCase("bare domain", "example.com", [uri("example.com")]),
        LineCase("bare with sub", "www.example.com", [uri("www.example.com")]),
        LineCase("bare any case", "Example.COM", [uri("Example.COM")]),
        LineCase("bare split dot", "example.com.", [uri("example.com"), t(".")]),
        LineCase("bare with bang", "example.com!", [t("example.com!")]),
        LineCase("two-letter tld", "a.bc", [uri("a.bc")]),
        LineCase("one-letter tld", "a.b", [t("a.b")]),
        LineCase("nine-letter tld", "example.abcdefghi", [t("example.abcdefghi")]),
        LineCase(
            "25-letter name", String(repeating: "a", count: 25) + ".com",
            [t(String(repeating: "a", count: 25) + ".com")]),
        LineCase("digit in name", "ex1.com", [t("ex1.com")]),
        LineCase("two-character sub", "ab.example.com", [t("ab.example.com")]),
        LineCase("nine-character sub", "abcdefghi.example.com", [t("abcdefghi.example.com")]),
        LineCase("non-ASCII sub", "über.example.com", [uri("über.example.com")]),
        LineCase("four parts", "a.b.c.de", [t("a.b.c.de")]),
        LineCase("email", "ops@example.org", [email("ops@example.org")]),
        LineCase("email with dots and plus", "a.b+c@ex-ample.co.uk", [email("a.b+c@ex-ample.co.uk")]),
        LineCase("email one label", "user@localhost", [email("user@localhost")]),
        LineCase("email quoted local", "\"ab\"@ex.org", [email("\"ab\"@ex.org")]),
        LineCase("email split dot", "user@ex.org.", [email("user@ex.org"), t(".")]),
        LineCase("email hyphen label", "user@-bad.com", [t("user@-bad.com")]),
        LineCase("email double dot", "a..b@ex.org", [t("a..b@ex.org")]),
        LineCase("email empty domain label", "user@ex..org", [t("user@ex..org")]),
        LineCase("email literal loses its bracket", "user@[1.2.3.4]", [t("user@[1.2.3.4]")]),
        LineCase("word", "hello", [t("hello")]),
        LineCase("empty line", "", [t("")]),
        LineCase("spaces", "   ", [t("   ")]),
        LineCase("newline is a character", "*a*\n*b*", [bold("a"), t("\n*b*")]),
    ]

    @Test(arguments: markers) func markerRule(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }
    @Test(arguments: secrets) func secretRule(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }
    @Test(arguments: names) func simplexNames(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }
    @Test(arguments: colours) func smallAndColours(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }
    @Test(arguments: mentions) func mentionRule(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }
    @Test(arguments: commands) func commandRule(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }
    @Test(arguments: hyperlinks) func hyperlinkRule(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }
    @Test(arguments: phones) func phoneRule(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }
    @Test(arguments: words) func wordRule(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }
}

@Suite("MarkdownGrammar article: merging and messages")
struct MarkdownMessageTests {
    static let merging: [LineCase] = [
        LineCase("adjacent plain words join", "a b  c", [t("a b  c")]),
        LineCase("punctuation joins following plain", "@a, b", [mention("a", "@a"), t(", b")]),
        LineCase("punctuation then space then span", "@a, *b*", [mention("a", "@a"), t(","), t(" "), bold("b")]),
        LineCase("two pairs", "@a, @b.", [mention("a", "@a"), t(","), t(" "), mention("b", "@b"), t(".")]),
        LineCase("pair then pair directly", "@a.@b.", [mention("a.@b", "@a.@b"), t(".")]),
        LineCase("equal mentions fuse", "@'a'@'a'", [mention("a", "@'a'@'a'")]),
        LineCase("different mentions stay", "@'a'@'b'", [mention("a", "@'a'"), mention("b", "@'b'")]),
        LineCase("span then span then plain", "*a**b* c", [bold("ab"), t(" c")]),
        LineCase("span before a command", "*a*/b", [bold("a"), command("b", "/b")]),
        LineCase("plain before a pair", "x @a!", [t("x "), mention("a", "@a"), t("!")]),
    ]

    @Test(arguments: merging) func mergingRule(_ c: LineCase) {
        #expect(SimplexMarkdown.parseMarkdown(c.input) == c.expected)
    }

    static let messages: [ListCase] = [
        ListCase("empty", "", nil),
        ListCase("plain", "hello there", nil),
        ListCase("plain with triggers", "a/b and c_d", nil),
        ListCase("one-line command", "/help", [command("help", "/help")]),
        ListCase("command keeps spaces", "/find cats ", [command("find cats ", "/find cats ")]),
        ListCase("indented command", " /x", [command("x", " /x")]),
        ListCase("slash alone", "/", nil),
        ListCase("spaces and slash", "   /", nil),
        ListCase("final newline is lost", "/help\n", [command("help", "/help")]),
        ListCase("two-line command", "/help\nmore", [command("help", "/help"), t("\nmore")]),
        ListCase("command later in line", "a /x", [t("a "), command("x", "/x")]),
        ListCase("bold then final newline", "*a*\n", [bold("a")]),
        ListCase("leading empty line", "\n*a*", [t("\n"), bold("a")]),
        ListCase("spans on two lines", "*a*\n*b*", [bold("a"), t("\n"), bold("b")]),
        ListCase("CRLF keeps \\r", "*a*\r\n*b*", [bold("a"), t("\r\n"), bold("b")]),
        ListCase(
            "url before CRLF is plain", "see https://ex.org\r\nok *x*", [t("see https://ex.org\r\nok "), bold("x")]),
        ListCase("only newlines", "\n\n", nil),
        ListCase("plain lines with final newline", "x\n", nil),
        ListCase("merged split punctuation", "ok @sam! yes", [t("ok "), mention("sam", "@sam"), t("! yes")]),
        ListCase("colours", "!1 a! !1 b!", [red("a"), t(" "), red("b")]),
        ListCase("phone", "call 5551234", [t("call "), phone("5551234")]),
        ListCase("bare domain", "see ex.com", [t("see "), uri("ex.com")]),
        ListCase("shortest phone", "+1 (2)3", [phone("+1 (2)3")]),
        ListCase("phone ending in a paren", "at +12(34)", [t("at "), phone("+12(34)")]),
        ListCase("dotted phone", "ip 1.2.3.4", [t("ip "), phone("1.2.3.4")]),
    ]

    @Test(arguments: messages) func messageRule(_ c: ListCase) {
        #expect(SimplexMarkdown.parseMaybeMarkdownList(c.input) == c.expected)
        #expect(SimplexMarkdown.parseMaybeMarkdownList(c.input, usingFastPath: false) == c.expected)
    }

    /// Texts the byte scan rejects: full parsing must find nothing formatted in them either.
    static let fastPathTexts: [String] = [
        "hello there", "Hello. How are you?", "12 apples, pears", "a.1 b. c", "it's 5 o'clock",
        "ça va? très bien — merci", "emoji 😀 and 日本語", "tabs\tand\nlines", "x + y = z", "a.  b", "1.5 km",
        "(see below)", "\"quoted\" text; more", "price $4 & 5% off", "at 12:30 on 2024", "1, 2, 3",
        "room 42, flat 7", "v1.2.3 is out", "123456", "12 34 x 5",
    ]

    @Test(arguments: fastPathTexts)
    func fastPathAgreesWithFullParse(_ text: String) {
        #expect(!text.utf8.withContiguousStorageIfAvailable(SimplexMarkdown.mayContainFormat)!)
        #expect(SimplexMarkdown.parseMaybeMarkdownList(text, usingFastPath: false) == nil)
    }
}

@Suite("Long and repetitive input")
struct MarkdownLongInputTests {
    @Test func repeatedOpenersStayPlain() {
        let text = String(repeating: "[ ", count: 20_000)
        let pieces = SimplexMarkdown.parseMarkdown(text)
        #expect(pieces.count == 1 && pieces.first == FormattedText(text))
        let links = String(repeating: "[a]( ", count: 10_000)
        let linkPieces = SimplexMarkdown.parseMarkdown(links)
        #expect(linkPieces.count == 1 && linkPieces.first == FormattedText(links))
    }

    @Test func longDigitRunEndsInAPhone() {
        // Every greedy match is too long until only eleven digits (21 characters) remain.
        let text = String(repeating: "1 ", count: 20_000)
        let pieces = SimplexMarkdown.parseMarkdown(text)
        let tail = Array(repeating: "1", count: 11).joined(separator: " ")
        #expect(pieces.count == 3)
        #expect(pieces.dropFirst().first == FormattedText(tail, .phone))
        #expect(pieces.last == FormattedText(" "))
    }

    @Test func quotesCloseOnTheNextQuote() {
        #expect(
            SimplexMarkdown.parseMarkdown("@'a @'b @'c @'d") == [
                FormattedText("@'a @'", .mention(memberName: "a @")), FormattedText("b "),
                FormattedText("@'c @'", .mention(memberName: "c @")), FormattedText("d"),
            ])
    }

    @Test func longMessageKeepsEveryLine() throws {
        let line = "see *this* and https://ex.org/a."
        let text = Array(repeating: line, count: 2_000).joined(separator: "\n")
        let pieces = try #require(SimplexMarkdown.parseMaybeMarkdownList(text))
        // "see ", then bold, " and ", uri and ".\nsee " per line, the last ending in ".".
        #expect(pieces.count == 1 + 4 * 2_000)
        #expect(pieces.map(\.text).joined() == String(text.filter { $0 != "*" }))
    }
}
