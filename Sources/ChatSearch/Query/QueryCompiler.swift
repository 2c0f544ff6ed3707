import ChatIndex
import ChatModel
import ChatText
import GRDB

/// Everything that narrows a search besides the query text.
struct SearchScope {
    var chatIds: [Int64]? = nil
    /// The one chat of `chatIds` is searched through its rowid range of the chat-keyed index,
    /// so the match leaves out its chat token.
    var chatByKeys = false
    /// With `chatByKeys`: the chat-keyed index has no positions (format 19), so the match
    /// names filter tokens as that index writes them, uses no column filter and no phrase, and
    /// the phrases are checked on the candidates' text (`CompiledQuery.checks`).
    var keyedWithoutPositions = false
    var content: ContentFilter? = nil
    var includeDeleted = false
}

enum QueryCompiler {
    /// Maximum number of vocabulary terms one infix word expands to.
    static let maxExpansions = 2000
    /// Maximum number of vocabulary terms a short word's prefix expands to before FTS5's own
    /// prefix query is used instead.
    static let maxPrefixTerms = 300
    /// Maximum number of vocabulary terms all the words of one query expand to: FTS5's cost grows
    /// with every listed term (a query of many expanding words took seconds), so once it is spent
    /// the remaining words use FTS5's prefix query.
    static let maxQueryExpansions = 2 * maxExpansions

    /// The smallest string greater than every string starting with `s` (its last scalar
    /// incremented), or nil when there is none.
    static func prefixUpperBound(_ s: String) -> String? {
        var scalars = Array(s.unicodeScalars)
        while let last = scalars.popLast() {
            var v = last.value + 1
            if (0xD800...0xDFFF).contains(v) { v = 0xE000 }
            if let next = Unicode.Scalar(v) {
                scalars.append(next)
                var out = String.UnicodeScalarView()
                out.append(contentsOf: scalars)
                return String(out)
            }
        }
        return nil
    }

    /// The alternatives without the terms that cannot add a match: a host, e-mail address or
    /// dotted word is indexed with its labels and parts co-located (ChatText's AnalyzerRules article, "Tokens"), so a
    /// document holding `blog.example.fr` also holds `example`; when that part is itself an
    /// alternative, the longer term only costs FTS5 another posting list to walk per candidate.
    ///
    /// A part counts when it is ASCII letters and digits between `.` or `@`, not the last one
    /// (a top-level domain is not indexed on its own, and a long token may be cut inside it),
    /// not `www`, and the term is no IP address (whose numbers are not indexed apart).
    static func pruneCovered(_ alternatives: [String]) -> [String] {
        guard alternatives.count > 1 else { return alternatives }
        let set = Set(alternatives)
        func isCovered(_ term: String) -> Bool {
            let bytes = Array(term.utf8)
            guard bytes.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "@") }) else { return false }
            var pieces: [ArraySlice<UInt8>] = []
            var start = 0
            for (i, b) in bytes.enumerated() where b == UInt8(ascii: ".") || b == UInt8(ascii: "@") {
                pieces.append(bytes[start..<i])
                start = i + 1
            }
            let last = bytes[start...]
            if let first = last.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) { return false }
            for piece in pieces where !piece.isEmpty && piece.count < bytes.count {
                guard
                    piece.allSatisfy({
                        ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z")
                            || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    }),
                    !piece.elementsEqual("www".utf8)
                else { continue }
                if set.contains(String(decoding: piece, as: UTF8.self)) { return true }
            }
            return false
        }
        return alternatives.filter { !isCovered($0) }
    }

    /// An FTS5 string: `"` doubled, scalar by scalar (a `"` followed by a combining mark is one
    /// Character, which a Character-wise replacement would leave alone: a syntax error).
    static func quote(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for u in s.unicodeScalars {
            out.append(u)
            if u == "\"" { out.append(u) }
        }
        out.append("\"")
        return String(out)
    }

    /// Compiles `q` within `scope` into an FTS5 MATCH expression, a rowid range and what
    /// highlighting needs; names (`in:`, `from:`, `mentions:`) and infix words are looked up in `db`.
    static func compile(_ q: SearchQuery, scope: SearchScope, _ db: Database) throws -> CompiledQuery {
        var compilation = Compilation(db: db, withoutPositions: scope.chatByKeys && scope.keyedWithoutPositions)
        try compilation.addTerms(q.terms)
        compilation.addExclusions(q.excluded)
        try compilation.addChatFilters(q, scope: scope)
        try compilation.addSenderFilters(q, scope: scope)
        compilation.addTagFilters(q, scope: scope)
        // Dates become ids by the archive's scale, read only when the query has one.
        let idScale = q.after != nil || q.before != nil ? try ArchiveIds.scale(db) : .milliseconds
        return compilation.compiled(q, scope: scope, idScale: idScale)
    }
}

