import CZlib

// The only file that talks to zlib: every `Unsafe*Pointer` of the zip reader lives here.

/// A raw-deflate decompressor (no zlib or gzip header), as zip's method 8 stores data.
///
/// zlib checks that a stream keeps its address, so the `z_stream` lives in its own allocation.
final class RawInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var isOpen = false

    init() throws(ZipError) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let rc = inflateInit2_(stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw ZipError.zlib("inflateInit2 failed (\(rc))")
        }
        isOpen = true
    }

    deinit {
        if isOpen { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates from `input[inputOffset...]`, appending at most `maxOutput` bytes to `output`.
    ///
    /// Returns how many input bytes were consumed and whether the deflate stream ended.
    func inflate(
        _ input: [UInt8], from inputOffset: Int, into output: inout [UInt8], maxOutput: Int
    ) throws(ZipError) -> (consumed: Int, finished: Bool) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: maxOutput))
        var rc: Int32 = Z_OK
        var consumed = 0
        var produced = 0
        input.withUnsafeBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                let available = inBuf.count - inputOffset
                stream.pointee.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress.map { $0 + inputOffset })
                stream.pointee.avail_in = UInt32(clamping: available)
                stream.pointee.next_out = outBuf.baseAddress.map { $0 + start }
                stream.pointee.avail_out = UInt32(clamping: maxOutput)
                rc = CZlib.inflate(stream, Z_NO_FLUSH)
                consumed = min(available, Int(UInt32(clamping: available)) - Int(stream.pointee.avail_in))
                produced = maxOutput - Int(stream.pointee.avail_out)
                // zlib keeps no pointer into our buffers between calls.
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
            }
        }
        output.removeSubrange((start + produced)...)
        switch rc {
        case Z_OK: return (consumed, false)
        case Z_STREAM_END: return (consumed, true)
        case Z_BUF_ERROR: return (consumed, false)  // no progress possible: caller feeds more input
        case Z_DATA_ERROR: throw ZipError.zlib("invalid deflate data")
        case Z_MEM_ERROR: throw ZipError.zlib("out of memory while inflating")
        default: throw ZipError.zlib("inflate failed (\(rc))")
        }
    }
}

/// Updates a CRC-32 (the zip polynomial) with `bytes`.
package func zipCRC32(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { buf in
        guard let base = buf.baseAddress, !buf.isEmpty else { return crc }
        return UInt32(truncatingIfNeeded: crc32(UInt(crc), base, UInt32(buf.count)))
    }
}

/// Compresses `bytes` as raw deflate (for tests that build zips).
package func rawDeflate(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
    guard
        deflateInit2_(
            stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return nil }
    defer { deflateEnd(stream) }
    let bound = Int(deflateBound(stream, UInt(bytes.count))) + 64
    var out = [UInt8](repeating: 0, count: bound)
    var input = bytes
    let rc = input.withUnsafeMutableBufferPointer { inBuf in
        out.withUnsafeMutableBufferPointer { outBuf in
            stream.pointee.next_in = inBuf.baseAddress
            stream.pointee.avail_in = UInt32(inBuf.count)
            stream.pointee.next_out = outBuf.baseAddress
            stream.pointee.avail_out = UInt32(outBuf.count)
            let rc = deflate(stream, Z_FINISH)
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
            return rc
        }
    }
    guard rc == Z_STREAM_END else { return nil }
    out.removeSubrange(Int(stream.pointee.total_out)...)
    return out
}
