/// JSON text kept as it is (a span's format, stored as SimpleX's tagged object), written
/// verbatim by an encoder that can, and as its parsed value by any other.
package struct RawJSON: Encodable, Sendable, Hashable {
    /// The JSON text.
    package var text: String

    /// Wraps JSON text (it is not checked here: an encoder that parses it writes `null` for text
    /// that is not JSON).
    package init(_ text: String) { self.text = text }

    package func encode(to encoder: any Encoder) throws {
        if let raw = encoder as? any RawJSONWriting {
            raw.writeRawJSON(text)
            return
        }
        let value = (try? JSONParser.parse(Array(text.utf8))) ?? .null
        try value.encode(to: encoder)
    }
}

/// An encoder that writes JSON text and can take ready-made JSON (``RawJSON``) as a value.
package protocol RawJSONWriting: Encoder {
    /// Writes `text` as the current value, unchanged.
    func writeRawJSON(_ text: String)
}

extension JSONValue: Encodable {
    /// Encodes the value as the JSON it is: numbers without a fraction as integers, object
    /// members in their order.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if n == n.rounded(), abs(n) < 9.0e15 { try c.encode(Int64(n)) } else { try c.encode(n) }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let members):
            var c = encoder.container(keyedBy: JSONKey.self)
            for (k, v) in members { try c.encode(v, forKey: JSONKey(k)) }
        }
    }
}

/// A coding key that is any string: an object's member names as they come.
package struct JSONKey: CodingKey, Hashable, Sendable {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(_ name: String) { stringValue = name }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { stringValue = String(intValue) }
}
