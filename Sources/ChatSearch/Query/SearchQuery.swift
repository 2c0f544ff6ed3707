import ChatModel

/// A user's search text parsed into a tree of terms and filters.
///
/// Parsing is lenient: every input gives a query (possibly empty), never an error. Stray
/// quotes, colons, `*`, FTS5 or SQL syntax are just text.
package struct SearchQuery: Sendable, Hashable {
    /// One positive text condition.
    package enum Term: Sendable, Hashable {
        /// A word; `isPrefix` when it is the last word typed (search as you type).
        case word(String, isPrefix: Bool)
        /// An exact phrase.
        case phrase(String)
        /// Any of these alternatives (`a OR b`).
        case anyOf([Term])
    }

    /// Text conditions, all of which must match.
    package var terms: [Term] = []
    /// Words or phrases that must not occur.
    package var excluded: [String] = []
    /// `from:` names (`me` for the archive's owner).
    package var from: [String] = []
    /// `in:` chat names or ids.
    package var inChats: [String] = []
    /// `has:` kinds.
    package var has: [HasFilter] = []
    /// `mentions:` names.
    package var mentions: [String] = []
    /// `mentions:me`.
    package var mentionsMe = false
    /// `before:` — items strictly before this instant.
    package var before: Timestamp?
    /// `after:` — items at or after this instant.
    package var after: Timestamp?
    /// `is:unread`.
    package var isUnread = false
    /// `is:pinned`.
    package var isPinned = false

    /// An empty query (matches everything its filters allow).
    package init() {}

    /// Whether the query has any text condition.
    package var hasText: Bool { !terms.isEmpty }
    /// Whether the query constrains nothing at all.
    package var isEmpty: Bool {
        terms.isEmpty && excluded.isEmpty && from.isEmpty && inChats.isEmpty && has.isEmpty && mentions.isEmpty
            && !mentionsMe && before == nil && after == nil && !isUnread && !isPinned
    }
}

/// `has:` kinds (and the `--content` filter values beyond `text` and `report`).
package enum HasFilter: String, Sendable, Hashable, CaseIterable {
    case link, image, video, voice, file
}

/// Parses search text into a ``SearchQuery``.
package enum QueryParser {
    /// Parses `text` leniently.
    ///
    /// Grammar: words; `"exact phrase"` (an unclosed quote runs to the end); `-word` or
    /// `-"phrase"` to exclude; `OR` between two terms; `from:NAME`, `in:CHAT`, `has:KIND`,
    /// `mentions:NAME|me`, `before:DATE`, `after:DATE` (`2024-05-01` or `2024-05`), `is:unread`,
    /// `is:pinned`. Operator values may be quoted (`from:"Bob M"`). An unknown or malformed
    /// operator is searched as text.
    package static func parse(_ text: String) -> SearchQuery {
        var q = SearchQuery()
        // Control characters are separators.
        let scalars = Array(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 })
        var i = 0
        var pendingOr = false
        var lastWasTerm = false

        func skipSpaces() { while i < scalars.count, scalars[i].properties.isWhitespace { i += 1 } }
        func readQuoted() -> String {
            // At an opening quote: read to the closing quote or the end.
            i += 1
            var s = String.UnicodeScalarView()
            while i < scalars.count, scalars[i] != "\"" {
                s.append(scalars[i])
                i += 1
            }
            if i < scalars.count { i += 1 }
            return String(s)
        }
        func readBare() -> String {
            var s = String.UnicodeScalarView()
            while i < scalars.count, !scalars[i].properties.isWhitespace, scalars[i] != "\"" {
                s.append(scalars[i])
                i += 1
            }
            return String(s)
        }
        func addTerm(_ t: SearchQuery.Term) {
            if pendingOr, lastWasTerm, let last = q.terms.popLast() {
                switch last {
                case .anyOf(let alts): q.terms.append(.anyOf(alts + [t]))
                default: q.terms.append(.anyOf([last, t]))
                }
            } else {
                q.terms.append(t)
            }
            pendingOr = false
            lastWasTerm = true
        }

        while true {
            skipSpaces()
            guard i < scalars.count else { break }
            if scalars[i] == "\"" {
                let phrase = readQuoted()
                if !phrase.trimmingSpaces.isEmpty { addTerm(.phrase(phrase)) }
                continue
            }
            if scalars[i] == "-", i + 1 < scalars.count, !scalars[i + 1].properties.isWhitespace {
                i += 1
                let word = scalars[i] == "\"" ? readQuoted() : readBare()
                if !word.trimmingSpaces.isEmpty { q.excluded.append(word) }
                pendingOr = false
                lastWasTerm = false
                continue
            }
            let word = readBare()
            if word == "OR" {
                if lastWasTerm { pendingOr = true }
                continue
            }
            if let colon = word.firstIndex(of: ":"), colon != word.startIndex {
                let key = word[..<colon].lowercased()
                var value = String(word[word.index(after: colon)...])
                if value.isEmpty, i < scalars.count, scalars[i] == "\"" { value = readQuoted() }
                if apply(key, value, to: &q) {
                    pendingOr = false
                    lastWasTerm = false
                    continue
                }
            }
            if word.isEmpty { continue }
            addTerm(.word(word, isPrefix: false))
        }
        // The last typed word is also a prefix (search as you type), unless the text ends in a space.
        let endsWithSpace = text.unicodeScalars.last.map { $0.properties.isWhitespace } ?? false
        if !endsWithSpace, let last = q.terms.last, case .word(let w, _) = last {
            q.terms[q.terms.count - 1] = .word(w, isPrefix: true)
        }
        return q
    }

    private static func apply(_ key: String, _ value: String, to q: inout SearchQuery) -> Bool {
        let v = value.trimmingSpaces
        guard !v.isEmpty else { return false }
        switch key {
        case "from": q.from.append(v)
        case "in": q.inChats.append(v)
        case "has":
            guard let h = HasFilter(rawValue: v.lowercased()) else { return false }
            q.has.append(h)
        case "mentions":
            if v.lowercased() == "me" { q.mentionsMe = true } else { q.mentions.append(v) }
        case "before":
            guard let t = parseDate(v, end: false) else { return false }
            q.before = min(q.before ?? t, t)
        case "after":
            guard let t = parseDate(v, end: false) else { return false }
            q.after = max(q.after ?? t, t)
        case "is":
            switch v.lowercased() {
            case "unread": q.isUnread = true
            case "pinned": q.isPinned = true
            default: return false
            }
        default: return false
        }
        return true
    }

    /// `2024-05-01` → that day's start (UTC); `2024-05` → the month's start; `2024` → the year's;
    /// anything else is read as an RFC 3339 time (`2024-05-01T10:00:00+02:00`).
    static func parseDate(_ s: String, end: Bool) -> Timestamp? {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let y = Int(parts[0]), parts[0].count == 4
        else { return Timestamp.parse(s) }
        let m = parts.count > 1 ? Int(parts[1]) : 1
        let d = parts.count > 2 ? Int(parts[2]) : 1
        // `2024-05-01T10:00:00Z` splits into three parts too; its day is not a number.
        guard let m, let d else { return Timestamp.parse(s) }
        return Timestamp(year: y, month: m, day: d)
    }
}

extension String {
    var trimmingSpaces: String {
        let s = unicodeScalars.drop(while: { $0.properties.isWhitespace })
        let e = s.reversed().drop(while: { $0.properties.isWhitespace })
        return String(String.UnicodeScalarView(e.reversed()))
    }
}
