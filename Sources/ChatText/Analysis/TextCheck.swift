/// What an index without positions cannot answer about one item: whether its text holds a
/// query's phrases in order. The chat-keyed index of an archive made since format 19 keeps no
/// positions, so a search in one chat matches a phrase's tokens anywhere in an item and keeps
/// the candidates this check passes (ChatIndex's ArchiveLayout, "Searches in one chat"). The
/// check analyses the item's text and extra text as documents, with token positions
/// as FTS5 counts them (a co-located token shares its predecessor's), and matches each
/// alternative as FTS5 matches a phrase of the query analyser's tokens.
package struct TextCheck: Sendable, Equatable {
    /// One way a clause can be satisfied.
    package enum Alternative: Sendable, Equatable {
        /// Tokens at consecutive positions, each position any of its tokens; with `isPrefix`,
        /// the last position's tokens are prefixes.
        case phrase([[String]], isPrefix: Bool)
        /// Any of these tokens.
        case tokens([String])
        /// Any token starting with this.
        case prefix(String)
    }

    /// Alternatives of which one must hold (`isNegated`: none may).
    package struct Clause: Sendable, Equatable {
        package var alternatives: [Alternative]
        package var isNegated: Bool

        package init(_ alternatives: [Alternative], isNegated: Bool = false) {
            self.alternatives = alternatives
            self.isNegated = isNegated
        }
    }

    package var clauses: [Clause]

    package init(_ clauses: [Clause]) { self.clauses = clauses }

    // Separators of the encoded form: analysed tokens never hold a control character.
    private static let clauseSeparator: Character = "\u{1}"
    private static let alternativeSeparator: Character = "\u{2}"
    private static let positionSeparator: Character = "\u{3}"
    private static let tokenSeparator: Character = "\u{4}"

    /// The check as one string, for an SQL literal (``init(encoded:)`` reads it back).
    package var encoded: String {
        clauses.map { clause in
            (clause.isNegated ? "-" : "+")
                + clause.alternatives.map { alternative -> String in
                    switch alternative {
                    case .phrase(let positions, let isPrefix):
                        (isPrefix ? "Q" : "P")
                            + positions.map { $0.joined(separator: String(Self.tokenSeparator)) }
                            .joined(separator: String(Self.positionSeparator))
                    case .tokens(let tokens): "T" + tokens.joined(separator: String(Self.tokenSeparator))
                    case .prefix(let prefix): "R" + prefix
                    }
                }.joined(separator: String(Self.alternativeSeparator))
        }.joined(separator: String(Self.clauseSeparator))
    }

    /// Reads ``encoded``; nil when `encoded` is not such a string.
    package init?(encoded: String) {
        var clauses: [Clause] = []
        for part in encoded.split(separator: Self.clauseSeparator, omittingEmptySubsequences: false) {
            guard let sign = part.first, sign == "+" || sign == "-" else { return nil }
            var alternatives: [Alternative] = []
            for alt in part.dropFirst().split(separator: Self.alternativeSeparator, omittingEmptySubsequences: false) {
                guard let kind = alt.first else { return nil }
                let body = alt.dropFirst()
                switch kind {
                case "P", "Q":
                    let positions = body.split(separator: Self.positionSeparator, omittingEmptySubsequences: false)
                        .map { $0.split(separator: Self.tokenSeparator).map(String.init) }
                    guard !positions.isEmpty, positions.allSatisfy({ !$0.isEmpty }) else { return nil }
                    alternatives.append(.phrase(positions, isPrefix: kind == "Q"))
                case "T": alternatives.append(.tokens(body.split(separator: Self.tokenSeparator).map(String.init)))
                case "R": alternatives.append(.prefix(String(body)))
                default: return nil
                }
            }
            clauses.append(Clause(alternatives, isNegated: sign == "-"))
        }
        self.clauses = clauses
    }

    /// A document's tokens by position, as FTS5 numbers them.
    private struct Positions {
        var tokens: [[String]] = []

        init(_ text: String) {
            for t in Tokenizer.tokens(in: text, mode: .document) {
                if t.isColocated, !tokens.isEmpty {
                    tokens[tokens.count - 1].append(t.text)
                } else {
                    tokens.append([t.text])
                }
            }
        }

        func contains(_ alternative: Alternative, sets: [Set<String>]?) -> Bool {
            switch alternative {
            case .tokens(let list):
                let set = sets?.first ?? Set(list)
                return tokens.contains { $0.contains(where: set.contains) }
            case .prefix(let p):
                return tokens.contains { $0.contains { $0.utf8.starts(with: p.utf8) } }
            case .phrase(let positions, let isPrefix):
                let n = positions.count
                guard n > 0, tokens.count >= n else { return false }
                let sets = sets ?? positions.map(Set.init)
                for start in 0...(tokens.count - n) {
                    var all = true
                    for k in 0..<n {
                        let here = tokens[start + k]
                        let ok =
                            isPrefix && k == n - 1
                            ? here.contains { token in positions[k].contains { token.utf8.starts(with: $0.utf8) } }
                            : here.contains(where: sets[k].contains)
                        if !ok {
                            all = false
                            break
                        }
                    }
                    if all { return true }
                }
                return false
            }
        }
    }

    /// The check made ready for many items: each alternative's token sets built once.
    package struct Prepared {
        let check: TextCheck
        let sets: [[[Set<String>]]]

        package init(_ check: TextCheck) {
            self.check = check
            sets = check.clauses.map { clause in
                clause.alternatives.map { alternative in
                    switch alternative {
                    case .phrase(let positions, _): positions.map(Set.init)
                    case .tokens(let list): [Set(list)]
                    case .prefix: []
                    }
                }
            }
        }

        /// Whether an item whose display text is `text` and secondary text `extra` passes:
        /// every clause holds in one of the two texts (a phrase within one of them), and no
        /// negated one does.
        package func passes(text: String, extra: String) -> Bool {
            let docs = [Positions(text), Positions(extra)]
            for (c, clause) in check.clauses.enumerated() {
                let holds = clause.alternatives.indices.contains { a in
                    let sets = sets[c][a]
                    return docs.contains { $0.contains(clause.alternatives[a], sets: sets.isEmpty ? nil : sets) }
                }
                if holds == clause.isNegated { return false }
            }
            return true
        }
    }
}
