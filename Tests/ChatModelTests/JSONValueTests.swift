import ChatModel
import Testing

@Suite struct JSONValueTests {
    static let sample: JSONValue = .object([
        ("s", .string("x")), ("n", .number(2.5)), ("b", .bool(false)), ("z", .null), ("a", .array([.number(1)])),
        ("o", .object([("k", .string("v"))])),
    ])

    @Test func subscriptFindsObjectMembers() {
        #expect(Self.sample["s"] == .string("x"))
        #expect(Self.sample["o"]?["k"] == .string("v"))
        #expect(Self.sample["z"] == .null)
        #expect(Self.sample["missing"] == nil)
        #expect(JSONValue.array([.string("s")])["s"] == nil)
        #expect(JSONValue.string("s")["s"] == nil)
    }

    /// Each accessor answers for its own case and is nil (or false) for every other case.
    @Test(arguments: ["s", "n", "b", "z", "a", "o"])
    func accessorsMatchOnlyTheirCase(_ key: String) throws {
        let v = try #require(Self.sample[key])
        #expect((v.stringValue != nil) == (key == "s"))
        #expect((v.numberValue != nil) == (key == "n"))
        #expect((v.boolValue != nil) == (key == "b"))
        #expect(v.isNull == (key == "z"))
        #expect((v.arrayValue != nil) == (key == "a"))
        #expect((v["k"] != nil) == (key == "o"))
    }

    @Test func accessorsReturnThePayload() {
        #expect(Self.sample["s"]?.stringValue == "x")
        #expect(Self.sample["n"]?.numberValue == 2.5)
        #expect(Self.sample["b"]?.boolValue == false)
        #expect(Self.sample["a"]?.arrayValue == [.number(1)])
    }

    @Test func objectEqualityIsOrderSensitiveAndHashingAgrees() {
        let ab: JSONValue = .object([("a", .number(1)), ("b", .number(2))])
        let ba: JSONValue = .object([("b", .number(2)), ("a", .number(1))])
        #expect(ab != ba)
        #expect(ab == .object([("a", .number(1)), ("b", .number(2))]))
        #expect(ab != .object([("a", .number(1))]))
        #expect(JSONValue.number(1) != .string("1"))
        #expect(JSONValue.bool(true) != .number(1))
        #expect(JSONValue.array([]) != .object([]))
        let set: Set<JSONValue> = [ab, .object([("a", .number(1)), ("b", .number(2))]), ba, .null, .null]
        #expect(set.count == 3)
    }

    @Test(arguments: [
        (JSONValue.null, "null"),
        (.bool(true), "true"),
        (.number(0), "0"),
        (.number(-0.0), "0"),
        (.number(42), "42"),
        (.number(-7), "-7"),
        (.number(2.5), "2.5"),
        (.number(8_999_999_999_999_999), "8999999999999999"),
        (.number(1e20), "1e+20"),
        (.string("a\"b\\c"), #""a\"b\\c""#),
        (.string("\n\r\t"), #""\n\r\t""#),
        (.string("\u{08}\u{0C}\u{01}\u{1F}"), #""\u0008\u000c\u0001\u001f""#),
        (.string("\u{2028}\u{2029}"), #""\u2028\u2029""#),
        (.string("é/東京/😀\u{7F}"), "\"é/東京/😀\u{7F}\""),
        (.array([.number(1), .null, .array([])]), "[1,null,[]]"),
        (.object([("b", .number(1)), ("a", .object([]))]), #"{"b":1,"a":{}}"#),
        (.object([("k\"ey", .string("v"))]), #"{"k\"ey":"v"}"#),
    ])
    func jsonTextIsCompactAndEscaped(_ value: JSONValue, _ text: String) {
        #expect(value.jsonText == text)
    }

    @Test(arguments: [
        JSONValue.null, .bool(false), .number(-12.75), .number(1e-7), .string("\u{0}\u{1F}\"\\/ \u{2028} ﷽ 🇫🇷"),
        .array([.string("a"), .array([.array([])]), .object([])]),
        .object([("a", .object([("b", .array([.bool(true), .null, .number(3)]))])), ("", .string(""))]),
    ])
    func jsonTextParsesBackToTheSameValue(_ value: JSONValue) throws {
        #expect(try JSONParser.parse(Array(value.jsonText.utf8)) == value)
    }

    @Test func writeAppendsToExistingText() {
        var out = "x="
        JSONValue.array([.string("y")]).write(to: &out)
        JSONValue.writeString("z", to: &out)
        #expect(out == #"x=["y"]"z""#)
    }
}
