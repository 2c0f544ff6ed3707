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
