import ChatModel
import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

/// An item line keeps its whole text as the item's raw record only when it holds fields this
/// version does not model (a later format's), in the line or in its content; the text is made
/// for those lines alone.
@Suite struct JSONLinesImporterTests {
    @Test func onlyALineWithFieldsThisVersionDoesNotModelKeepsItsText() throws {
        let future =
            #"{"kind":"item","chatId":"c1","id":"3","ts":"2024-05-01T10:02:00Z","dir":"rcv","memberId":"m1","content":{"type":"text","text":"東京 🎉"},"reactionsV2":[1]}"#
        let futureContent =
            #"{"kind":"item","chatId":"c1","id":"4","ts":"2024-05-01T10:03:00Z","dir":"snd","content":{"type":"text","text":"Привет","sticker":"x"}}"#
        let lines = [
            #"{"kind":"chat","chatId":"c1","type":"group","displayName":"Straße"}"#,
            #"{"kind":"member","chatId":"c1","memberId":"m1","displayName":"Zoë"}"#,
            #"{"kind":"item","chatId":"c1","id":"1","ts":"2024-05-01T10:00:00Z","dir":"rcv","memberId":"m1","content":{"type":"text","text":"مرحبا"},"edited":true}"#,
            #"{"kind":"item","chatId":"c1","id":"2","ts":"2024-05-01T10:01:00Z","dir":"snd","content":{"type":"text","text":"สวัสดี","duration":3}}"#,
            future, futureContent,
        ]
        let path = try TestArchive.writeFile(lines.joined(separator: "\n"))
        let sink = try readExport(path, format: "jsonl")
        #expect(sink.issues.isEmpty, "\(sink.issues)")
        #expect(sink.items.map(\.sourceId) == ["1", "2", "3", "4"])
        #expect(sink.items.map(\.raw) == [nil, nil, future, futureContent])
        #expect(sink.items.map(\.content.text) == ["مرحبا", "สวัสดี", "東京 🎉", "Привет"])
    }
}