extension QueryCompiler {
    /// One compiled clause: its match, and what a check of an index without positions needs of
    /// it (its alternatives, when it holds a phrase that index cannot match).
    struct Clause {
        var match: String
        /// Every way the clause holds, as a check reads an item's text (an `OR` group's check
        /// must see the ways of its parts without a phrase too).
        var alternatives: [TextCheck.Alternative] = []
        /// Whether the match alone is wider than the clause (a phrase of two or more positions
        /// in an index without positions).
        var needsCheck = false
    }

    /// The state one compilation builds up: the MATCH clauses, whether nothing can match, the
    /// highlighter and what is left of the query's expansion budget.
    private struct Compilation {
        let db: Database
        /// Clauses that every match satisfies (ANDed).
        var positives: [String] = []
        /// Clauses that no match satisfies (one NOT of their OR).
        var negatives: [String] = []
        var unsatisfiable = false
        var highlighter = Highlighter()
        var expansionBudget = QueryCompiler.maxQueryExpansions
        let textCols = "{text extra}"
        /// The match is for the chat-keyed index without positions: no column filter, no
        /// phrase, filter tokens under that index's names, and ``checks`` for the phrases.
        let withoutPositions: Bool
        /// Clauses checked on each candidate's text (``withoutPositions`` only): each one that
        /// holds a phrase of two or more positions.
        var checks: [TextCheck.Clause] = []

        init(db: Database, withoutPositions: Bool) {
            self.db = db
            self.withoutPositions = withoutPositions
        }

        /// `expr` limited to the text columns (the filter tokens of an index without positions
        /// have names no word takes, so there it needs no column filter).
        func text(_ expr: String) -> String { withoutPositions ? expr : "\(textCols): \(expr)" }

        /// Filter token `t` as the searched index names it.
        func tag(_ t: String) -> String { withoutPositions ? ChatKeys.quotedKeyed(t) : t }

        /// The match of the query analyser's tokens of `s` as a phrase, and what a check needs
        /// of it. With positions, FTS5's phrase; without, each position's tokens ANDed (any of a
        /// position's co-located tokens), and the phrase itself when it has two or more positions.
        func phrase(_ s: String, isPrefix: Bool) -> Clause {
            guard withoutPositions else { return Clause(match: quote(s) + (isPrefix ? "*" : "")) }
            var positions: [[String]] = []
            for t in Tokenizer.tokens(in: s, mode: .query) {
                if t.isColocated, !positions.isEmpty {
                    positions[positions.count - 1].append(t.text)
                } else {
                    positions.append([t.text])
                }
            }
            let parts = positions.enumerated().map { k, tokens in
                let star = isPrefix && k == positions.count - 1 ? "*" : ""
                let alts = tokens.map { quote(Tokenizer.verbatim($0)) + star }
                return alts.count == 1 ? alts[0] : "(" + alts.joined(separator: " OR ") + ")"
            }
            let match = parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")"
            return Clause(
                match: match, alternatives: [.phrase(positions, isPrefix: isPrefix)], needsCheck: positions.count > 1)
        }

        /// Up to `limit` terms of the vocabulary that contain `s` (its trigram index).
        func termsContaining(_ s: String, limit: Int) throws -> [String] {
            try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT t.term FROM termGram g JOIN term t ON t.id = g.rowid WHERE termGram MATCH ? LIMIT ?"),
                arguments: [quote(s), limit])
        }

