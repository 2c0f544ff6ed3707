/// A JSON syntax error with the byte offset where it was found.
package struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The byte offset of the error in the parsed input.
    package var offset: Int
    /// What is wrong, in words.
    package var message: String
    /// The message and its offset (`… at byte N`).
    package var description: String { "\(message) at byte \(offset)" }
}

/// A strict, fast JSON parser over UTF-8 bytes, producing ``JSONValue``.
///
/// Lenient where exports need it: Telegram's non-standard `\xNN` escapes decode to U+00NN;
/// invalid UTF-8 and lone surrogates become U+FFFD. Nesting deeper than `maxDepth` is an
/// error, never a stack overflow.
package struct JSONParser {
    /// The deepest nesting of arrays and objects accepted (a scalar inside counts as a level).
    package static let maxDepth = 512

    /// Parses one complete JSON document (surrounding whitespace allowed).
    package static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buf throws(JSONSyntaxError) -> JSONValue in
            var p = JSONParser(buf)
            p.skipSpace()
            let v = try p.value(depth: 0)
            p.skipSpace()
            guard p.i == buf.count else { throw p.error("unexpected data after the JSON value") }
            return v
        }
    }

    private let b: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

    private func error(_ m: String) -> JSONSyntaxError { JSONSyntaxError(offset: i, message: m) }

    private mutating func skipSpace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("JSON nested deeper than \(JSONParser.maxDepth) levels") }
        guard i < b.count else { throw error("unexpected end of JSON") }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "}") {
                i += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try string()
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
                i += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                members.append((key, v))
                skipSpace()
                guard i < b.count else { throw error("unexpected end of JSON in an object") }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if b[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(members)
                }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < b.count else { throw error("unexpected end of JSON in an array") }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if b[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(items)
                }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return .number(try number())
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { throw error("unexpected end of JSON") }
        let w = word.utf8Start
        for k in 0..<n where b[i + k] != w[k] { throw error("invalid literal") }
        i += n
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let s = i
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
            i += 1
            digits += 1
        }
        guard digits > 0 else {
            i = s
            throw error("unexpected character")
        }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[s..<i]), as: UTF8.self)
        guard let d = Double(text) else { throw error("invalid number") }
        return d
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= b.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let h = JSONParser.hexValue(b[i]) else { throw error("invalid \\u escape") }
            v = v << 4 | h
            i += 1
        }
        return v
    }

    private static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: UInt32(c - 0x30)
        case 0x41...0x46: UInt32(c - 0x41 + 10)
        case 0x61...0x66: UInt32(c - 0x61 + 10)
        default: nil
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        i += 1  // opening quote
        let start = i
        // Fast path: no escapes.
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character in a string") }
            i += 1
        }
        guard i < b.count else { throw error("unterminated string") }
        var bytes = Array(b[start..<i])
        var pendingHigh: UInt32? = nil
        func append(_ scalar: UInt32, to bytes: inout [UInt8]) {
            let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            bytes.append(contentsOf: Array(String(u).utf8))
        }
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                if pendingHigh != nil { append(0xFFFD, to: &bytes) }
                i += 1
                return String(decoding: bytes, as: UTF8.self)
            }
            if c != UInt8(ascii: "\\") {
                if c < 0x20 { throw error("control character in a string") }
                if pendingHigh != nil {
                    append(0xFFFD, to: &bytes)
                    pendingHigh = nil
                }
                bytes.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < b.count else { throw error("unterminated escape") }
            let e = b[i]
            i += 1
            var scalar: UInt32
            switch e {
            case UInt8(ascii: "\""): scalar = 0x22
            case UInt8(ascii: "\\"): scalar = 0x5C
            case UInt8(ascii: "/"): scalar = 0x2F
            case UInt8(ascii: "b"): scalar = 0x08
            case UInt8(ascii: "f"): scalar = 0x0C
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "x"):
                // Telegram: \xNN means U+00NN.
                guard i + 2 <= b.count, let h = JSONParser.hexValue(b[i]), let l = JSONParser.hexValue(b[i + 1]) else {
                    throw error("invalid \\x escape")
                }
                i += 2
                scalar = h << 4 | l
            case UInt8(ascii: "u"):
                scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    if pendingHigh != nil { append(0xFFFD, to: &bytes) }
                    pendingHigh = scalar
                    continue
                }
                if (0xDC00...0xDFFF).contains(scalar) {
                    if let high = pendingHigh {
                        scalar = 0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00)
                        pendingHigh = nil
                    } else {
                        scalar = 0xFFFD
                    }
                }
            default:
                throw error("unknown escape \\\(Character(Unicode.Scalar(e)))")
            }
            if pendingHigh != nil {
                append(0xFFFD, to: &bytes)
                pendingHigh = nil
            }
            append(scalar, to: &bytes)
        }
        throw error("unterminated string")
    }
}
