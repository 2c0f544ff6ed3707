/// Slack's emoji short names (`:+1:`, `:seedling:`, `:wave::skin-tone-3:`) as the emoji they
/// name, from the table `.ci/emoji-table.py` generates out of iamcal/emoji-data (MIT licence).
/// A name the table does not know (a workspace's custom emoji) stays `:name:`.
enum SlackEmoji {
    /// Every short name and its emoji, read from ``tableText`` once.
    static let table: [Substring: String] = {
        var out: [Substring: String] = [:]
        for line in tableText.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            out[line[..<tab]] = String(line[line.index(after: tab)...])
        }
        return out
    }()

    /// The emoji of a short name without colons (`+1`, `thumbsup::skin-tone-2`), or `nil`.
    static func emoji(named name: String) -> String? {
        var base = Substring(name)
        var tone: Unicode.Scalar? = nil
        if let r = name.range(of: "::skin-tone-"), let n = UInt32(name[r.upperBound...]), (2...6).contains(n) {
            base = name[..<r.lowerBound]
            tone = Unicode.Scalar(0x1F3FB + n - 2)
        }
        guard var e = table[base] else { return nil }
        if let tone {
            // The modifier follows the base emoji (its presentation selector, if any, gives way).
            var scalars = String.UnicodeScalarView(e.unicodeScalars.filter { $0.value != 0xFE0F })
            if let first = scalars.first {
                scalars = String.UnicodeScalarView([first, tone] + scalars.dropFirst())
            }
            e = String(scalars)
        }
        return e
    }

    /// `chars` with every `:name:` the table knows replaced by its emoji.
    static func replacingShortcodes(_ chars: [Character]) -> [Character] {
        guard chars.contains(":") else { return chars }
        var out: [Character] = []
        out.reserveCapacity(chars.count)
        var i = 0
        while i < chars.count {
            if chars[i] == ":", let end = closing(chars, from: i + 1) {
                var name = String(chars[(i + 1)..<end])
                var next = end + 1
                // `:wave::skin-tone-3:`: the tone is a second short name right after the first.
                if next < chars.count, chars[next] == ":", let toneEnd = closing(chars, from: next + 1),
                    String(chars[(next + 1)..<toneEnd]).hasPrefix("skin-tone-")
                {
                    name += "::" + String(chars[(next + 1)..<toneEnd])
                    next = toneEnd + 1
                }
                if let e = emoji(named: name) {
                    out.append(contentsOf: e)
                    i = next
                    continue
                }
            }
            out.append(chars[i])
            i += 1
        }
        return out
    }

    /// The index of the `:` that closes a short name starting at `start`, or `nil`.
    private static func closing(_ chars: [Character], from start: Int) -> Int? {
        var j = start
        while j < chars.count, j - start <= 64 {
            let c = chars[j]
            if c == ":" { return j > start ? j : nil }
            guard c.isASCII, c.isLetter || c.isNumber || c == "_" || c == "+" || c == "-" else { return nil }
            j += 1
        }
        return nil
    }
}
