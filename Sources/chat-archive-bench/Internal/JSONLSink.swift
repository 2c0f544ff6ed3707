import ChatModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the corpus could not be written.
struct CorpusWriteError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "cannot write corpus to \(path): \(reason)" }
}

/// A buffered byte writer over `fopen`/`fwrite`: memory stays at one chunk whatever the
/// corpus size. Strings are escaped by ChatModel's `JSONBytes`, the package's one escaping.
final class JSONLSink {
    private var buffer: JSONBytes
    private let file: UnsafeMutablePointer<FILE>
    private let path: String
    private let chunk = 1 << 20
    /// Bytes handed to the file so far (flushed or buffered).
    private(set) var bytesWritten = 0

    init(path: String) throws {
        guard let f = fopen(path, "wb") else {
            throw CorpusWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        file = f
        self.path = path
        buffer = JSONBytes(capacity: chunk + 64 * 1024)
    }

    deinit { fclose(file) }

    @inline(__always) func byte(_ b: UInt8) { buffer.byte(b) }

    @inline(__always) func raw(_ s: StaticString) { buffer.raw(s) }

    @inline(__always) func raw(_ bytes: [UInt8]) { buffer.raw(bytes) }

    func rawString(_ s: String) { buffer.json(s) }

    /// Appends an integer in decimal.
    func int(_ value: Int) { buffer.int(value) }

    /// Appends `n` in decimal, zero-padded to `width` digits.
    @inline(__always) func padded(_ n: Int, _ width: Int) { buffer.digits(n, width) }

    /// Appends UTF-8 bytes as a JSON string literal.
    func string(_ bytes: [UInt8]) { buffer.string(utf8: bytes) }

    func string(_ s: String) { buffer.string(s) }

    /// Writes the buffer out once it is bigger than a chunk.
    @inline(__always) func flushIfNeeded() throws {
        if buffer.bytes.count >= chunk { try flush() }
    }

    func flush() throws {
        guard !buffer.bytes.isEmpty else { return }
        let n = buffer.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard n == buffer.bytes.count else {
            throw CorpusWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        bytesWritten += n
        buffer.removeAll()
    }

    func close() throws {
        try flush()
        guard fflush(file) == 0 else {
            throw CorpusWriteError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
