/// Any JSON value, kept as it was read (for `unknown` formats and raw records).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (every JSON number is read as a `Double`).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in the order read (duplicate keys kept).
    case object([(String, JSONValue)])

    /// Structural equality; object members compare in order.
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Hashes consistently with `==`.
    public func hash(into h: inout Hasher) {
        switch self {
        case .null: h.combine(0)
        case .bool(let v): h.combine(v)
        case .number(let v): h.combine(v)
        case .string(let v): h.combine(v)
        case .array(let v): h.combine(v)
        case .object(let v):
            for (k, x) in v {
                h.combine(k)
                h.combine(x)
            }
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members.first(where: { $0.0 == key })?.1 }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number, when this is a number.
    public var numberValue: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Compact JSON text of this value, keys in their stored order.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the compact JSON text of this value to `out`.
    package func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            if n == n.rounded(), abs(n) < 9.0e15 { out += String(Int64(n)) } else { out += String(n) }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let a):
            out += "["
            for (k, v) in a.enumerated() {
                if k > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (k, (key, v)) in o.enumerated() {
                if k > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                v.write(to: &out)
            }
            out += "}"
        }
    }

    /// Appends `s` as a JSON string literal.
    package static func writeString(_ s: String, to out: inout String) {
        out += "\""
        var s = s
        // Runs of bytes that need no escape are appended whole (a scalar at a time cost about
        // half of a chat list's encoding).
        s.withUTF8 { b in
            var runStart = 0
            var i = 0
            func flush(upTo end: Int) {
                if end > runStart {
                    out += String(decoding: UnsafeBufferPointer(rebasing: b[runStart..<end]), as: UTF8.self)
                }
            }
            while i < b.count {
                let c = b[i]
                let escape: String
                var width = 1
                switch c {
                case 0x22: escape = "\\\""
                case 0x5C: escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0..<0x20: escape = "\\u00" + hexDigit(c >> 4) + hexDigit(c & 0xF)
                case 0xE2 where i + 2 < b.count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9):
                    // U+2028 and U+2029: valid in JSON, but line ends in JavaScript source.
                    escape = b[i + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    width = 3
                default:
                    i += 1
                    continue
                }
                flush(upTo: i)
                out += escape
                i += width
                runStart = i
            }
            flush(upTo: b.count)
        }
        out += "\""
    }

    private static func hexDigit(_ v: UInt8) -> String {
        String(UnicodeScalar(v < 10 ? 0x30 + v : 0x57 + v))
    }
}
