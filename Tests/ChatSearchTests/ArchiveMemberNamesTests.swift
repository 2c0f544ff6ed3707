import ChatArchive
import ChatSearch
import ChatTestSupport
import ChatText
import Foundation
import GRDB
import Testing

/// `from:` autocomplete across chats (`Archive.memberNames(matching:limit:)`): the members of
/// every chat, one row per folded name with its number of chats, ranked as mention autocomplete.
@Suite struct ArchiveMemberNamesTests {
    static func makeArchive() async throws -> Archive {
        let archive = try Archive(path: TestArchive.temporaryPath())
        try await archive.upsert(chats: [
            Chat(sourceId: "g1", type: .group, displayName: "Crew"),
            Chat(sourceId: "g2", type: .group, displayName: "Family"),
            Chat(sourceId: "g3", type: .group, displayName: "Work"),
        ])
        try await archive.upsert(members: [
            Member(chatSourceId: "g1", sourceId: "me", displayName: "Zoran", isUser: true),
            Member(chatSourceId: "g1", sourceId: "zoe", displayName: "Zoë"),
            Member(chatSourceId: "g2", sourceId: "zoe2", displayName: "ZOË"),
            Member(chatSourceId: "g3", sourceId: "zoe3", displayName: "Zoë", fullName: "Zoë Smith", localAlias: "Zo"),
            Member(chatSourceId: "g2", sourceId: "dim", displayName: "Дмитрий"),
            Member(chatSourceId: "g3", sourceId: "wang", displayName: "王小明"),
            Member(chatSourceId: "g3", sourceId: "amr", displayName: "عمرو"),
            Member(chatSourceId: "g2", sourceId: "somchai", displayName: "สมชาย"),
            Member(chatSourceId: "g1", sourceId: "joa", displayName: "Joanna"),
            Member(chatSourceId: "g2", sourceId: "ann", displayName: "Anna"),
            Member(chatSourceId: "g3", sourceId: "old", displayName: "Zoltan", hasLeft: true),
            Member(chatSourceId: "g1", sourceId: "emoji", displayName: "🎉 Party"),
        ])
        return archive
    }

    @Test(arguments: [
        ("zo", ["Zoë"]), ("zoë", ["Zoë"]), ("dm", ["Дмитрий"]), ("дми", ["Дмитрий"]), ("小明", ["王小明"]),
        ("عمر", ["عمرو"]), ("สมช", ["สมชาย"]), ("party", ["🎉 Party"]), ("qq", []),
    ])
    func foldsAndTransliteratesAcrossChats(query: String, expected: [String]) async throws {
        let archive = try await Self.makeArchive()
        let names = try await archive.memberNames(matching: query).map(\.name)
        // Any spelling of the name (the newest writer's): compared without case.
        #expect(names.map { $0.lowercased() } == expected.map { $0.lowercased() })
    }

    @Test func oneRowPerNameWithItsChatsAndNeitherTheUserNorLeavers() async throws {
        let archive = try await Self.makeArchive()
        let zo = try await archive.memberNames(matching: "zo")
        #expect(zo.count == 1)
        #expect(zo.first?.chats == 3)
        let all = try await archive.memberNames(matching: "", limit: 100)
        #expect(!all.contains { $0.name == "Zoran" || $0.name == "Zoltan" })
        #expect(all.count == 8)
    }

    @Test func wordStartsComeFirstThenRecentWriters() async throws {
        let archive = try await Self.makeArchive()
        // "ann": Anna starts with it; Joanna holds it inside.
        #expect(try await archive.memberNames(matching: "ann").map(\.name) == ["Anna", "Joanna"])
        try await archive.upsert(items: [
            LiveWriteFixtures.message("g1", "1", "hi", at: 0, from: "zoe"),
            LiveWriteFixtures.message("g2", "2", "hello", at: 5, from: "dim"),
        ])
        let recent = try await archive.memberNames(matching: "", limit: 2).map(\.name)
        #expect(recent == ["Дмитрий", "Zoë"])
        let json = ArchiveJSON.memberNames(try await archive.memberNames(matching: "zo"))
        #expect(json.hasPrefix(#"{"names":[{"name":"#))
        #expect(json.contains(#""chats":3"#))
    }

    /// 30 groups of 14 members named from `crowdNames` and `crowdFullNames` in 14 scripts, with
    /// aliases, leavers, the user, and newest messages at tied times.
    static let crowdNames = [
        "Anna", "Joanna", "Hannah", "Zoë", "Łukasz", "Дмитрий", "Мария", "王小明", "小林", "明美", "佐藤", "さくら",
        "김민준", "민서", "สมชาย", "ชาย", "عمرو", "محمد", "דוד", "שרה", "प्रिया", "राज", "Jürgen", "Çağla", "Ömer", "🎉 Party",
        "Ｔａｒｏ", "Ana", "Nana", "Ian", "Manon", "Bob",
    ]
    static let crowdFullNames = ["", "Smith", "Anders", "Novak", "Иванов", "田中", "ang", "Nguyen"]

