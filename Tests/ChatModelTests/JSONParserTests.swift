import ChatModel
import Testing

/// A JSON text and the value it parses to.
struct JSONCase: Sendable, CustomTestStringConvertible {
    var text: String
    var value: JSONValue
    var testDescription: String { text }
    init(_ text: String, _ value: JSONValue) {
        self.text = text
        self.value = value
    }
}

/// A bad JSON text, where the error is reported and what it says.
struct JSONErrorCase: Sendable, CustomTestStringConvertible {
    var text: String
    var offset: Int
    var message: String
    var testDescription: String { text.debugDescription }
    init(_ text: String, _ offset: Int, _ message: String) {
        self.text = text
        self.offset = offset
        self.message = message
    }
}

func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

@Suite struct JSONParserTests {
    static let types: [JSONCase] = [
        JSONCase("null", .null),
        JSONCase("true", .bool(true)),
        JSONCase("false", .bool(false)),
        JSONCase("0", .number(0)),
        JSONCase("-0", .number(0)),
        JSONCase("42", .number(42)),
        JSONCase("-17", .number(-17)),
        JSONCase("3.25", .number(3.25)),
        JSONCase("-1.5e3", .number(-1500)),
        JSONCase("1E2", .number(100)),
        JSONCase("1e+2", .number(100)),
        JSONCase("25e-2", .number(0.25)),
        JSONCase(#""""#, .string("")),
        JSONCase(#""héllo 東京 🎉""#, .string("héllo 東京 🎉")),
        JSONCase("[]", .array([])),
        JSONCase("{}", .object([])),
        JSONCase(
            "[1,\"a\",null,true,[],{}]",
            .array([.number(1), .string("a"), .null, .bool(true), .array([]), .object([])])),
        JSONCase(
            #"{"a":{"b":[true,null]},"c":"d"}"#,
            .object([("a", .object([("b", .array([.bool(true), .null]))])), ("c", .string("d"))])),
        JSONCase(" \t\r\n [ 1 , 2 ] \n", .array([.number(1), .number(2)])),
        JSONCase("{ \"k\" : 1 }", .object([("k", .number(1))])),
    ]

    @Test(arguments: types)
    func everyJSONTypeParses(_ c: JSONCase) throws {
        #expect(try parse(c.text) == c.value)
    }

    static let escapes: [(String, String)] = [
        (#""\"\\\/""#, "\"\\/"),
        (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
        (#""a\nb""#, "a\nb"),
        (#""\u00e9\u00E9""#, "éé"),
        (#""\u4e2d\u6587""#, "中文"),
        (#""\u0000""#, "\u{0}"),
        (#""\ud83d\ude00""#, "😀"),
        (#""x\uD83C\uDDEB\uD83C\uDDF7y""#, "x🇫🇷y"),
        (#""\ud83dx""#, "\u{FFFD}x"),
        (#""\ude00""#, "\u{FFFD}"),
        (#""a\ud83d""#, "a\u{FFFD}"),
        (#""\ud83d\ud83d\ude00""#, "\u{FFFD}😀"),
        (#""\ud83d\n""#, "\u{FFFD}\n"),
        (#""\x41\x42""#, "AB"),
        (#""caf\xe9""#, "café"),
        (#""\xFF""#, "ÿ"),
        (#""plain then \t escape""#, "plain then \t escape"),
    ]

    @Test(arguments: escapes)
    func escapesDecode(_ text: String, _ expected: String) throws {
        #expect(try parse(text) == .string(expected))
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        #expect(try JSONParser.parse([0x22, 0x61, 0xFF, 0x62, 0x22]) == .string("a\u{FFFD}b"))
        #expect(try JSONParser.parse([0x22, 0x5C, 0x6E, 0xC3, 0x22]) == .string("\n\u{FFFD}"))
    }

    @Test(arguments: [UInt8(0x00), 0x01, 0x09, 0x0A, 0x0D, 0x1F])
    func rawControlCharactersInStringsAreRejected(_ control: UInt8) {
        // In the fast path (no escape yet) and after an escape.
        for prefix in [[0x22, 0x61], [0x22, 0x5C, 0x6E]] as [[UInt8]] {
            do {
                _ = try JSONParser.parse(prefix + [control, 0x22])
                Issue.record("accepted raw control character \(control)")
            } catch {
                #expect(error.offset == prefix.count)
                #expect(error.message == "control character in a string")
            }
        }
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = JSONParser.maxDepth
        #expect(depth == 512)
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try parse(text)
        var levels = 0
        while case .array(let inner) = value {
            levels += 1
            guard let first = inner.first else { break }
            value = first
        }
        #expect(levels == depth)
    }

    @Test(arguments: [JSONParser.maxDepth + 1, 100_000])
    func nestingBeyondTheLimitIsAnError(_ depth: Int) {
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        do {
            _ = try parse(text)
            Issue.record("accepted nesting depth \(depth)")
        } catch {
            #expect(error.offset == JSONParser.maxDepth)
            #expect(error.message.contains("deeper than 512"))
        }
    }

    @Test func aScalarBelowTheLastLevelCountsAsALevel() throws {
        let objects = String(repeating: #"{"a":"#, count: 511) + "1" + String(repeating: "}", count: 511)
        #expect(throws: Never.self) { try parse(objects) }
        let arrays = String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512)
        #expect(throws: JSONSyntaxError.self) { try parse(arrays) }
    }

    @Test(arguments: [
        ("1e308", 1e308),
        ("-1e308", -1e308),
        ("12345678901234567890", 12_345_678_901_234_567_890.0),
        ("9007199254740993", 9_007_199_254_740_992.0),
        ("0.1", 0.1),
        ("-0.000001", -0.000001),
        ("5e-324", Double.leastNonzeroMagnitude),
        ("1.7976931348623157e308", Double.greatestFiniteMagnitude),
    ])
    func bigAndSmallNumbersAreDoubles(_ text: String, _ expected: Double) throws {
        #expect(try parse(text) == .number(expected))
    }

    @Test func numbersBeyondDoubleRangeAreInfinite() throws {
        let big = try parse("1e400").numberValue
        #expect(big == .infinity)
        #expect(try parse("-1e400").numberValue == -.infinity)
        #expect(try parse("1e-400").numberValue == 0)
    }

    @Test func duplicateKeysAreKeptInOrderAndTheFirstWins() throws {
        let value = try parse(#"{"a":1,"b":2,"a":3}"#)
        guard case .object(let members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members.map(\.0) == ["a", "b", "a"])
        #expect(value["a"] == .number(1))
        #expect(value.jsonText == #"{"a":1,"b":2,"a":3}"#)
    }

    static let errors: [JSONErrorCase] = [
        JSONErrorCase("", 0, "unexpected end of JSON"),
        JSONErrorCase("   ", 3, "unexpected end of JSON"),
        JSONErrorCase("[", 1, "unexpected end of JSON"),
        JSONErrorCase("[1", 2, "unexpected end of JSON in an array"),
        JSONErrorCase("[1,", 3, "unexpected end of JSON"),
        JSONErrorCase("{", 1, "expected a string key"),
        JSONErrorCase(#"{"a""#, 4, "expected ':'"),
        JSONErrorCase(#"{"a":"#, 5, "unexpected end of JSON"),
        JSONErrorCase(#"{"a":1"#, 6, "unexpected end of JSON in an object"),
        JSONErrorCase(#""abc"#, 4, "unterminated string"),
        JSONErrorCase(#""a\nbc"#, 6, "unterminated string"),
        JSONErrorCase(#""ab\"#, 4, "unterminated escape"),
        JSONErrorCase(#""\u12"#, 3, "truncated \\u escape"),
        JSONErrorCase(#""\u12G4""#, 5, "invalid \\u escape"),
        JSONErrorCase(#""\x4""#, 3, "invalid \\x escape"),
        JSONErrorCase(#""\q""#, 3, "unknown escape \\q"),
        JSONErrorCase("tru", 0, "unexpected end of JSON"),
        JSONErrorCase("nul", 0, "unexpected end of JSON"),
        JSONErrorCase("trux", 0, "invalid literal"),
        JSONErrorCase("-", 0, "unexpected character"),
        JSONErrorCase("+1", 0, "unexpected character"),
        JSONErrorCase(".5", 0, "unexpected character"),
        JSONErrorCase("NaN", 0, "unexpected character"),
        JSONErrorCase("1e", 2, "invalid number"),
        JSONErrorCase("[1 2]", 3, "expected ',' or ']'"),
        JSONErrorCase("[1,]", 3, "unexpected character"),
        JSONErrorCase(#"{"a":1 "b":2}"#, 7, "expected ',' or '}'"),
        JSONErrorCase(#"{"a":1,}"#, 7, "expected a string key"),
        JSONErrorCase("{1:2}", 1, "expected a string key"),
        JSONErrorCase("1 2", 2, "unexpected data after the JSON value"),
        JSONErrorCase("1.5.3", 3, "unexpected data after the JSON value"),
        JSONErrorCase("[]]", 2, "unexpected data after the JSON value"),
    ]

    @Test(arguments: errors)
    func malformedInputReportsTheByteOffset(_ c: JSONErrorCase) {
        do {
            let value = try parse(c.text)
            Issue.record("parsed \(c.text.debugDescription) as \(value)")
        } catch {
            #expect(error.offset == c.offset)
            #expect(error.message == c.message)
            #expect(error.description == "\(c.message) at byte \(c.offset)")
        }
    }

    @Test func parsesAnyByteCollection() throws {
        #expect(try JSONParser.parse("[1]".utf8) == .array([.number(1)]))
        let bytes = Array("xx{\"a\":true}yy".utf8)
        #expect(try JSONParser.parse(bytes[2..<12]) == .object([("a", .bool(true))]))
    }
}
