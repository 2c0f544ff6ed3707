/// FNV-1a 64-bit over explicit bytes: stable across processes and runs (unlike `hashValue`),
/// and byte-exact (unlike `String ==`, which treats canonically equivalent strings as equal).
struct StableHasher {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ s: String) {
        var s = s
        // Over the contiguous UTF-8 buffer: iterating the string's view byte by byte costs
        // several times as much (<doc:WritePerformance>).
        var v = value
        s.withUTF8 { bytes in
            for b in bytes {
                v = (v ^ UInt64(b)) &* 0x100_0000_01b3
            }
        }
        value = (v ^ 0xFF) &* 0x100_0000_01b3
    }

    mutating func combine(_ s: String?) {
        if let s { combine(s) } else { combine(Int64.min) }
    }

    mutating func combine(_ n: Int64) {
        var v = value
        var x = UInt64(bitPattern: n)
        for _ in 0..<8 {
            v = (v ^ (x & 0xFF)) &* 0x100_0000_01b3
            x >>= 8
        }
        value = v
    }

    mutating func combine(_ b: Bool) { combine(b ? Int64(1) : Int64(0)) }

    var signed: Int64 { Int64(bitPattern: value) }
}