        /// The clause of one query word (the last one is a prefix when `isPrefix`), or nil when
        /// it has no token.
        mutating func compileWord(_ w: String, isPrefix: Bool) throws -> Clause? {
            let tokens = Tokenizer.tokens(in: w, mode: .query).filter { !$0.isColocated }
            guard let first = tokens.first else { return nil }
            if tokens.count > 1 {
                return try compileSplitWord(w, tokens: tokens, isPrefix: isPrefix)
            }
            return try compileToken(first.text, isPrefix: isPrefix)
        }

        /// The clause of a word the query analyser splits into several tokens: the phrase of
        /// its tokens, or a vocabulary term that holds it whole.
        mutating func compileSplitWord(_ w: String, tokens: [AnalyzedToken], isPrefix: Bool) throws -> Clause {
            highlighter.phrases.append(tokens.map(\.text))
            if isPrefix { highlighter.lastPrefix = tokens.last?.text }
            var alone = phrase(w, isPrefix: isPrefix)
            alone.match = text(alone.match)
            let phraseMatch = alone.match
            // In a document the same characters can be one token: a host or address the
            // document analyser keeps whole (`https://mple.x1.com/` holds `mple.x1.com`, while
            // the word `mple.x1.com` breaks into `mple.x1` and `com`). Those terms contain it.
            let whole = TextNormalizer.normalize(w)
            let limit = min(maxExpansions, expansionBudget)
            guard whole.unicodeScalars.count >= 3, limit > 0 else { return alone }
            let terms = try termsContaining(whole, limit: limit)
            guard !terms.isEmpty else { return alone }
            let alts = pruneCovered(terms)
            expansionBudget -= alts.count
            highlighter.words.formUnion(alts)
            return Clause(
                match: "(\(phraseMatch)) OR ("
                    + text("(" + alts.map { quote(Tokenizer.verbatim($0)) }.joined(separator: " OR ") + ")") + ")",
                alternatives: alone.alternatives + [.tokens(alts)], needsCheck: alone.needsCheck)
        }

        /// The clause of a word that is one token: the token or the vocabulary terms it
        /// expands to, with FTS5's prefix query when they are too many to list.
        mutating func compileToken(_ token: String, isPrefix: Bool) throws -> Clause {
            highlighter.needles.insert(token)
            if Highlighter.isNoSpaceScript(token) {
                // CJK unigrams and pairs match as they are.
                highlighter.words.insert(token)
                var clause = phrase(token, isPrefix: false)
                clause.match = text(clause.match)
                return clause
            }
            // Expansion through the vocabulary, never FTS5's `*`: a prefix query materialises
            // every matching posting list (see InfixSearch.md in ChatSearch.docc), while
            // an OR of terms is read lazily, newest first, and stops after one page.
            let expansion: ([String], Bool)
            if token.unicodeScalars.count >= 3 {
                expansion = try infixAlternatives(of: token, isPrefix: isPrefix)
            } else if !isPrefix {
                // A short word before the last one is a whole word (`hi` in `hi everyone` is not `hiking`).
                highlighter.words.insert(token)
                expansion = ([token], true)
            } else {
                expansion = try shortPrefixAlternatives(of: token)
            }
            let (alts, complete) = expansion
            expansionBudget -= alts.count - 1
            // Every alternative is an analysed token: FTS5 must look it up as it is.
            var expr = alts.map { quote(Tokenizer.verbatim($0)) }.joined(separator: " OR ")
            // Too many terms to list: fall back to FTS5's prefix query (complete, slower).
            if !complete {
                expr += " OR " + quote(Tokenizer.verbatim(token)) + "*"
            }
            return Clause(
                match: text("(\(expr))"), alternatives: complete ? [.tokens(alts)] : [.tokens(alts), .prefix(token)],
                needsCheck: false)
        }

        /// Infix: `token` and every vocabulary term containing it (a superset of the terms it
        /// prefixes), and whether that list is complete.
        mutating func infixAlternatives(of token: String, isPrefix: Bool) throws -> ([String], Bool) {
            let limit = min(maxExpansions, expansionBudget)
            let expansions = limit > 0 ? try termsContaining(token, limit: limit + 1) : []
            let complete = limit > 0 && expansions.count <= limit
            var alts = [token]
            for e in expansions.prefix(limit) where e != token { alts.append(e) }
            alts = pruneCovered(alts)
            highlighter.words.formUnion(alts)
            // Complete, the alternatives hold every term the word prefixes (less the covered ones,
            // whose parts are highlighted instead); otherwise FTS5's `token*` can match more.
            if isPrefix && !complete { highlighter.prefixes.insert(token) }
            return (alts, complete)
        }

