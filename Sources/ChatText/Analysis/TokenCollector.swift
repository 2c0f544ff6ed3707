/// Collects tokens and converts byte offsets to UTF-16 offsets with a moving cursor
/// (tokens arrive almost in order, so the whole conversion is one pass).
final class TokenCollector {
    var cursor: UTF16Cursor
    var tokens: [AnalyzedToken] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        cursor = UTF16Cursor(bytes: bytes)
    }

    func add(token: UnsafePointer<UInt8>?, length: Int, start: Int, end: Int, isColocated: Bool) {
        let text = token.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
        let lower = cursor.utf16Offset(ofByte: start)
        let upper = max(lower, cursor.utf16Offset(ofByte: end))
        tokens.append(AnalyzedToken(text: text, utf16Range: lower..<upper, isColocated: isColocated))
    }
}

/// Converts UTF-8 byte offsets of a text to UTF-16 offsets, moving from the last answer.
struct UTF16Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var bytePosition = 0
    var utf16Position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func utf16Offset(ofByte target: Int) -> Int {
        let target = min(max(target, 0), bytes.count)
        while bytePosition < target {
            let byte = bytes[bytePosition]
            if byte & 0xC0 != 0x80 { utf16Position += byte >= 0xF0 ? 2 : 1 }
            bytePosition += 1
        }
        while bytePosition > target {
            bytePosition -= 1
            let byte = bytes[bytePosition]
            if byte & 0xC0 != 0x80 { utf16Position -= byte >= 0xF0 ? 2 : 1 }
        }
        return utf16Position
    }
}