    static func crowd(at path: String = TestArchive.temporaryPath()) async throws -> Archive {
        let archive = try Archive(path: path)
        let (first, full) = (crowdNames, crowdFullNames)
        var rng = SplitMix64(seed: 7)
        let chats = (0..<30).map { Chat(sourceId: "g\($0)", type: .group, displayName: "Group \($0)") }
        try await archive.upsert(chats: chats)
        var members: [Member] = []
        var writers: [(chat: String, member: String)] = []
        for c in 0..<30 {
            for k in 0..<14 {
                let name = first[Int(rng.next() % UInt64(first.count))]
                let id = "m\(c)-\(k)"
                members.append(
                    Member(
                        chatSourceId: "g\(c)", sourceId: id,
                        displayName: k == 0 && c % 7 == 0 ? name.uppercased() : name,
                        fullName: full[Int(rng.next() % UInt64(full.count))],
                        localAlias: rng.next() % 9 == 0 ? "Alias " + first[Int(rng.next() % UInt64(first.count))] : "",
                        isUser: k == 13, hasLeft: k == 12))
                if rng.next() % 3 != 0 { writers.append(("g\(c)", id)) }
            }
        }
        try await archive.upsert(members: members)
        // Minutes from a small range: many members share their newest message's time.
        let items = writers.enumerated().map { i, w in
            LiveWriteFixtures.message(w.chat, "i\(i)", "hi", at: Int64(rng.next() % 40), from: w.member)
        }
        try await archive.upsert(items: items)
        return archive
    }

    /// Every piece of `lengths` scalars of the crowd's folded names.
    static func namePieces(lengths: [Int]) -> Set<String> {
        var pieces: Set<String> = []
        for name in crowdNames + crowdFullNames {
            let scalars = Array(TextNormalizer.normalize(name).unicodeScalars)
            for length in lengths where scalars.count >= length {
                for i in 0...(scalars.count - length) {
                    pieces.insert(String(String.UnicodeScalarView(scalars[i..<(i + length)])))
                }
            }
        }
        return pieces
    }

    /// Compares ``MemberSearch/names(matching:limit:common:in:)`` with a test of every member for
    /// each key (as the search sees it: trimmed keys only) at each (limit, common); returns how
    /// many it compared.
    static func compareWithScan(
        _ archive: Archive, keys: Set<String>, settings: [(limit: Int, common: Int)]
    ) async throws -> Int {
        var compared = 0
        // The query is trimmed first (" p" is "p"): keys are compared as the search sees them.
        for key in keys.sorted() where key.trimmingCharacters(in: .whitespaces) == key {
            for (limit, common) in settings {
                let (fast, scan) = try await archive.database.writer.read { db in
                    (
                        try MemberSearch.names(matching: key, limit: limit, common: common, in: db),
                        try MemberSearch.namesByScan(key: TextNormalizer.normalize(key), limit: limit, in: db)
                    )
                }
                // The spelling of a name is its newest writer's; with several at one time
                // either is right: compared folded.
                func shape(_ names: [MemberName]) -> [String] {
                    names.map {
                        "\(TextNormalizer.normalize($0.name)) \($0.chats) \($0.lastActivity?.milliseconds ?? -1) \($0.isWordPrefixMatch)"
                    }
                }
                #expect(shape(fast) == shape(scan), "key \(key.debugDescription) limit \(limit) common \(common)")
                compared += 1
            }
        }
        return compared
    }

    /// Many members in 30 chats, in many scripts, the same people in several chats under other
    /// full names and aliases, writers and members who never wrote, times that tie: every short
    /// query (each piece of every name, pieces no name holds, the empty query) at several page
    /// sizes answers exactly as testing every member does, whichever way the index chooses
    /// (few names read by name, a walk of the writers, word starts then a walk).
    @Test func shortQueriesAnswerAsTestingEveryMember() async throws {
        let archive = try await Self.crowd()
        // The writer's rows are the SQL function's (a repair rebuilds them from it), and the
        // C pieces without SQL are the function's.
        try await archive.database.writer.read { db in
            #expect(try Int.fetchOne(db, sql: MemberNameGrams.missingSQL) == 0)
            #expect(try Int.fetchOne(db, sql: MemberKeys.mismatchSQL) == 0)
            for row in try Row.fetchAll(db, sql: "SELECT searchKey, nameKey FROM member") {
                let (search, name): (String, String) = (row[0], row[1])
                let sql = try String.fetchAll(
                    db, sql: "SELECT value FROM json_each(member_short_grams(?, ?))", arguments: [search, name])
                #expect(NamePieces.memberShortGrams(searchKey: search, nameKey: name) == sql)
            }
        }
        let keys = Self.namePieces(lengths: [1, 2]).union(["", "q", "zz", "x", "ß"])
        let compared = try await Self.compareWithScan(
            archive, keys: keys, settings: [(1, 48), (3, 1), (10, 2), (10, 5), (10, 48), (200, 3)])
        #expect(compared > 600)
    }

