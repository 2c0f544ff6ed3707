import ChatArchive
import ChatIndex
import ChatSearch
import ChatTestSupport
import Foundation
import Testing

/// The chat list by pages: `Archive.chats(matching:filter:limit:after:)` and its cursor, and
/// `Archive.chats(ids:)`.
@Suite struct ChatListPagingTests {
    /// Chats with names in several scripts, every kind of tab, tied times and chats without items.
    static let archive: Result<Archive, any Error> = Result {
        var g = SplitMix64(seed: 20_251_125)
        let syllables = ["ar", "te", "m", "ан", "тё", "ми", "北", "京", "Ö", "ß", " ", "ng", "สวั", "ดี", "مر", "حب"]
        func word(_ n: Int) -> String {
            (0..<n).map { _ in syllables[Int(g.next() % UInt64(syllables.count))] }.joined()
        }
        let kinds: [(type: String, business: String?)] = [
            ("direct", nil), ("group", nil), ("group", "business"), ("group", "customer"), ("local", nil),
            ("contactRequest", nil),
        ]
        var lines: [String] = []
        for i in 0..<90 {
            let id = "c\(i)"
            let kind = kinds[Int(g.next() % UInt64(kinds.count))]
            lines.append(
                Lines.chat(
                    id, type: kind.type, name: "n" + word(1 + Int(g.next() % 4)), favorite: g.next() % 4 == 0,
                    business: kind.business, tags: g.next() % 3 == 0 ? ["work"] : []))
            // Every sixth chat has no items; the others share 200 seconds, so times tie.
            if i % 6 != 0 {
                let s = Int(g.next() % 200)
                let ts = "2024-01-01T00:0\(s / 60):\(s % 60 < 10 ? "0" : "")\(s % 60)Z"
                lines.append(Lines.item(id, "1", ts: ts, text: "x", unread: g.next() % 2 == 0))
            }
        }
        return try TestArchive.make(jsonl: lines.joined(separator: "\n")).0
    }

    static let filters: [ChatFilter] = [
        .all, .unread, .favorites, .contacts, .groups, .business, .notes, .reports, .tag("work"), .tag("none"),
    ]
    // No query, short queries (a scan of names), long ones (trigrams), and loose matches through
    // transliteration (Cyrillic for Latin names and back).
    static let queries: [String?] = [nil, "n", "ar", "art", "тё", "артем", "te", "北京", "สวั", "مر", "ss", "zz"]

