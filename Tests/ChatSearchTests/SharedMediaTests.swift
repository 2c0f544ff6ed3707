import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// A chat's shared media: the items of one kind, newest first, paged by cursor.
@Suite struct SharedMediaTests {
    /// Per script sample, an image named in that script (odd minutes) and a text (even);
    /// then a file, a voice message, a video, a link, a deleted image, and a second chat.
    static let fixture: String = {
        var lines = [Lines.chat("c", name: "Photos"), Lines.chat("other", name: "Other")]
        for (k, script) in TextSamples.scripts.enumerated() {
            let name = String(script.prefix(12)) + ".jpg"
            var encoded = ""
            JSONValue.writeString(name, to: &encoded)
            lines.append(
                Lines.item(
                    "c", "img\(k)", ts: String(format: "2024-03-01T10:%02d:00Z", 2 * k + 1), text: script,
                    type: "image", extra: #""file":{"name":\#(encoded),"size":1000,"path":"photos/\#(k).jpg"}"#))
            lines.append(
                Lines.item("c", "txt\(k)", ts: String(format: "2024-03-01T10:%02d:00Z", 2 * k + 2), text: "plain \(k)"))
        }
        lines += [
            Lines.item(
                "c", "pdf", ts: "2024-03-02T10:00:00Z", text: "the minutes", type: "file",
                extra: #""file":{"name":"протокол.pdf","size":12,"path":"протокол.pdf"}"#),
            Lines.item(
                "c", "voice", ts: "2024-03-02T10:01:00Z", text: "", type: "voice",
                extra: #""file":{"name":"voice.ogg","size":3,"path":"voice.ogg"},"duration":7"#),
            Lines.item(
                "c", "film", ts: "2024-03-02T10:02:00Z", text: "🎬", type: "video",
                extra: #""file":{"name":"film.mp4","size":9,"path":"film.mp4"}"#),
            Lines.item("c", "url", ts: "2024-03-02T10:03:00Z", text: "東京 https://example.com/tokyo ok"),
            Lines.item(
                "c", "gone", ts: "2024-03-02T10:04:00Z", text: "deleted photo", type: "image", deleted: true,
                extra: #""file":{"name":"gone.jpg","path":"gone.jpg"}"#),
            Lines.item(
                "other", "o1", ts: "2024-03-02T10:05:00Z", text: "elsewhere", type: "image",
                extra: #""file":{"name":"else.jpg","path":"else.jpg"}"#),
        ]
        return lines.joined(separator: "\n")
    }()

    static let archive = Result { try TestArchive.make(jsonl: fixture).0 }

    @Test(arguments: [
        (MediaKind.image, ["img12", "img11", "img10"]), (.video, ["film"]), (.file, ["pdf"]), (.voice, ["voice"]),
        (.link, ["url"]),
    ])
    func eachKindListsItsItemsNewestFirst(kind: MediaKind, newest: [String]) async throws {
        let a = try Self.archive.get()
        let page = try await a.media(in: "c", kind: kind, limit: 3)
        #expect(page.items.map(\.sourceId) == newest)
        #expect(page.items.allSatisfy { $0.chatId == "c" && !$0.isDeleted })
    }

    @Test func pagesFollowTheCursorToTheOldestWithEveryImageOnce() async throws {
        let a = try Self.archive.get()
        var seen: [String] = []
        var cursor: String? = nil
        var pages = 0
        repeat {
            let page = try await a.media(in: "c", kind: .image, limit: 4, after: cursor)
            seen += page.items.map(\.sourceId)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 20
        let expected = TextSamples.scripts.indices.reversed().map { "img\($0)" }
        #expect(seen == expected)
        #expect(pages == (expected.count + 3) / 4)
    }

    @Test func fileNamesInEveryScriptComeBackAsStored() async throws {
        let a = try Self.archive.get()
        let page = try await a.media(in: "c", kind: .image, limit: 100)
        let names = Set(page.items.compactMap(\.file?.name))
        for script in TextSamples.scripts { #expect(names.contains(String(script.prefix(12)) + ".jpg"), "\(script)") }
        let file = try await a.media(in: "c", kind: .file, limit: 1)
        #expect(file.items.first?.file?.name == "протокол.pdf")
    }

    @Test func aLinkCarriesItsSpansAndTheJSONSaysSo() async throws {
        let a = try Self.archive.get()
        let page = try await a.media(in: "c", kind: .link, limit: 5)
        let id = try #require(page.items.first?.id)
        #expect(page.spans[id]?.isEmpty == false)
        let json = ArchiveJSON.media(page)
        #expect(json.hasPrefix("{\"items\":[{\"id\":\(id),"))
        #expect(json.hasSuffix(",\"nextCursor\":null}"))
        #expect(json.contains("\"spans\":"))
    }

    @Test func anUnknownChatAndAForeignCursorThrow() async throws {
        let a = try Self.archive.get()
        await #expect(throws: ArchiveError.self) { try await a.media(in: "nope", kind: .image) }
        for bad in ["xyz", "r10", "n", "n12abc", ""] {
            do {
                _ = try await a.media(in: "c", kind: .image, after: bad)
                Issue.record("\(bad) was taken as a cursor")
            } catch let e as ArchiveError {
                #expect(e.code == .invalidCursor, "\(bad)")
            }
        }
    }

    @Test func everyKindHasAName() {
        #expect(MediaKind.allCases.map(\.rawValue) == ["image", "video", "file", "link", "voice"])
        #expect(MediaKind(rawValue: "text") == nil)
    }
}
