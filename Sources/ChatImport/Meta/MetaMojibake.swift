import ChatModel

/// Undoes the encoding fault of Meta's "Download your information" JSON: every UTF-8 byte
/// of a string is written as its own `\u00XX` escape, so a decoded string reads as Latin-1
/// (`CafÃ©` for `Café`, `Ã°ÂŸÂ‘Â` for 👍).
///
/// A string is repaired when every scalar is at most U+00FF and one at least U+0080: its
/// scalars, taken as bytes, are decoded as strict UTF-8. When they are not valid UTF-8 the
/// string was written correctly (`naïve`, `£5`, `Müller`) and is kept as it is. Repair
/// runs first, on the decoded string: U+0080–U+009F are continuation bytes, not junk.
enum MetaMojibake {
    /// `s` repaired, or `s` itself when it is not mojibake.
    static func repair(_ s: String) -> String {
        var hasHigh = false
        for b in s.utf8 where b >= 0x80 {
            hasHigh = true
            break
        }
        guard hasHigh else { return s }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            guard u.value <= 0xFF else { return s }
            bytes.append(UInt8(u.value))
        }
        return String(validating: bytes, as: UTF8.self) ?? s
    }

    /// Every string of `value` repaired, object keys included.
    static func repair(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let s): return .string(repair(s))
        case .array(let a): return .array(a.map(repair))
        case .object(let members): return .object(members.map { (repair($0.0), repair($0.1)) })
        default: return value
        }
    }
}
