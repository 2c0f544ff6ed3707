/// A JSON document written as UTF-8 bytes by hand-written code, for the result types the CLI
/// and the web app write most (chat-list pages, search pages, item windows).
///
/// It writes the same bytes as the types' `Encodable` conformances through
/// ``JSONStreamEncoder`` (members in the same order, strings escaped by the same rules),
/// without coding keys, containers or intermediate strings, which took most of an API
/// answer's time. Tests compare the two byte for byte.
package struct JSONBytes {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty document with room for `capacity` bytes.
    package init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    /// The document as a string.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends JSON punctuation or a member's key, written as it stands.
    package mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `s` as a string literal: `"`, `\\`, `\n`, `\r`, `\t` and the other control
    /// characters escaped, and U+2028 and U+2029 (line ends in JavaScript source). Every JSON
    /// string the package writes is escaped here.
    package mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { string(utf8: $0) }
    }

    /// Appends UTF-8 bytes as a string literal, escaped as `string(_:)` escapes them.
    package mutating func string(utf8 bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { string(utf8: $0) }
    }

    private mutating func string(utf8 b: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        do {
            var runStart = 0
            var i = 0
            while i < b.count {
                let c = b[i]
                if c >= 0x20 && c != 0x22 && c != 0x5C && c != 0xE2 {
                    i += 1
                    continue
                }
                var width = 1
                let escape: StaticString
                switch c {
                case 0x22: escape = "\\\""
                case 0x5C: escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0xE2 where i + 2 < b.count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9):
                    // U+2028 and U+2029: valid in JSON, but line ends in JavaScript source.
                    escape = b[i + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    width = 3
                case 0xE2:
                    i += 1
                    continue
                default:
                    if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<i])) }
                    raw("\\u00")
                    bytes.append(Self.hex(c >> 4))
                    bytes.append(Self.hex(c & 0xF))
                    i += 1
                    runStart = i
                    continue
                }
                if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<i])) }
                raw(escape)
                i += width
                runStart = i
            }
            if b.count > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<b.count])) }
        }
        bytes.append(0x22)
    }

    /// Appends one byte as it stands.
    package mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// Appends bytes as they stand (JSON written elsewhere, or text known to need no escaping).
    package mutating func raw(_ b: [UInt8]) { bytes.append(contentsOf: b) }

    /// Empties the document, keeping its capacity (for a writer that flushes it in chunks).
    package mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Appends `s` as a string literal, or `null`.
    package mutating func string(_ s: String?) {
        if let s { string(s) } else { raw("null") }
    }

    /// Appends `true` or `false`.
    package mutating func bool(_ v: Bool) { v ? raw("true") : raw("false") }

    /// Appends an integer in decimal.
    package mutating func int(_ v: some BinaryInteger) {
        let n = Int64(v)
        if n < 0 { bytes.append(0x2D) }
        var m = n.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var k = 20
            repeat {
                k -= 1
                buffer[k] = UInt8(0x30 + m % 10)
                m /= 10
            } while m > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[k...]))
        }
    }

    /// Appends an integer, or `null`.
    package mutating func int(_ v: (some BinaryInteger)?) {
        if let v { int(v) } else { raw("null") }
    }

    /// Appends a timestamp as its RFC 3339 UTC string (``Timestamp/rfc3339``).
    package mutating func time(_ t: Timestamp) {
        let c = t.components
        bytes.append(0x22)
        if c.year < 0 || c.year > 9999 {
            // Outside four digits: the general form, as `rfc3339` writes it.
            bytes.append(contentsOf: t.rfc3339.utf8)
            bytes.append(0x22)
            return
        }
        digits(c.year, 4)
        bytes.append(0x2D)
        digits(c.month, 2)
        bytes.append(0x2D)
        digits(c.day, 2)
        bytes.append(0x54)
        digits(c.hour, 2)
        bytes.append(0x3A)
        digits(c.minute, 2)
        bytes.append(0x3A)
        digits(c.second, 2)
        if c.millisecond != 0 {
            bytes.append(0x2E)
            digits(c.millisecond, 3)
        }
        bytes.append(0x5A)
        bytes.append(0x22)
    }

    /// Appends a timestamp's string, or `null`.
    package mutating func time(_ t: Timestamp?) {
        if let t { time(t) } else { raw("null") }
    }

    /// Appends JSON text that is already valid, as it stands.
    package mutating func json(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Appends `[` the elements `,` separated `]`.
    package mutating func array<S: Sequence>(_ elements: S, _ write: (inout JSONBytes, S.Element) -> Void) {
        raw("[")
        var first = true
        for e in elements {
            if !first { raw(",") }
            first = false
            write(&self, e)
        }
        raw("]")
    }

    /// A cell of ``rows(_:_:)``.
    package enum Cell {
        case int(Int64)
        case string(String)
    }

    /// Appends an array of arrays, `[[a, b, …], …]`, each element's `cells`: the rows that one
    /// statement reads with `json_each` (a writer's batch of updates).
    package mutating func rows<S: Sequence>(_ elements: S, _ cells: (S.Element) -> [Cell]) {
        array(elements) { o, e in
            o.array(cells(e)) { o, cell in
                switch cell {
                case .int(let v): o.int(v)
                case .string(let v): o.string(v)
                }
            }
        }
    }

    /// Appends `n` (0 ≤ n < 10^width) in `width` digits, zero-padded.
    package mutating func digits(_ n: Int, _ width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var n = n
        while divisor > 0 {
            bytes.append(UInt8(0x30 + (n / divisor) % 10))
            n %= divisor
            divisor /= 10
        }
    }

    private static func hex(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }
}

/// A result type that writes its JSON with ``JSONBytes``: the same bytes as its `Encodable`
/// conformance written by ``JSONStreamEncoder``.
package protocol JSONBytesWritable {
    /// Appends this value's JSON.
    func write(to out: inout JSONBytes)
}
