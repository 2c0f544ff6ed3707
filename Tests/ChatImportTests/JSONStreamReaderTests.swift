import ChatModel
import Testing

@testable import ChatImport

/// Collects a reader's events as short strings (`enter chats`, `value name="x"`, `element messages[*]#0 {…}@offset:line`).
private func events(
    _ json: String, paths: [String], chunkSize: Int = 7, maxValueBytes: Int = 64 << 20
) -> (events: [String], error: JSONStreamError?) {
    let reader = JSONStreamReader(
        MemoryByteStream(Array(json.utf8)), elementPaths: paths, maxValueBytes: maxValueBytes, chunkSize: chunkSize)
    var out: [String] = []
    do {
        while let e = try reader.next() {
            switch e {
            case .enter(let path, let isObject, let at):
                out.append("enter \(path)\(isObject ? "{" : "[")@\(at.offset):\(at.line)")
            case .exit(let path, _): out.append("exit \(path)")
            case .value(let path, _, let bytes, _):
                out.append("value \(path)=\(String(decoding: bytes, as: UTF8.self))")
            case .element(let path, let index, let bytes, let at):
                out.append("element \(path)#\(index) \(String(decoding: bytes, as: UTF8.self))@\(at.offset):\(at.line)")
            }
        }
        return (out, nil)
    } catch {
        return (out, error)
    }
}

@Suite struct JSONStreamReaderTests {
    @Test(arguments: [1, 2, 7, 1 << 20])
    func singleChatShapeWithAnyChunkSize(chunk: Int) {
        let json =
            "{\"name\": \"A \\\"b\\\"\", \"id\": 5,\n \"messages\": [\n  {\"id\": 1, \"t\": \"[}\"},\n  {\"id\": 2}\n ]}"
        let r = events(json, paths: ["messages[*]"], chunkSize: chunk)
        #expect(r.error == nil)
        #expect(
            r.events == [
                "enter {@0:1", "value name=\"A \\\"b\\\"\"", "value id=5", "enter messages[@42:2",
                "element messages[*]#0 {\"id\": 1, \"t\": \"[}\"}@46:3", "element messages[*]#1 {\"id\": 2}@70:4",
                "exit messages", "exit ",
            ])
    }

    @Test func wholeAccountShapeWalksNestedLists() {
        let json = """
            {"personal_information": {"user_id": 9}, "chats": {"about": "x", "list": [
              {"type": "saved_messages", "id": 9, "messages": [{"id": 1}]},
              {"name": "B", "id": 2, "messages": []}]},
             "left_chats": {"list": [{"id": 3, "messages": [{"id": 4}, {"id": 5}]}]}, "other": [1, [2]]}
            """
        let r = events(json, paths: TelegramImporter.messagePaths)
        #expect(r.error == nil)
        #expect(
            r.events.filter { $0.hasPrefix("value") } == [
                "value personal_information={\"user_id\": 9}", "value chats.about=\"x\"",
                "value chats.list[*].type=\"saved_messages\"",
                "value chats.list[*].id=9", "value chats.list[*].name=\"B\"", "value chats.list[*].id=2",
                "value left_chats.list[*].id=3", "value other=[1, [2]]",
            ])
        #expect(
            r.events.filter { $0.hasPrefix("element") }.map { $0.split(separator: "@")[0] } == [
                "element chats.list[*].messages[*]#0 {\"id\": 1}",
                "element left_chats.list[*].messages[*]#0 {\"id\": 4}",
                "element left_chats.list[*].messages[*]#1 {\"id\": 5}",
            ])
        #expect(r.events.filter { $0.hasPrefix("enter chats.list[*]{") }.count == 2)
    }

    @Test func escapesInsideElementsPassThroughAndParse() throws {
        let json = #"{"messages": [{"text": "a\x07b \uD83D\uDE00 \\\" ]"}]}"#
        let r = events(json, paths: ["messages[*]"], chunkSize: 3)
        #expect(r.error == nil)
        let element = try #require(r.events.first { $0.hasPrefix("element") })
        #expect(element.contains(#"a\x07b"#))
        let bytes = Array(#"{"text": "a\x07b \uD83D\uDE00 \\\" ]"}"#.utf8)
        #expect(try JSONParser.parse(bytes)["text"]?.stringValue == "a\u{07}b 😀 \\\" ]")
    }

    @Test func truncationKeepsCompleteElementsAndPointsAtTheCutOne() {
        let json = "{\"messages\": [{\"id\": 1},\n {\"id\": 2, \"t\": \"cut"
        let r = events(json, paths: ["messages[*]"], chunkSize: 4)
        #expect(r.events.filter { $0.hasPrefix("element") }.count == 1)
        #expect(r.error?.isTruncation == true)
        #expect(r.error?.offset == 26)
        #expect(r.error?.line == 2)
    }

    @Test func truncationBetweenElementsIsReported() {
        let r = events("{\"messages\": [{\"id\": 1}, ", paths: ["messages[*]"])
        #expect(r.events.filter { $0.hasPrefix("element") }.count == 1)
        #expect(r.error?.isTruncation == true)
    }

    @Test(arguments: [
        ("mismatched bracket", #"{"messages": [{"id": 1]]}"#, "unexpected ']'"),
        ("missing comma", #"{"a": 1 "b": 2}"#, "expected ','"),
        ("trailing comma", #"{"messages": [{"id": 1},]}"#, "trailing ','"),
        ("non-string key", #"{1: 2}"#, "expected a string key"),
        ("data after the document", #"{"a": 1} x"#, "after the JSON document"),
        ("empty file", "  ", "empty"),
    ])
    func syntaxErrorsStopWithAnOffset(name: String, json: String, message: String) {
        let r = events(json, paths: ["messages[*]"])
        #expect(r.error?.message.contains(message) == true, "\(name): \(String(describing: r.error))")
    }

    @Test func nestingDeeperThanTheLimitStops() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let r = events("{\"messages\": [\(deep)]}", paths: ["messages[*]"])
        #expect(r.error?.message.contains("nested deeper than 512") == true)
    }

    @Test func valuesOverTheSizeLimitStop() {
        let big = String(repeating: "x", count: 5000)
        let r = events(
            "{\"messages\": [{\"id\": 1}, {\"t\": \"\(big)\"}]}", paths: ["messages[*]"], chunkSize: 64,
            maxValueBytes: 1000)
        #expect(r.events.filter { $0.hasPrefix("element") }.count == 1)
        #expect(r.error?.message.contains("larger than") == true)
        #expect(r.error?.offset == 25)
    }

    @Test func byteOrderMarkIsSkipped() {
        let r = events("\u{FEFF}{\"messages\": [1]}", paths: ["messages[*]"])
        #expect(r.error == nil)
        #expect(r.events.contains("element messages[*]#0 1@17:1"))
    }
}