        /// A short last word matches word prefixes (search as you type): `token` and the terms in
        /// the vocabulary's range it prefixes, and whether that list is complete.
        mutating func shortPrefixAlternatives(of token: String) throws -> ([String], Bool) {
            highlighter.words.insert(token)
            highlighter.prefixes.insert(token)
            let limit = min(maxPrefixTerms, expansionBudget)
            guard limit > 0, let upper = QueryCompiler.prefixUpperBound(token) else { return ([token], false) }
            let terms = try String.fetchAll(
                db.cachedStatement(sql: "SELECT term FROM term WHERE term > ? AND term < ? LIMIT ?"),
                arguments: [token, upper, limit + 1])
            return (pruneCovered([token] + terms.prefix(limit)), terms.count <= limit)
        }

        /// The clause of one query term (word, phrase or `OR` group), or nil when it has no token.
        mutating func compileTerm(_ t: SearchQuery.Term) throws -> Clause? {
            switch t {
            case .word(let w, let isPrefix): return try compileWord(w, isPrefix: isPrefix)
            case .phrase(let p):
                let tokens = Tokenizer.tokens(in: p, mode: .query).filter { !$0.isColocated }
                guard !tokens.isEmpty else { return nil }
                highlighter.phrases.append(tokens.map(\.text))
                var clause = phrase(p, isPrefix: false)
                clause.match = text(clause.match)
                return clause
            case .anyOf(let alts):
                var parts: [Clause] = []
                for alt in alts { if let part = try compileTerm(alt) { parts.append(part) } }
                guard !parts.isEmpty else { return nil }
                let needsCheck = parts.contains(where: \.needsCheck)
                return Clause(
                    match: "(" + parts.map { "(\($0.match))" }.joined(separator: " OR ") + ")",
                    alternatives: parts.flatMap(\.alternatives),
                    needsCheck: needsCheck)
            }
        }

        /// Adds the clauses of the query's terms, each once (a repeated term adds nothing but
        /// cost); a term without a token makes the query unsatisfiable.
        mutating func addTerms(_ terms: [SearchQuery.Term]) throws {
            var seenTerms = Set<SearchQuery.Term>()
            for t in terms where seenTerms.insert(t).inserted {
                guard let c = try compileTerm(t) else {
                    unsatisfiable = true
                    continue
                }
                positives.append(c.match)
                if c.needsCheck { checks.append(TextCheck.Clause(c.alternatives)) }
            }
        }

        /// Adds the excluded words and phrases, each once; one without a token excludes nothing.
        /// Without positions, an excluded phrase is left to the check (its words alone would
        /// exclude too much).
        mutating func addExclusions(_ excluded: [String]) {
            var seenExclusions = Set<String>()
            for x in excluded where seenExclusions.insert(x).inserted {
                let tokens = Tokenizer.tokens(in: x, mode: .query).filter { !$0.isColocated }
                guard !tokens.isEmpty else { continue }
                let excluded = phrase(x, isPrefix: false)
                if excluded.needsCheck {
                    checks.append(TextCheck.Clause(excluded.alternatives, isNegated: true))
                } else {
                    negatives.append(text(excluded.match))
                }
            }
        }

        /// A filter answered from the tags column: any of `terms` (each written by ``tag(_:)``).
        func tagsAny(_ terms: [String]) -> String {
            if withoutPositions { return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")" }
            return terms.count == 1 ? "{tags}: \(terms[0])" : "{tags}: (" + terms.joined(separator: " OR ") + ")"
        }

