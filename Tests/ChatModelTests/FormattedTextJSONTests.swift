import ChatModel
import Testing

@Suite struct FormattedTextJSONRoundTripTests {
    static let everyFormat: [Format] = [
        .bold, .italic, .strikeThrough, .snippet, .secret, .small, .colored(.red), .colored(.magenta), .uri,
        .hyperLink(showText: nil, linkUri: "https://example.com"),
        .hyperLink(showText: "the site", linkUri: "https://example.com/a?b=c"),
        .simplexLink(
            showText: nil, linkType: .contact, simplexUri: "simplex:/contact#/?v=2", smpHosts: ["smp1.example"]),
        .simplexLink(showText: "join", linkType: .group, simplexUri: "simplex:/g", smpHosts: ["a", "b"]),
        .simplexName(
            SimplexNameInfo(nameType: .publicGroup, nameTLD: "simplex", domain: "team", subDomain: ["dev", "eu"])),
        .simplexName(SimplexNameInfo(nameType: .contact, nameTLD: "web", domain: "alice", subDomain: [])),
        .command("/help"), .mention(memberName: "Zoë"), .email, .phone, .underline, .hashtag,
        .unknown(.object([("type", .string("spoiler")), ("level", .number(2))])),
    ]

    @Test(arguments: everyFormat)
    func formatRoundTripsThroughJSONText(_ format: Format) throws {
        let value = FormattedTextJSON.jsonValue(format)
        #expect(value["type"]?.stringValue == format.typeName)
        #expect(FormattedTextJSON.format(from: value) == format)
        let reparsed = try JSONParser.parse(Array(FormattedTextJSON.jsonText(format).utf8))
        #expect(FormattedTextJSON.format(from: reparsed) == format)
    }

    @Test func pieceListRoundTrips() throws {
        let pieces =
            Self.everyFormat.enumerated().map { FormattedText("piece \($0.offset)", $0.element) } + [
                FormattedText("plain")
            ]
        let text = FormattedTextJSON.jsonText(pieces)
        let parsed = try JSONParser.parse(Array(text.utf8))
        #expect(FormattedTextJSON.pieces(from: parsed) == pieces)
    }

    @Test func absentOptionalFieldsAreOmittedAndPlainPiecesHaveNullFormat() {
        #expect(
            FormattedTextJSON.jsonText(.hyperLink(showText: nil, linkUri: "u"))
                == #"{"type":"hyperLink","linkUri":"u"}"#)
        #expect(FormattedTextJSON.jsonText(.colored(.blue)) == #"{"type":"colored","color":"blue"}"#)
        #expect(FormattedTextJSON.jsonValue(FormattedText("t")).jsonText == #"{"text":"t","format":null}"#)
        #expect(FormattedTextJSON.messageJSONValue(nil).jsonText == "{}")
        #expect(
            FormattedTextJSON.messageJSONValue([FormattedText("a", .bold)]).jsonText
                == #"{"formattedText":[{"text":"a","format":{"type":"bold"}}]}"#)
    }

    @Test(arguments: [
        (#"{"bold":{}}"#, Format.bold),
        (#"{"bold":{},"_owsf":true}"#, .bold),
        (#"{"colored":{"color":{"red":{}}}}"#, .colored(.red)),
        (#"{"type":"colored","color":{"green":{},"_owsf":true}}"#, .colored(.green)),
        (#"{"mention":{"memberName":"al"}}"#, .mention(memberName: "al")),
    ])
    func readsTheAppleAppsSingleKeyEncoding(_ text: String, _ format: Format) throws {
        #expect(FormattedTextJSON.format(from: try JSONParser.parse(Array(text.utf8))) == format)
    }

    @Test(arguments: [
        #"{"type":"colored","color":"purple"}"#,
        #"{"type":"hyperLink"}"#,
        #"{"type":"simplexLink","linkType":"contact","simplexUri":"s","smpHosts":[]}"#,
        #"{"type":"mention","memberName":3}"#,
        #"{"type":"blink"}"#,
        #"{"bold":{},"italic":{}}"#,
        #""bold""#,
        "[1]",
    ])
    func invalidOrUnknownFormatsAreKeptWhole(_ text: String) throws {
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(FormattedTextJSON.format(from: value) == .unknown(value))
    }

    @Test func decodingEdgeCases() throws {
        #expect(FormattedTextJSON.format(from: .null) == nil)
        #expect(FormattedTextJSON.pieces(from: .object([])) == nil)
        let mixed = try JSONParser.parse(
            Array(#"[{"text":"a"},{"format":{"type":"bold"}},{"text":1},{"text":"b","format":null}]"#.utf8))
        #expect(FormattedTextJSON.pieces(from: mixed) == [FormattedText("a"), FormattedText("b")])
    }
}
