import ChatText

/// The searchable forms of chat and member names.
package enum ChatNames {
    /// Normalised names joined by newlines: what chat-list search matches as a substring.
    package static func key(_ names: String...) -> String {
        names.map { TextNormalizer.normalize($0) }.joined(separator: "\n")
    }

    /// Loose ASCII transliterations of the names (`Дмитрий` → `dmitrij`), for matches ranked
    /// after direct ones.
    package static func transliterationKey(_ names: String...) -> String {
        names.map { $0.isEmpty ? "" : TextNormalizer.normalize(TextNormalizer.transliterate($0)) }.joined(
            separator: "\n")
    }
}
