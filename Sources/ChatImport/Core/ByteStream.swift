#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sequential source of bytes: a file, or an entry of a zip.
package protocol ByteStream: AnyObject {
    /// Reads up to `maxLength` bytes; an empty array means the end.
    func read(maxLength: Int) throws -> [UInt8]
    /// Total size when known (for progress).
    var totalBytes: Int64? { get }
}

/// Reads a file through stdio in large chunks.
package final class FileByteStream: ByteStream {
    private let file: UnsafeMutablePointer<FILE>
    package let path: String
    package let totalBytes: Int64?

    package init(path: String) throws {
        guard let f = fopen(path, "rb") else {
            throw ImportError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var st = stat()
        if fstat(fileno(f), &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            fclose(f)
            throw ImportError("\(path) is a folder, not a file")
        }
        file = f
        self.path = path
        totalBytes = fstat(fileno(f), &st) == 0 ? Int64(st.st_size) : nil
    }

    deinit { fclose(file) }

    package func read(maxLength: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: maxLength)
        let n = out.withUnsafeMutableBytes { fread($0.baseAddress, 1, maxLength, file) }
        if n < maxLength {
            if ferror(file) != 0 { throw ImportError("read error in \(path)") }
            out.removeSubrange(n...)
        }
        return out
    }
}

/// Bytes already in memory.
package final class MemoryByteStream: ByteStream {
    private let bytes: [UInt8]
    private var position = 0
    package var totalBytes: Int64? { Int64(bytes.count) }
    package init(_ bytes: [UInt8]) { self.bytes = bytes }
    package func read(maxLength: Int) throws -> [UInt8] {
        let n = min(maxLength, bytes.count - position)
        defer { position += n }
        return Array(bytes[position..<(position + n)])
    }
}

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
