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
/// corpus size.
final class JSONLSink {
    private var buffer: [UInt8] = []
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
        buffer.reserveCapacity(chunk + 64 * 1024)
    }

    deinit { fclose(file) }

    @inline(__always) func byte(_ b: UInt8) {
        buffer.append(b)
    }

    @inline(__always) func raw(_ s: StaticString) {
        s.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    @inline(__always) func raw(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    func rawString(_ s: String) {
        buffer.append(contentsOf: s.utf8)
    }

    /// Appends a non-negative or negative integer in decimal.
    func int(_ value: Int) {
        var v = value
        if v < 0 {
            buffer.append(UInt8(ascii: "-"))
            v = -v
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(48 + v % 10)
                v /= 10
                n += 1
            } while v > 0
            while n > 0 {
                n -= 1
                buffer.append(d[n])
            }
        }
    }

    /// Appends `n` in decimal, zero-padded to `width` digits.
    @inline(__always) func padded(_ n: Int, _ width: Int) {
        var div = 1
        for _ in 1..<width { div *= 10 }
        var v = n
        while div > 0 {
            buffer.append(UInt8(48 + (v / div) % 10))
            v %= div
            div /= 10
        }
    }

    /// Appends UTF-8 bytes as a JSON string literal.
    func string(_ bytes: [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var clean = true
        for b in bytes where b < 0x20 || b == 0x22 || b == 0x5C {
            clean = false
            break
        }
        if clean {
            buffer.append(contentsOf: bytes)
        } else {
            for b in bytes {
                switch b {
                case 0x22: raw("\\\"")
                case 0x5C: raw("\\\\")
                case 0x0A: raw("\\n")
                case 0..<0x20:
                    raw("\\u00")
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    buffer.append(hex[Int(b >> 4)])
                    buffer.append(hex[Int(b & 15)])
                default: buffer.append(b)
                }
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    func string(_ s: String) {
        string(Array(s.utf8))
    }

    /// Writes the buffer out once it is bigger than a chunk.
    @inline(__always) func flushIfNeeded() throws {
        if buffer.count >= chunk { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        let n = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard n == buffer.count else {
            throw CorpusWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        bytesWritten += n
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        guard fflush(file) == 0 else {
            throw CorpusWriteError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
