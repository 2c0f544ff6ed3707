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
        var compilation = Compilation(db: db)
        try compilation.addTerms(q.terms)
        compilation.addExclusions(q.excluded)
        try compilation.addChatFilters(q, scope: scope)
        try compilation.addSenderFilters(q, scope: scope)
        compilation.addTagFilters(q, scope: scope)
        // Dates become ids by the archive's scale, read only when the query has one.
        let idScale = q.after != nil || q.before != nil ? try ArchiveIds.scale(db) : ArchiveIds.scale
        return compilation.compiled(q, scope: scope, idScale: idScale)
    }
}

extension QueryCompiler {
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

        init(db: Database) { self.db = db }

        /// Up to `limit` terms of the vocabulary that contain `s` (its trigram index).
        func termsContaining(_ s: String, limit: Int) throws -> [String] {
            try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT t.term FROM termGram g JOIN term t ON t.id = g.rowid WHERE termGram MATCH ? LIMIT ?"),
                arguments: [quote(s), limit])
        }

        /// The clause of one query word (the last one is a prefix when `isPrefix`), or nil when
        /// it has no token.
        mutating func compileWord(_ w: String, isPrefix: Bool) throws -> String? {
            let tokens = Tokenizer.tokens(in: w, mode: .query).filter { !$0.isColocated }
            guard let first = tokens.first else { return nil }
            if tokens.count > 1 {
                return try compileSplitWord(w, tokens: tokens, isPrefix: isPrefix)
            }
            return try compileToken(first.text, isPrefix: isPrefix)
        }

        /// The clause of a word the query analyser splits into several tokens: the phrase of
        /// its tokens, or a vocabulary term that holds it whole.
        mutating func compileSplitWord(_ w: String, tokens: [AnalyzedToken], isPrefix: Bool) throws -> String {
            highlighter.phrases.append(tokens.map(\.text))
            if isPrefix { highlighter.lastPrefix = tokens.last?.text }
            let phrase = "\(textCols): \(quote(w))" + (isPrefix ? "*" : "")
            // In a document the same characters can be one token: a host or address the
            // document analyser keeps whole (`https://mple.x1.com/` holds `mple.x1.com`, while
            // the word `mple.x1.com` breaks into `mple.x1` and `com`). Those terms contain it.
            let whole = TextNormalizer.normalize(w)
            let limit = min(maxExpansions, expansionBudget)
            guard whole.unicodeScalars.count >= 3, limit > 0 else { return phrase }
            let terms = try termsContaining(whole, limit: limit)
            guard !terms.isEmpty else { return phrase }
            let alts = pruneCovered(terms)
            expansionBudget -= alts.count
            highlighter.words.formUnion(alts)
            return "(\(phrase)) OR (\(textCols): ("
                + alts.map { quote(Tokenizer.verbatim($0)) }.joined(separator: " OR ") + "))"
        }

        /// The clause of a word that is one token: the token or the vocabulary terms it
        /// expands to, with FTS5's prefix query when they are too many to list.
        mutating func compileToken(_ token: String, isPrefix: Bool) throws -> String {
            highlighter.needles.insert(token)
            if Highlighter.isNoSpaceScript(token) {
                // CJK unigrams and pairs match as they are.
                highlighter.words.insert(token)
                return "\(textCols): \(quote(token))"
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
            return "\(textCols): (\(expr))"
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
        mutating func compileTerm(_ t: SearchQuery.Term) throws -> String? {
            switch t {
            case .word(let w, let isPrefix): return try compileWord(w, isPrefix: isPrefix)
            case .phrase(let p):
                let tokens = Tokenizer.tokens(in: p, mode: .query).filter { !$0.isColocated }
                guard !tokens.isEmpty else { return nil }
                highlighter.phrases.append(tokens.map(\.text))
                return "\(textCols): \(quote(p))"
            case .anyOf(let alts):
                var parts: [String] = []
                for alt in alts { if let part = try compileTerm(alt) { parts.append(part) } }
                guard !parts.isEmpty else { return nil }
                return "(" + parts.map { "(\($0))" }.joined(separator: " OR ") + ")"
            }
        }

        /// Adds the clauses of the query's terms, each once (a repeated term adds nothing but
        /// cost); a term without a token makes the query unsatisfiable.
        mutating func addTerms(_ terms: [SearchQuery.Term]) throws {
            var seenTerms = Set<SearchQuery.Term>()
            for t in terms where seenTerms.insert(t).inserted {
                if let e = try compileTerm(t) { positives.append(e) } else { unsatisfiable = true }
            }
        }

        /// Adds the excluded words and phrases, each once; one without a token excludes nothing.
        mutating func addExclusions(_ excluded: [String]) {
            var seenExclusions = Set<String>()
            for x in excluded where seenExclusions.insert(x).inserted {
                let tokens = Tokenizer.tokens(in: x, mode: .query).filter { !$0.isColocated }
                if !tokens.isEmpty { negatives.append("\(textCols): \(quote(x))") }
            }
        }

        /// A filter answered from the tags column: any of `terms`.
        func tagsAny(_ terms: [String]) -> String {
            terms.count == 1 ? "{tags}: \(terms[0])" : "{tags}: (" + terms.joined(separator: " OR ") + ")"
        }

        /// Puts the scope's chats and the query's `in:` chats first in the match.
        mutating func addChatFilters(_ q: SearchQuery, scope: SearchScope) throws {
            if let chats = scope.chatIds {
                if chats.isEmpty {
                    unsatisfiable = true
                } else if !scope.chatByKeys {
                    positives.insert(tagsAny(chats.map(IndexTerms.chat)), at: 0)
                }
            }
            for name in q.inChats {
                let ids = try ChatLookup.chatIds(matching: name, db)
                if ids.isEmpty {
                    unsatisfiable = true
                } else {
                    positives.insert(tagsAny(ids.map(IndexTerms.chat)), at: 0)
                }
            }
        }

        /// Adds `from:` and `mentions:`: a name that matches nobody makes the query unsatisfiable.
        mutating func addSenderFilters(_ q: SearchQuery, scope: SearchScope) throws {
            for name in q.from {
                if name.lowercased() == "me" {
                    positives.append(tagsAny([IndexTerms.fromMe]))
                    continue
                }
                // Group members by name; and in a direct chat with that name, whatever the owner did not
                // send (exports often give received direct messages no sender: the contact is the chat).
                let members = try ChatLookup.memberIds(matching: name, chatIds: scope.chatIds, db).map(
                    IndexTerms.from(member:))
                let contacts = try ChatLookup.directChatIds(matching: name, db).map {
                    "(\(IndexTerms.chat($0)) NOT \(IndexTerms.fromMe))"
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
                    positives.append(tagsAny(ids.map(IndexTerms.mentions(member:))))
                }
            }
        }

        /// Adds `mentions:me`, `has:`, the content filter, `is:unread` and `is:pinned`; a query
        /// with no clause at all matches every item.
        mutating func addTagFilters(_ q: SearchQuery, scope: SearchScope) {
            if q.mentionsMe { positives.append(tagsAny([IndexTerms.mentionsMe])) }
            for h in q.has {
                switch h {
                case .link: positives.append(tagsAny([IndexTerms.link]))
                case .image: positives.append(tagsAny([IndexTerms.content(.image)]))
                case .video: positives.append(tagsAny([IndexTerms.content(.video)]))
                case .voice: positives.append(tagsAny([IndexTerms.content(.voice)]))
                case .file: positives.append(tagsAny([IndexTerms.content(.file)]))
                }
            }
            if let c = scope.content { positives.append(tagsAny([c.indexTerm])) }
            if q.isUnread { positives.append(tagsAny([IndexTerms.unread])) }
            if q.isPinned { positives.append(tagsAny([IndexTerms.pinned])) }
            if positives.isEmpty { positives.append(tagsAny([IndexTerms.all])) }
        }

        /// The compiled query: the clauses joined, the rowid range of `after:`/`before:`.
        mutating func compiled(_ q: SearchQuery, scope: SearchScope, idScale: Int64) -> CompiledQuery {
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
            if let a = q.after { c.minRowid = ArchiveIds.slotBase(milliseconds: a.milliseconds, scale: idScale) }
            if let b = q.before { c.maxRowid = ArchiveIds.slotBase(milliseconds: b.milliseconds, scale: idScale) }
            c.requiresUnread = q.isUnread
            return c
        }
    }
}
