#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A low-level zip reading failure, wrapped into an ``ImportError`` naming the zip and entry.
struct ZipError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
    static func zlib(_ message: String) -> ZipError { ZipError(message: message) }
}

/// An open zip file read with `pread`, shared by the container and its entry streams.
final class ZipFile: @unchecked Sendable {
    private let fd: Int32
    let size: Int64

    init(path: String) throws(ZipError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ZipError(message: "cannot open: \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            throw ZipError(message: "cannot stat: \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.size = Int64(st.st_size)
    }

    deinit { close(fd) }

    /// Reads exactly `count` bytes at `offset`, or throws when the file ends first.
    func read(at offset: Int64, count: Int) throws(ZipError) -> [UInt8] {
        guard count > 0 else { return [] }
        guard offset >= 0, offset + Int64(count) <= size else {
            throw ZipError(
                message: "the zip is truncated (needs bytes \(offset)..<\(offset + Int64(count)) of \(size))")
        }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        var failure: Int32 = 0
        out.withUnsafeMutableBytes { buf in
            while done < count, let base = buf.baseAddress {
                let n = pread(fd, base + done, count - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { return }
                done += n
            }
        }
        if failure != 0 { throw ZipError(message: "read error: \(String(cString: strerror(failure)))") }
        guard done == count else { throw ZipError(message: "the zip is truncated at byte \(offset + Int64(done))") }
        return out
    }
}

/// Little-endian field access on a byte array.
extension Array where Element == UInt8 {
    func le16(_ at: Int) -> UInt16 {
        guard at + 2 <= count else { return 0 }
        return UInt16(self[at]) | UInt16(self[at + 1]) << 8
    }
    func le32(_ at: Int) -> UInt32 {
        guard at + 4 <= count else { return 0 }
        return UInt32(le16(at)) | UInt32(le16(at + 2)) << 16
    }
    func le64(_ at: Int) -> UInt64 {
        guard at + 8 <= count else { return 0 }
        return UInt64(le32(at)) | UInt64(le32(at + 4)) << 32
    }
}
