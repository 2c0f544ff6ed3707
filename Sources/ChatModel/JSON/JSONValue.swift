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
        var out = JSONBytes(capacity: 256)
        write(to: &out)
        return out.text
    }

    /// Appends the compact JSON text of this value to `out`.
    package func write(to out: inout String) { out += jsonText }

    /// Appends the compact JSON text of this value to `out`.
    package func write(to out: inout JSONBytes) {
        switch self {
        case .null: out.raw("null")
        case .bool(let b): out.bool(b)
        case .number(let n):
            if n == n.rounded(), abs(n) < 9.0e15 { out.int(Int64(n)) } else { out.json(String(n)) }
        case .string(let s): out.string(s)
        case .array(let a):
            out.raw("[")
            for (k, v) in a.enumerated() {
                if k > 0 { out.raw(",") }
                v.write(to: &out)
            }
            out.raw("]")
        case .object(let o):
            out.raw("{")
            for (k, (key, v)) in o.enumerated() {
                if k > 0 { out.raw(",") }
                out.string(key)
                out.raw(":")
                v.write(to: &out)
            }
            out.raw("}")
        }
    }

    /// Appends `s` as a JSON string literal, escaped as ``JSONBytes/string(_:)-(String)`` escapes
    /// (the one escaping of every JSON the package writes).
    package static func writeString(_ s: String, to out: inout String) {
        var o = JSONBytes(capacity: s.utf8.count + 8)
        o.string(s)
        out += o.text
    }
}
