import ChatModel
import Testing

@testable import ChatText

/// One format with its tagged JSON text.
struct FormatJSONCase: Sendable, CustomTestStringConvertible {
    let format: Format
    let json: String
    var testDescription: String { format.typeName + " " + json }
}

@Suite("FormattedText JSON (MarkdownGrammar article, JSON)")
struct FormattedTextJSONTests {
    static let formats: [FormatJSONCase] = [
        .init(format: .bold, json: #"{"type":"bold"}"#),
        .init(format: .italic, json: #"{"type":"italic"}"#),
        .init(format: .strikeThrough, json: #"{"type":"strikeThrough"}"#),
        .init(format: .snippet, json: #"{"type":"snippet"}"#),
        .init(format: .secret, json: #"{"type":"secret"}"#),
        .init(format: .small, json: #"{"type":"small"}"#),
        .init(format: .uri, json: #"{"type":"uri"}"#),
        .init(format: .email, json: #"{"type":"email"}"#),
        .init(format: .phone, json: #"{"type":"phone"}"#),
        .init(format: .underline, json: #"{"type":"underline"}"#),
        .init(format: .hashtag, json: #"{"type":"hashtag"}"#),
        .init(format: .colored(.red), json: #"{"type":"colored","color":"red"}"#),
        .init(format: .colored(.white), json: #"{"type":"colored","color":"white"}"#),
        .init(
            format: .hyperLink(showText: "our wiki", linkUri: "https://w.org"),
            json: #"{"type":"hyperLink","showText":"our wiki","linkUri":"https://w.org"}"#),
        .init(
            format: .hyperLink(showText: nil, linkUri: "https://w.org"),
            json: #"{"type":"hyperLink","linkUri":"https://w.org"}"#),
        .init(
            format: .simplexLink(
                showText: "Join us", linkType: .group, simplexUri: "simplex:/g#K?h=h.net", smpHosts: ["h.net"]),
            json:
                #"{"type":"simplexLink","showText":"Join us","linkType":"group","simplexUri":"simplex:/g#K?h=h.net","smpHosts":["h.net"]}"#
        ),
        .init(
            format: .simplexLink(
                showText: nil, linkType: .invitation, simplexUri: "simplex:/i#K", smpHosts: ["a", "b.onion"]),
            json:
                #"{"type":"simplexLink","linkType":"invitation","simplexUri":"simplex:/i#K","smpHosts":["a","b.onion"]}"#
        ),
        .init(
            format: .simplexName(
                SimplexNameInfo(nameType: .publicGroup, nameTLD: "simplex", domain: "weekend", subDomain: [])),
            json:
                #"{"type":"simplexName","nameInfo":{"nameType":"publicGroup","nameDomain":{"nameTLD":"simplex","domain":"weekend","subDomain":[]}}}"#
        ),
        .init(
            format: .simplexName(
                SimplexNameInfo(nameType: .contact, nameTLD: "testing", domain: "b", subDomain: ["a"])),
            json:
                #"{"type":"simplexName","nameInfo":{"nameType":"contact","nameDomain":{"nameTLD":"testing","domain":"b","subDomain":["a"]}}}"#
        ),
        .init(format: .command("find cats"), json: #"{"type":"command","commandStr":"find cats"}"#),
        .init(format: .mention(memberName: "Ann \"Lee\""), json: #"{"type":"mention","memberName":"Ann \"Lee\""}"#),
        .init(
            format: .unknown(.object([("type", .string("glow")), ("level", .number(2))])),
            json: #"{"type":"unknown","json":{"type":"glow","level":2}}"#),
    ]

    @Test(arguments: formats)
    func encodeAndRoundTrip(_ c: FormatJSONCase) {
        #expect(FormattedTextJSON.jsonText(c.format) == c.json)
        #expect(FormattedTextJSON.format(from: FormattedTextJSON.jsonValue(c.format)) == c.format)
    }

    @Test func pieceList() {
        let pieces = [FormattedText("Hi "), FormattedText("there", .bold)]
        let json = FormattedTextJSON.jsonText(pieces)
        #expect(json == #"[{"text":"Hi ","format":null},{"text":"there","format":{"type":"bold"}}]"#)
        #expect(FormattedTextJSON.pieces(from: FormattedTextJSON.jsonValue(pieces)) == pieces)
        #expect(
            FormattedTextJSON.messageJSONValue(pieces).jsonText
                == #"{"formattedText":[{"text":"Hi ","format":null},{"text":"there","format":{"type":"bold"}}]}"#)
        #expect(FormattedTextJSON.messageJSONValue(nil).jsonText == "{}")
    }

    @Test func parsedMessageRoundTrips() throws {
        let url = "https://smp9.example.net/g#\(testKey)"
        let text = "Hi @'Ann Lee', see [docs](https://ex.org/d) and \(url) #Weekend !1 red! ##s## call +1 555 1234567"
        let pieces = try #require(SimplexMarkdown.parseMaybeMarkdownList(text))
        #expect(FormattedTextJSON.pieces(from: FormattedTextJSON.jsonValue(pieces)) == pieces)
    }

    @Test func missingAndNullFormatArePlain() {
        let missing = JSONValue.object([("text", .string("a"))])
        let null = JSONValue.object([("format", .null), ("text", .string("b"))])
        #expect(FormattedTextJSON.piece(from: missing) == FormattedText("a"))
        #expect(FormattedTextJSON.piece(from: null) == FormattedText("b"))
        #expect(FormattedTextJSON.piece(from: .object([("format", .null)])) == nil)
        #expect(
            FormattedTextJSON.pieces(from: .array([missing, .string("junk"), null]))
                == [FormattedText("a"), FormattedText("b")])
        #expect(FormattedTextJSON.pieces(from: .string("x")) == nil)
    }

    /// Values that are not valid known formats, kept whole as `unknown`.
    static let invalid: [JSONValue] = [
        .object([("type", .string("glow")), ("level", .number(2))]),
        .object([("type", .string("colored")), ("color", .string("pink"))]),
        .object([("type", .string("colored"))]),
        .object([("type", .string("hyperLink")), ("showText", .string("x"))]),
        .object([("type", .string("hyperLink")), ("showText", .number(1)), ("linkUri", .string("u"))]),
        .object([
            ("type", .string("simplexLink")), ("linkType", .string("group")), ("simplexUri", .string("u")),
            ("smpHosts", .array([])),
        ]),
        .object([
            ("type", .string("simplexLink")), ("linkType", .string("party")), ("simplexUri", .string("u")),
            ("smpHosts", .array([.string("h")])),
        ]),
        .object([("type", .string("simplexName")), ("nameInfo", .object([("nameType", .string("contact"))]))]),
        .object([("type", .string("mention"))]),
        .object([("type", .string("command")), ("commandStr", .bool(true))]),
        .object([("type", .number(3))]),
        .object([]),
        .object([("glow", .object([]))]),
        .object([("colored", .object([("color", .string("pink"))]))]),
        .number(7),
        .string("bold"),
        .array([]),
    ]

    @Test(arguments: invalid)
    func invalidBecomesUnknown(_ value: JSONValue) {
        let format = FormattedTextJSON.format(from: value)
        #expect(format == .unknown(value))
        #expect(
            FormattedTextJSON.jsonValue(.unknown(value))
                == .object([("type", .string("unknown")), ("json", value)]))
    }

    @Test func unknownWithJSONField() {
        let value = JSONValue.object([("type", .string("unknown")), ("json", .number(5))])
        #expect(FormattedTextJSON.format(from: value) == .unknown(.number(5)))
    }

    /// SimpleX's Apple apps encode formats as single-key objects.
    static let appleEncodings: [(JSONValue, Format)] = [
        (.object([("bold", .object([]))]), .bold),
        (.object([("strikeThrough", .object([]))]), .strikeThrough),
        (.object([("colored", .object([("color", .string("red"))]))]), .colored(.red)),
        (
            .object([("hyperLink", .object([("linkUri", .string("https://a.b"))]))]),
            .hyperLink(showText: nil, linkUri: "https://a.b")
        ),
        (.object([("mention", .object([("memberName", .string("bob"))]))]), .mention(memberName: "bob")),
        (.object([("command", .object([("commandStr", .string("help"))]))]), .command("help")),
        (
            .object([
                (
                    "simplexLink",
                    .object([
                        ("linkType", .string("contact")), ("simplexUri", .string("simplex:/a#K")),
                        ("smpHosts", .array([.string("h")])),
                    ])
                )
            ]), .simplexLink(showText: nil, linkType: .contact, simplexUri: "simplex:/a#K", smpHosts: ["h"])
        ),
        (.object([("unknown", .object([("json", .string("x"))]))]), .unknown(.string("x"))),
    ]

    @Test(arguments: appleEncodings)
    func appleSingleKeyObjects(_ value: JSONValue, _ format: Format) {
        #expect(FormattedTextJSON.format(from: value) == format)
    }

    @Test func nullIsPlain() {
        #expect(FormattedTextJSON.format(from: .null) == nil)
    }
}