        /// Puts the scope's chats and the query's `in:` chats first in the match.
        mutating func addChatFilters(_ q: SearchQuery, scope: SearchScope) throws {
            if let chats = scope.chatIds {
                if chats.isEmpty {
                    unsatisfiable = true
                } else if !scope.chatByKeys {
                    positives.insert(tagsAny(chats.map { tag(IndexTerms.chat($0)) }), at: 0)
                }
            }
            for name in q.inChats {
                let ids = try ChatLookup.chatIds(matching: name, db)
                if ids.isEmpty {
                    unsatisfiable = true
                } else {
                    positives.insert(tagsAny(ids.map { tag(IndexTerms.chat($0)) }), at: 0)
                }
            }
        }

        /// Adds `from:` and `mentions:`: a name that matches nobody makes the query unsatisfiable.
        mutating func addSenderFilters(_ q: SearchQuery, scope: SearchScope) throws {
            for name in q.from {
                if name.lowercased() == "me" {
                    positives.append(tagsAny([tag(IndexTerms.fromMe)]))
                    continue
                }
                // Group members by name; and in a direct chat with that name, whatever the owner did not
                // send (exports often give received direct messages no sender: the contact is the chat).
                let members = try ChatLookup.memberIds(matching: name, chatIds: scope.chatIds, db).map {
                    tag(IndexTerms.from(member: $0))
                }
                let contacts = try ChatLookup.directChatIds(matching: name, db).map {
                    "(\(tag(IndexTerms.chat($0))) NOT \(tag(IndexTerms.fromMe)))"
                }
                if members.isEmpty && contacts.isEmpty {
                    unsatisfiable = true
                } else {
                    positives.append(tagsAny(members + contacts))
                }
            }
            for name in q.mentions {
                let ids = try ChatLookup.memberIds(matching: name, chatIds: scope.chatIds, db)
                if ids.isEmpty {
                    unsatisfiable = true
                } else {
                    positives.append(tagsAny(ids.map { tag(IndexTerms.mentions(member: $0)) }))
                }
            }
        }

        /// Adds `mentions:me`, `has:`, the content filter, `is:unread` and `is:pinned`; a query
        /// with no clause at all matches every item.
        mutating func addTagFilters(_ q: SearchQuery, scope: SearchScope) {
            if q.mentionsMe { positives.append(tagsAny([tag(IndexTerms.mentionsMe)])) }
            for h in q.has {
                switch h {
                case .link: positives.append(tagsAny([tag(IndexTerms.link)]))
                case .image: positives.append(tagsAny([tag(IndexTerms.content(.image))]))
                case .video: positives.append(tagsAny([tag(IndexTerms.content(.video))]))
                case .voice: positives.append(tagsAny([tag(IndexTerms.content(.voice))]))
                case .file: positives.append(tagsAny([tag(IndexTerms.content(.file))]))
                }
            }
            if let c = scope.content { positives.append(tagsAny([tag(c.indexTerm)])) }
            if q.isUnread { positives.append(tagsAny([tag(IndexTerms.unread)])) }
            if q.isPinned { positives.append(tagsAny([tag(IndexTerms.pinned)])) }
            if positives.isEmpty { positives.append(tagsAny([tag(IndexTerms.all)])) }
        }

        /// The compiled query: the clauses joined, the rowid range of `after:`/`before:`.
        mutating func compiled(_ q: SearchQuery, scope: SearchScope, idScale: ArchiveIds.Scale) -> CompiledQuery {
            var match = positives.map { "(\($0))" }.joined(separator: " AND ")
            // One NOT of an OR of the exclusions (`a NOT b NOT c` is `a NOT (b OR c)`): a level of
            // parentheses per exclusion overflows FTS5's parser stack at about a hundred.
            if !negatives.isEmpty {
                match = "(\(match)) NOT (" + negatives.map { "(\($0))" }.joined(separator: " OR ") + ")"
            }
            highlighter.prepare()
            var c = CompiledQuery(
                match: match, isUnsatisfiable: unsatisfiable, excludesDeleted: !scope.includeDeleted,
                highlighter: highlighter)
            c.withoutPositions = withoutPositions
            if !checks.isEmpty { c.checks = TextCheck(checks) }
            if let a = q.after { c.minRowid = idScale.slotBase(milliseconds: a.milliseconds) }
            if let b = q.before { c.maxRowid = idScale.slotBase(milliseconds: b.milliseconds) }
            c.requiresUnread = q.isUnread
            return c
        }
    }
}
