/// Splits a JSON array document into its elements' byte ranges without parsing them, so one
/// bad element is skipped alone and a truncated file keeps its complete elements.
struct SlackJSONArray {
    /// One element: its bytes and the line it starts on (1-based).
    struct Element {
        var range: Range<Int>
        var line: Int
    }

    /// The elements found, in order.
    var elements: [Element] = []
    /// The document's top level is not an array.
    var isArray = true
    /// A structural error: where, and what. Elements before it are complete.
    var error: (offset: Int, line: Int, message: String)?

    /// Scans `bytes`.
    ///
    /// - Complexity: O(n), one pass.
    init(_ bytes: [UInt8]) {
        var i = 0
        var line = 1
        let n = bytes.count
        func skipSpace() {
            while i < n {
                switch bytes[i] {
                case 0x0A:
                    line += 1
                    i += 1
                case 0x20, 0x09, 0x0D: i += 1
                default: return
                }
            }
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        skipSpace()
        guard i < n, bytes[i] == UInt8(ascii: "[") else {
            isArray = false
            error = (i, line, i < n ? "the file is not a JSON array" : "the file is empty")
            return
        }
        i += 1
        skipSpace()
        if i < n, bytes[i] == UInt8(ascii: "]") {
            i += 1
            skipSpace()
            if i < n { error = (i, line, "unexpected data after the JSON array") }
            return
        }
        while true {
            skipSpace()
            let start = i
            let startLine = line
            var depth = 0
            var inString = false
            var end: Int?
            scan: while i < n {
                let c = bytes[i]
                if inString {
                    if c == UInt8(ascii: "\\") {
                        i += 2
                        continue
                    }
                    if c == UInt8(ascii: "\"") { inString = false }
                    if c == 0x0A { line += 1 }
                    i += 1
                    continue
                }
                switch c {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 {
                        end = i
                        break scan
                    }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 {
                        end = i
                        break scan
                    }
                case 0x0A: line += 1
                default: break
                }
                i += 1
            }
            guard let stop = end else {
                error = (
                    start, startLine, "the JSON array is truncated (no closing ']'); elements before this one were kept"
                )
                return
            }
            var last = stop
            while last > start, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[last - 1]) { last -= 1 }
            if last > start { elements.append(Element(range: start..<last, line: startLine)) }
            if bytes[stop] == UInt8(ascii: ",") {
                i = stop + 1
                continue
            }
            if bytes[stop] == UInt8(ascii: "}") {
                error = (stop, line, "unbalanced '}' in the JSON array; the rest of the file was skipped")
                return
            }
            i = stop + 1
            skipSpace()
            if i < n { error = (i, line, "unexpected data after the JSON array") }
            return
        }
    }
}
