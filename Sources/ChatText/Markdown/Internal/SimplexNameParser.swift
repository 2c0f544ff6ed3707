import ChatModel

/// SimpleX names (<doc:MarkdownGrammar>): `#name`, `#a.b.simplex`, `@name.tld`.
enum SimplexNameParser {
    /// The name info of `b` (the name without sigil or trailing punctuation), or nil.
    static func parse(_ b: UnsafeBufferPointer<UInt8>, isGroup: Bool) -> SimplexNameInfo? {
        let n = b.count
        guard n >= 1, n <= 253 else { return nil }
        var labels: [Range<Int>] = []
        var start = 0
        for k in 0...n where k == n || b[k] == UInt8(ascii: ".") {
            labels.append(start..<k)
            start = k + 1
        }
        guard isGroup || labels.count >= 2 else { return nil }
        let names = labels.map { lowercased(b, $0) }
        let last = names[names.count - 1]
        let hasSimplexTLD = labels.count >= 2 && (last == "simplex" || last == "testing")
        for (index, label) in labels.enumerated() {
            if isLabel(b, label) { continue }
            if hasSimplexTLD, index == labels.count - 2, isBracketKey(b, label) { continue }
            return nil
        }
        let nameType: SimplexNameInfo.NameType = isGroup ? .publicGroup : .contact
        if labels.count == 1 {
            return SimplexNameInfo(nameType: nameType, nameTLD: "simplex", domain: names[0], subDomain: [])
        }
        if hasSimplexTLD {
            return SimplexNameInfo(
                nameType: nameType, nameTLD: last, domain: names[names.count - 2],
                subDomain: names[..<(names.count - 2)].reversed())
        }
        return SimplexNameInfo(nameType: nameType, nameTLD: "web", domain: names.joined(separator: "."), subDomain: [])
    }

    /// 1–63 ASCII letters or digits, joined by single inner hyphens.
    private static func isLabel(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count >= 1, r.count <= 63, b[r.lowerBound] != UInt8(ascii: "-"),
            b[r.upperBound - 1] != UInt8(ascii: "-")
        else { return false }
        var previousHyphen = false
        for k in r {
            let c = b[k]
            if c == UInt8(ascii: "-") {
                if previousHyphen { return false }
                previousHyphen = true
            } else {
                guard MarkdownCharacters.isAlphaNumeric(c) else { return false }
                previousHyphen = false
            }
        }
        return true
    }

    /// `[` + 64 hex digits + `]`.
    private static func isBracketKey(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count == 66, b[r.lowerBound] == UInt8(ascii: "["), b[r.upperBound - 1] == UInt8(ascii: "]")
        else { return false }
        return (r.lowerBound + 1..<r.upperBound - 1).allSatisfy { MarkdownCharacters.isHexDigit(b[$0]) }
    }

    private static func lowercased(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String {
        String(decoding: b[r].lazy.map { MarkdownCharacters.isLetter($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