    /// Across the archive, a query of three or more characters (read from the trigram index)
    /// answers as testing every member does, whichever way it takes (every key that holds it,
    /// the names that start a word with it and then a walk, or a walk).
    @Test func longerQueriesAnswerAsTestingEveryMember() async throws {
        let archive = try await Self.crowd()
        let keys = Self.namePieces(lengths: [3, 4]).union(["qqq", "zzzz", "ßta"])
        let compared = try await Self.compareWithScan(
            archive, keys: keys,
            settings: [1, 3, 10, 200].map { ($0, MemberSearch.commonNames) } + [(10, 1), (10, 2), (3, 5), (200, 3)])
        #expect(compared > 400)
    }

    /// Whether the archive's member keys are what its members say (``MemberKeys``).
    static func keysAgree(_ archive: Archive) async throws -> Bool {
        try await archive.database.writer.read { db in try Int.fetchOne(db, sql: MemberKeys.mismatchSQL) == 0 }
    }

    /// The member keys follow every change to the members: renames into other scripts, a member
    /// who leaves and one who comes back, one who becomes the user, new messages, two chats
    /// deleted. After each, the keys are what the members say (the archive's check) and every
    /// query answers as testing every member does; keys made to disagree are found and repaired.
    @Test func keysFollowRenamesLeaversNewMessagesAndDeletedChats() async throws {
        let archive = try await Self.crowd()
        let keys = Self.namePieces(lengths: [1, 2, 3]).union(["", "ново", "新し", "newm", "back"])
        func agree(_ step: String) async throws {
            #expect(try await Self.keysAgree(archive), "\(step)")
            let compared = try await Self.compareWithScan(archive, keys: keys, settings: [(10, 64), (3, 1)])
            #expect(compared > 400, "\(compared)")
        }
        try await agree("made")
        try await archive.upsert(members: [
            Member(chatSourceId: "g0", sourceId: "m0-1", displayName: "Новый Зоран"),
            Member(chatSourceId: "g1", sourceId: "m1-2", displayName: "新しい名前", fullName: "Smith"),
            Member(chatSourceId: "g2", sourceId: "m2-3", displayName: "Anna", fullName: "Newman"),
            Member(chatSourceId: "g3", sourceId: "m3-4", displayName: "Anna", hasLeft: true),
            Member(chatSourceId: "g4", sourceId: "m4-12", displayName: "Back Again"),
            Member(chatSourceId: "g5", sourceId: "m5-5", displayName: "Bob", isUser: true),
            Member(chatSourceId: "g6", sourceId: "m6-6", displayName: "ANNA", fullName: "Smith"),
        ])
        try await agree("renamed")
        try await archive.upsert(items: [
            LiveWriteFixtures.message("g0", "n1", "hi", at: 50, from: "m0-1"),
            LiveWriteFixtures.message("g4", "n2", "hi", at: 51, from: "m4-12"),
            LiveWriteFixtures.message("g3", "n3", "hi", at: 52, from: "m3-4"),
            LiveWriteFixtures.message("g6", "n4", "hi", at: 53, from: "m6-6"),
            LiveWriteFixtures.message("g8", "n5", "hi", at: 53, from: "a sender the chat never listed"),
        ])
        try await agree("wrote")
        try await archive.deleteChat("g6")
        try await archive.deleteChat("g7")
        try await agree("deleted")
        // Keys and names that disagree with their members: a check says so, a repair counts
        // them again.
        try await archive.database.writer.write { db in
            try db.execute(
                sql: """
                    UPDATE memberKey SET members = members + 1 WHERE id = (SELECT min(id) FROM memberKey WHERE members > 0);
                    UPDATE memberName SET chats = chats + 1 WHERE folded = (SELECT min(folded) FROM memberName);
                    """)
        }
        #expect(try await archive.check().contains { $0.contains("member-name index") })
        #expect(try await archive.repair() == [])
        try await agree("repaired")
    }

