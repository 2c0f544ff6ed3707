/// Splits a byte stream into lines on 0x0A, dropping one trailing 0x0D, with line numbers and
/// byte offsets. Memory is bounded by the longest line (lines over `maxLineBytes` are reported
/// truncated and skipped).
package struct LineReader {
    package struct Line {
        package var bytes: ArraySlice<UInt8>
        /// 1-based line number.
        package var number: Int
        /// Offset of the line's first byte.
        package var offset: Int64
        /// The line was longer than the limit; `bytes` holds its start only.
        package var isTruncated: Bool
    }

    private let stream: ByteStream
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    private var consumed: Int64 = 0
    package let maxLineBytes: Int
    package private(set) var bytesRead: Int64 = 0

    package init(_ stream: ByteStream, maxLineBytes: Int = 64 << 20) {
        self.stream = stream
        self.maxLineBytes = maxLineBytes
    }

    package mutating func next() throws -> Line? {
        var searchFrom = start
        var truncated = false
        var dropped: Int64 = 0
        while true {
            if let nl = buffer[searchFrom...].firstIndex(of: 0x0A) {
                var end = nl
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                lineNumber += 1
                let line = Line(
                    bytes: buffer[start..<end], number: lineNumber, offset: consumed, isTruncated: truncated)
                consumed += Int64(nl + 1 - start) + dropped
                start = nl + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                var end = buffer.count
                if buffer[end - 1] == 0x0D { end -= 1 }
                lineNumber += 1
                let line = Line(
                    bytes: buffer[start..<end], number: lineNumber, offset: consumed, isTruncated: truncated)
                consumed += Int64(buffer.count - start) + dropped
                start = buffer.count
                return line
            }
            if buffer.count - start > maxLineBytes {
                // Keep the head, drop the rest of this overlong line as it streams past.
                truncated = true
                dropped += Int64(buffer.count - (start + 1024))
                buffer.removeSubrange((start + 1024)..<buffer.count)
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            searchFrom = buffer.count
            let chunk = try stream.read(maxLength: 1 << 20)
            bytesRead += Int64(chunk.count)
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