    /// Every page in turn, from the first cursor to the last.
    func allPages(_ a: Archive, _ query: String?, _ filter: ChatFilter, limit: Int) async throws -> [ChatRow] {
        var rows: [ChatRow] = []
        var cursor: String? = nil
        var pages = 0
        repeat {
            let page = try await a.chats(matching: query, filter: filter, limit: limit, after: cursor)
            #expect(page.rows.count <= limit)
            #expect(page.nextCursor == nil || page.rows.count == limit)
            rows += page.rows
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 1000
        return rows
    }

    @Test(arguments: filters)
    func pagesHoldEveryRowOnceInTheListsOrder(filter: ChatFilter) async throws {
        let a = try Self.archive.get()
        for query in Self.queries {
            let whole = try await a.chats(matching: query, filter: filter, limit: 100_000)
            for limit in [1, 4, 9, 200] {
                let paged = try await allPages(a, query, filter, limit: limit)
                #expect(paged.map(\.chatId) == whole.map(\.chatId), "\(query ?? "-") \(filter) by \(limit)")
                #expect(paged.map(\.isLooseMatch) == whole.map(\.isLooseMatch))
                #expect(Set(paged.map(\.chatId)).count == paged.count)
            }
        }
    }

    /// A name fragment in more chats than the trigram path takes (`ChatList.commonCandidates`)
    /// is answered by walking the names newest first: the same rows, in the same order, paged
    /// alike, loose matches (through transliteration) after the direct ones.
    @Test func aFragmentInHundredsOfNamesListsTheSameRows() async throws {
        var lines: [String] = []
        // (chat id, seconds of its last item or nil, kind of name).
        var chats: [(id: String, ts: Int?, kind: Int)] = []
        let names = ["Family", "Zweitfamilie", "Ｆａｍｉｌｙ", "Other", "Фамилия", "famé", "Kin"]
        for i in 0..<560 {
            let kind = i % names.count
            let id = "f\(i)"
            lines.append(Lines.chat(id, name: names[kind] + " \(i)"))
            var ts: Int? = nil
            if i % 9 != 0 {
                let s = (i * 7919) % 3_000
                ts = s
                let stamp = String(format: "2024-02-01T%02d:%02d:%02dZ", s / 3600, s / 60 % 60, s % 60)
                lines.append(Lines.item(id, "m", ts: stamp, text: "hallo"))
            }
            chats.append((id, ts, kind))
        }
        let (a, _) = try TestArchive.make(jsonl: lines.joined(separator: "\n"))
        // The list's order: direct before loose, newest activity first, then newest chat id
        // (chats were created in the order above), chats without activity last.
        func order(direct: Set<Int>, loose: Set<Int>) -> [String] {
            chats.enumerated().filter { direct.contains($0.element.kind) || loose.contains($0.element.kind) }
                .sorted { x, y in
                    let (p, q) = (x.element, y.element)
                    let (pl, ql) = (loose.contains(p.kind), loose.contains(q.kind))
                    if pl != ql { return !pl }
                    if (p.ts == nil) != (q.ts == nil) { return p.ts != nil }
                    if let a = p.ts, let b = q.ts, a != b { return a > b }
                    return x.offset > y.offset
                }.map(\.element.id)
        }
        // "fam" is in 320 names (famé folds to fame) and, through transliteration, in the
        // 80 Cyrillic ones: more than the trigram path takes. "fami" is in 240 names (not famé):
        // the trigram path. Both against the same model of the list.
        let cases: [(queries: [String], expected: [String], direct: Int)] = [
            (["fam", "FAM", "ｆａｍ", "Fam"], order(direct: [0, 1, 2, 5], loose: [4]), 320),
            (["fami", "FAMI", "ｆａｍｉ"], order(direct: [0, 1, 2], loose: [4]), 240),
        ]
        #expect(cases[0].direct > ChatList.commonCandidates && cases[1].direct < ChatList.commonCandidates)
        for (queries, expected, direct) in cases {
            for query in queries {
                let whole = try await a.chats(matching: query, limit: 100_000)
                #expect(whole.map(\.chatId) == expected, "\(query)")
                #expect(whole.filter { !$0.isLooseMatch }.count == direct, "\(query)")
                for limit in [1, 7, 60] {
                    let paged = try await allPages(a, query, .all, limit: limit)
                    #expect(paged.map(\.chatId) == expected, "\(query) by \(limit)")
                }
            }
        }
        // A rarer fragment still takes the trigram index, with the same rules.
        let rare = try await a.chats(matching: "zweitfam", limit: 100_000)
        #expect(rare.count == 80 && rare.allSatisfy { !$0.isLooseMatch })
    }

    @Test func theFirstPageIsTheListOfTheSameLimit() async throws {
        let a = try Self.archive.get()
        for query in Self.queries {
            let page = try await a.chats(matching: query, limit: 10, after: nil)
            #expect(page.rows == (try await a.chats(matching: query, limit: 10)))
        }
        let all = try await a.chats(limit: 100_000)
        #expect(all.count == 90)
        #expect(try await a.chats(limit: 90, after: nil).nextCursor == nil)
        #expect(try await a.chats(limit: 89, after: nil).nextCursor != nil)
        // Chats without items come last, on the last pages, and a cursor among them still pages.
        #expect(all.suffix(15).allSatisfy { $0.lastActivity == nil })
        let tail = try await allPages(a, nil, .all, limit: 2)
        #expect(tail.suffix(15).map(\.chatId) == all.suffix(15).map(\.chatId))
    }

    @Test(arguments: [
        "", "x", "c", "c2.1.1", "c0.1.", "c0..1", "c0.1.1.1", "c0.abc.1", "c0.1.99999999999999999999", "n123", "r0",
        "c0.n.x", "'; DROP TABLE chat; --", "c0.1.1\u{0}", " c0.1.1", "c0.1.1 ", "C0.1.1", "c0.+1.1", "c0.01.1",
        "c0.1.-0",
        String(repeating: "c0.1.1", count: 100),
    ])
    func aCursorNoPageReturnedIsATypedError(cursor: String) async throws {
        let a = try Self.archive.get()
        for query in [nil, "ar", "art"] {
            do {
                _ = try await a.chats(matching: query, limit: 5, after: cursor)
                Issue.record("\(cursor) was accepted")
            } catch let e as ArchiveError {
                #expect(e.code == .invalidCursor)
                #expect(!e.message.isEmpty)
            }
        }
        #expect(try await a.chats(limit: 100_000).count == 90)
    }

    @Test(arguments: [
        "c0.-9223372036854775808.-9223372036854775808", "c1.9223372036854775807.9223372036854775807", "c1.n.1",
        "c0.n.9223372036854775807", "c0.-1.0",
    ])
    func anExtremePositionIsAnswered(cursor: String) async throws {
        let a = try Self.archive.get()
        for query in [nil, "ar", "art"] {
            for filter in [ChatFilter.all, .unread, .tag("work")] {
                let page = try await a.chats(matching: query, filter: filter, limit: 500, after: cursor)
                #expect(page.nextCursor == nil)
            }
        }
    }

    @Test func idsAreLookedUpInTheirOrderSkippingUnknownOnesAndRepeats() async throws {
        let a = try Self.archive.get()
        let rows = try await a.chats(ids: ["c7", "nope", "c0", "c7", "", "c89"])
        #expect(rows.map(\.chatId) == ["c7", "c0", "c89"])
        let listed = try await a.chats(limit: 100_000)
        #expect(rows.first == listed.first(where: { $0.chatId == "c7" }))
        #expect(try await a.chats(ids: []).isEmpty)
        // Any number of ids, any characters: one argument, never an SQL error.
        let many = (0..<5000).map { "c\($0 % 120)" } + ["'); DROP TABLE chat; --", "\u{0}", "\"", "[", "\\"]
        #expect(try await a.chats(ids: many).count == 90)
    }

    @Test(arguments: [
        ("a,b,c", ["a", "b", "c"]), ("a,,b,", ["a", "b"]), ("", []), (",", []),
        (#"Smith\, John,x"#, ["Smith, John", "x"]),
        (#"back\\slash,y"#, [#"back\slash"#, "y"]), (#"end\"#, [#"end\"#]), (#"\q"#, ["q"]),
        ("東京,สวัสดี", ["東京", "สวัสดี"]),
        // A comma followed by a combining mark still separates (the split is by scalars).
        (",\u{301}a,b", ["\u{301}a", "b"]),
    ])
    func lookupIdsSplitOnUnescapedCommas(text: String, ids: [String]) {
        #expect(ChatList.lookupIds(text) == ids)
    }
}
