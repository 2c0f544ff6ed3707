import CChatICU

/// Short pieces of name keys, as the archive's SQL function `member_short_grams` computes them
/// (one C implementation for both), for a writer that adds them without a statement per member.
package enum NamePieces {
    /// The distinct one- and two-character pieces of `searchKey` and `nameKey` (none holding a
    /// newline) and the word starts of `searchKey` (`"\nzo"`), sorted by their bytes.
    package static func memberShortGrams(searchKey: String, nameKey: String) -> [String] {
        var search = searchKey
        var name = nameKey
        return search.withUTF8 { s in
            name.withUTF8 { n -> [String] in
                guard s.count < Int(Int32.max), n.count < Int(Int32.max) else { return [] }
                var out: UnsafeMutablePointer<UInt8>?
                var length: Int32 = 0
                let rc = cchaticu_member_short_grams(
                    s.baseAddress, Int32(s.count), n.baseAddress, Int32(n.count), &out, &length)
                guard rc == 0, let out else { return [] }
                defer { cchaticu_free(out) }
                return UnsafeBufferPointer(start: out, count: Int(length)).split(
                    separator: 0, omittingEmptySubsequences: true
                ).map { String(decoding: $0, as: UTF8.self) }
            }
        }
    }
}
