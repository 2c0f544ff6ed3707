import ChatModel
import ChatText

/// The searchable form of a member's names, for mention autocomplete.
package enum MemberNames {
    /// Every word of the member's names, folded as the analyser folds text, each after a
    /// newline (`"\nzoe\nsmith"`), then the words of their ASCII transliterations where those
    /// differ (`Дмитрий` adds `dmitrij`). A word-prefix match is `instr(searchKey, "\n" + q)`;
    /// a substring match inside a word is `instr(searchKey, q)`.
    package static func searchKey(_ names: String...) -> String {
        var words: [String] = []
        var seen = Set<String>()
        func add(_ text: String) {
            for w in split(TextNormalizer.normalize(text)) where seen.insert(w).inserted { words.append(w) }
        }
        for n in names where !n.isEmpty { add(n) }
        for n in names where !n.isEmpty && !n.utf8.allSatisfy({ $0 < 0x80 }) {
            add(TextNormalizer.transliterate(n))
        }
        return words.map { "\n" + $0 }.joined()
    }

    /// ``searchKey(_:)`` of a member's display name, full name and local alias.
    package static func searchKey(_ m: Member) -> String { searchKey(m.displayName, m.fullName, m.localAlias) }

    /// Words of folded text: runs of letters, digits and marks (`anne-marie` is `anne`, `marie`).
    static func split(_ folded: String) -> [String] {
        var out: [String] = []
        var current = String.UnicodeScalarView()
        for u in folded.unicodeScalars {
            if u.properties.isAlphabetic || u.properties.numericType != nil
                || u.properties.generalCategory == .nonspacingMark
                || u.properties.generalCategory == .spacingMark || u.properties.isEmojiPresentation
            {
                current.append(u)
            } else if !current.isEmpty {
                out.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { out.append(String(current)) }
        return out
    }
}