    /// Real exports write members in every order (a sender before its member record, the same
    /// person in several chats and exports, members who leave): after the whole Corpus the keys
    /// are what the members say, the archive checks healthy, and every piece of every member's
    /// name answers as testing every member does.
    @Test func theCorpusLeavesKeysItsMembersAgreeWith() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        _ = try archive.ingestSync([TestArchive.corpusPath])
        #expect(try await Self.keysAgree(archive))
        #expect(try await archive.check() == [])
        let names = try await archive.database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT displayName FROM member")
        }
        var keys: Set<String> = [""]
        for name in names {
            let scalars = Array(TextNormalizer.normalize(name).unicodeScalars)
            for length in 1...3 where scalars.count >= length {
                for i in 0...(scalars.count - length) {
                    keys.insert(String(String.UnicodeScalarView(scalars[i..<(i + length)])))
                }
            }
        }
        let compared = try await Self.compareWithScan(archive, keys: keys, settings: [(10, 64), (3, 1), (10, 2)])
        #expect(compared > 300, "\(compared)")
    }

    /// An archive made before member keys (format 22) gets them from its members when a writer
    /// opens it; before that, opened read-only, it tests every member. Both answer alike.
    @Test func anArchiveGetsItsKeysFromItsMembersAndAnswersAlike() async throws {
        let path = TestArchive.temporaryPath()
        let keys = Self.namePieces(lengths: [1, 2, 3]).union([""])
        var before: [String: [MemberName]] = [:]
        do {
            let archive = try await Self.crowd(at: path)
            try await archive.database.writer.write { db in
                try db.execute(
                    sql: """
                        DROP TABLE memberKey; DROP TABLE memberKeyGram; DROP TABLE memberName;
                        DROP INDEX member_key; ALTER TABLE member DROP COLUMN keyId;
                        DELETE FROM grdb_migrations WHERE identifier = 'v23-memberKeys';
                        """)
            }
            for key in keys { before[key] = try await archive.memberNames(matching: key, limit: 20) }
        }
        let readOnly = try Archive(path: path, mode: .readOnly)
        for key in keys { #expect(try await readOnly.memberNames(matching: key, limit: 20) == before[key]) }
        let migrated = try Archive(path: path)
        #expect(try await Self.keysAgree(migrated))
        func shape(_ names: [MemberName]?) -> [String] {
            (names ?? []).map {
                "\(TextNormalizer.normalize($0.name)) \($0.chats) \($0.lastActivity?.milliseconds ?? -1)"
            }
        }
        for key in keys {
            #expect(shape(try await migrated.memberNames(matching: key, limit: 20)) == shape(before[key]), "\(key)")
        }
    }

    /// In one chat, a query of three or more characters answers the same whether its trigram
    /// candidates are read (those of the whole archive, or those of the chat, which the index's
    /// shape before format 17 cannot tell) or the chat's members are walked.
    @Test(arguments: [true, false])
    func aChatsMembersAnswerTheSameByTrigramsOrByWalking(byChat: Bool) async throws {
        let archive = try await Self.crowd()
        if !byChat {
            try await archive.database.writer.write { db in
                try db.execute(
                    sql: """
                        DROP TRIGGER member_nameGram_update; DROP TRIGGER member_nameGram_delete; DROP TABLE memberNameGram;
                        CREATE VIRTUAL TABLE memberNameGram USING fts5(words, name, tokenize='trigram case_sensitive 1', columnsize=0);
                        INSERT INTO memberNameGram(rowid, words, name) SELECT id, searchKey, nameKey FROM member;
                        DELETE FROM grdb_migrations WHERE identifier = 'v17-memberNameGramByChat';
                        """)
            }
        }
        #expect(try await archive.database.writer.read { try Bool.fetchOne($0, sql: MemberGrams.byChatSQL) } == byChat)
        var keys: Set<String> = ["qqz", "ann ", "and", "mit", "smith", "anders", "小林明"]
        for name in Self.crowdNames + Self.crowdFullNames {
            let scalars = Array(TextNormalizer.normalize(name).unicodeScalars)
            for width in 3...4 where scalars.count >= width {
                for i in 0...(scalars.count - width) {
                    keys.insert(String(String.UnicodeScalarView(scalars[i..<(i + width)])))
                }
            }
        }
        var compared = 0
        for chat in ["g0", "g7", "g13", "g29"] {
            for key in keys.sorted() {
                for limit in [1, 3, 10, 200] {
                    // The archive's candidates, the chat's (or, before format 17, a walk), a walk.
                    let ways = try await archive.database.writer.read { db in
                        try [(Int.max, Int.max), (0, Int.max), (0, 1)].map { spread, common in
                            try MemberSearch.members(
                                chat: chat, matching: key, limit: limit, spread: spread, common: common, in: db
                            ).map { "\($0.sourceId) \($0.isWordPrefixMatch)" }
                        }
                    }
                    #expect(ways[1] == ways[0], "chat \(chat) key \(key.debugDescription) limit \(limit), by chat")
                    #expect(ways[2] == ways[0], "chat \(chat) key \(key.debugDescription) limit \(limit), walked")
                    if !ways[0].isEmpty { compared += 1 }
                }
            }
        }
        #expect(compared > 200)
    }
}
