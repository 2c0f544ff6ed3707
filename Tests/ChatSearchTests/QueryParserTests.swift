import ChatArchive
import ChatTestSupport
import Foundation
import Testing

@Suite struct QueryParserTests {
    @Test func wordsPhrasesExclusionsAndOperators() {
        let q = QueryParser.parse(
            #"hello "exact phrase" -spam from:"Bob M" in:club has:image mentions:me before:2024-05-01 after:2024-01 is:unread is:pinned a OR b last"#
        )
        #expect(
            q.terms == [
                .word("hello", isPrefix: false), .phrase("exact phrase"),
                .anyOf([.word("a", isPrefix: false), .word("b", isPrefix: false)]), .word("last", isPrefix: true),
            ])
        #expect(q.excluded == ["spam"])
        #expect(q.from == ["Bob M"])
        #expect(q.inChats == ["club"])
        #expect(q.has == [.image])
        #expect(q.mentionsMe)
        #expect(q.before == Timestamp(year: 2024, month: 5, day: 1))
        #expect(q.after == Timestamp(year: 2024, month: 1, day: 1))
        #expect(q.isUnread && q.isPinned)
    }

    @Test(arguments: [
        "", "\"", "\"\"", "*", "NEAR(", "a AND b", "'; DROP TABLE item; --", "from:", ":", "has:nothing",
        "before:2024-13-45",
        "\u{0}\u{1}\u{7F}", "-", "- -", "OR", "OR OR a", "col:value", "{text}: x", "^start", "\"unclosed phrase",
    ])
    func hostileTextNeverThrows(text: String) async throws {
        let (a, _) = try TestArchive.make(jsonl: ItemWindowTests.fixture)
        _ = QueryParser.parse(text)
        _ = try await a.search(text)
        _ = try await a.search(text, options: SearchOptions(chat: "c", order: .relevance))
    }
}
