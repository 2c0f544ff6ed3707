import ChatText
import GRDB
import Testing

/// Documents in every script the analyser must handle, indexed with the "chat" tokenizer.
let ftsCorpus: [String] = [
    "On a vu l'arbre dans le jardin",  // 1
    "Café au lait",  // 2
    "ＡＢＣ full width",  // 3
    "我住在東京都",  // 4
    "东京 is simplified",  // 5
    "東の京",  // 6: both characters, never adjacent
    "ราคาถูกมาก",  // 7
    "서울에서 만나요",  // 8
    "lol 😂 and 👍🏽",  // 9
    "watch https://www.youtube.com/watch?v=dQw4w9WgXcQ",  // 10
    "@alice can you check #release",  // 11
    "Ich wohne in der Heinestraße",  // 12
    "Die Straße ist lang",  // 13
    "wir treffen uns in der strasse",  // 14
    "שָׁלוֹם עֲלֵיכֶם",  // 15
    "مُحَمَّد رَسُول",  // 16
    "Καλημέρα κόσμε",  // 17
    "İstanbul'da buluşalım",  // 18
    "नमस्ते दुनिया",  // 19
    "I don't know",  // 20
    "ISTANBUL is big",  // 21
    "Mail bob.smith@example.com",  // 22
    "ที่นี่ดีมาก",  // 23
    "Я люблю ёлки",  // 24
    "Μην ξεχάσεις το Οδυσσεύς",  // 25
]

func makeIndex(_ documents: [String] = ftsCorpus) throws -> DatabaseQueue {
    var config = Configuration()
    config.prepareDatabase { db in
        guard let connection = db.sqliteConnection else { return }
        let rc = FTS5Registration.register(on: connection)
        guard rc == 0 else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "cannot register the chat tokenizer")
        }
    }
    let queue = try DatabaseQueue(configuration: config)
    try queue.write { db in
        try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(text, tokenize='chat')")
        for (index, text) in documents.enumerated() {
            try db.execute(sql: "INSERT INTO doc(rowid, text) VALUES (?, ?)", arguments: [index + 1, text])
        }
    }
    return queue
}

@Suite("FTS5 tokenizer \"chat\"")
struct TokenizerFTSTests {
    @Test(
        "MATCH finds exactly the expected documents",
        arguments: [
            ("arbre", [1]), ("\"l'arbre\"", [1]), ("\"l’arbre\"", [1]),
            ("cafe", [2]), ("CAFÉ", [2]), ("\"caf\"*", [2]),
            ("abc", [3]), ("\"ＡＢＣ\"", [3]),
            ("\"東京\"", [4]), ("\"東京都\"", [4]), ("\"京都\"", [4]), ("\"东京\"", [5]), ("\"京\"", [4, 5, 6]),
            ("\"東\"*", [4, 6]), ("\"都東\"", []),
            ("\"ถูก\"", [7]), ("\"ราคา\"", [7]), ("\"ราถู\"", []), ("\"ที่นี่\"", [23]),
            ("\"서울\"", [8]), ("\"울에서\"", [8]), ("\"서에\"", []),
            ("\"😂\"", [9]), ("\"👍\"", [9]), ("\"👍🏽\"", [9]),
            ("\"youtube.com\"", [10]), ("youtube", [10]), ("\"www.youtube.com\"", [10]),
            ("\"https://www.youtube.com/watch\"", [10]), ("\"youtube.com/watch\"", [10]),
            ("alice", [11]), ("\"@alice\"", [11]), ("release", [11]), ("\"#release\"", [11]),
            ("\"straße\"", [13, 14]), ("strasse", [13, 14]), ("\"straß\"*", [13, 14]), ("heinestraße", [12]),
            ("שלום", [15]), ("\"עליכם\"", [15]), ("\"שָׁלוֹם\"", [15]),
            ("محمد", [16]), ("\"مُحَمَّد\"", [16]), ("رسول", [16]),
            ("καλημερα", [17]), ("ΚΑΛΗΜΈΡΑ", [17]), ("οδυσσευσ", [25]), ("\"ΟΔΥΣΣΕΥΣ\"", [25]),
            ("istanbul", [18, 21]), ("\"İstanbul\"", [18, 21]), ("\"istanbul'da\"", [18]),
            ("नमस्ते", [19]), ("दुनिया", [19]),
            ("\"don't\"", [20]), ("\"don’t\"", [20]), ("don", [20]),
            ("\"bob.smith@example.com\"", [22]), ("\"example.com\"", [22]), ("smith", [22]),
            ("елки", [24]), ("\"ёлки\"", [24]),
        ])
    func match(_ query: String, _ expected: [Int]) throws {
        let queue = try makeIndex()
        let rows = try queue.read { db in
            try Int.fetchAll(db, sql: "SELECT rowid FROM doc WHERE doc MATCH ? ORDER BY rowid", arguments: [query])
        }
        #expect(rows == expected)
    }

    @Test(
        "highlight() marks the matched position with the analyser's byte offsets",
        arguments: [
            // FTS5's highlight() skips co-located tokens: a matched part marks its whole word.
            ("arbre", 1, "On a vu [l'arbre] dans le jardin"),
            ("\"l'arbre\"", 1, "On a vu [l'arbre] dans le jardin"),
            ("cafe", 2, "[Café] au lait"),
            ("\"東京\"", 4, "我住在[東京]都"),
            ("\"👍\"", 9, "lol 😂 and [👍🏽]"),
            ("\"example.com\"", 22, "Mail [bob.smith@example.com]"),
            ("\"ถูก\"", 7, "ราคา[ถูก]มาก"),
            ("\"ราคา\"", 7, "[ราคา]ถูกมาก"),
        ])
    func highlight(_ query: String, _ rowid: Int, _ expected: String) throws {
        let queue = try makeIndex()
        let text = try queue.read { db in
            try String.fetchOne(
                db, sql: "SELECT highlight(doc, 0, '[', ']') FROM doc WHERE doc MATCH ? AND rowid = ?",
                arguments: [query, rowid])
        }
        #expect(text == expected)
    }

    @Test func termSetsHoldWholeTokensAndPartsButNoNGramsAndHandEachOutOnce() throws {
        let set = TermSet()
        set.add(TokenizedDocument("Vocabulary l'arbre Heinestraße 東京 @zoë"))
        // Whole tokens and their co-located parts (prefix and infix expansion read this set);
        // never the character n-grams of scripts without spaces.
        let terms = Set(set.drain())
        #expect(terms.isSuperset(of: ["vocabulary", "l'arbre", "arbre", "heinestrasse", "zoe", "@zoe"]))
        #expect(terms.isDisjoint(with: ["東京", "東", "京"]))
        #expect(set.drain().isEmpty)
        set.add(TokenizedDocument("vocabulary again"))
        #expect(set.drain() == ["again"], "known terms are not handed out twice")
    }
}
