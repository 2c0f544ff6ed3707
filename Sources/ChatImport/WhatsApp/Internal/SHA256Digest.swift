/// SHA-256 (FIPS 180-4) over bytes, for item keys that must be stable across processes.
///
/// Written here because the package links no crypto library; item keys hash a few hundred
/// bytes each, so a plain implementation is fast enough.
struct SHA256Digest {
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var h: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() {}

    /// Adds bytes to the message.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        for b in bytes {
            pending.append(b)
            length &+= 1
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Adds a string's UTF-8 bytes.
    mutating func update(_ text: String) { update(text.utf8) }

    /// Finishes and returns the 32-byte digest.
    mutating func finish() -> [UInt8] {
        let bitLength = length &* 8
        pending.append(0x80)
        if pending.count > 56 {
            while pending.count < 64 { pending.append(0) }
            compress(pending)
            pending.removeAll(keepingCapacity: true)
        }
        while pending.count < 56 { pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        compress(pending)
        pending.removeAll()
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in h {
            out.append(UInt8(truncatingIfNeeded: word >> 24))
            out.append(UInt8(truncatingIfNeeded: word >> 16))
            out.append(UInt8(truncatingIfNeeded: word >> 8))
            out.append(UInt8(truncatingIfNeeded: word))
        }
        return out
    }

    /// The lower-case hex digest of `bytes`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var s = SHA256Digest()
        s.update(bytes)
        return hexString(s.finish())
    }

    static func hexString(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    private mutating func compress(_ block: [UInt8]) {
        var w = [UInt32](repeating: 0, count: 64)
        for t in 0..<16 {
            w[t] =
                UInt32(block[t * 4]) << 24 | UInt32(block[t * 4 + 1]) << 16 | UInt32(block[t * 4 + 2]) << 8
                | UInt32(block[t * 4 + 3])
        }
        for t in 16..<64 {
            let s0 = SHA256Digest.rotr(w[t - 15], 7) ^ SHA256Digest.rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = SHA256Digest.rotr(w[t - 2], 17) ^ SHA256Digest.rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var a = h[0]
        var b = h[1]
        var c = h[2]
        var d = h[3]
        var e = h[4]
        var f = h[5]
        var g = h[6]
        var hh = h[7]
        for t in 0..<64 {
            let s1 = SHA256Digest.rotr(e, 6) ^ SHA256Digest.rotr(e, 11) ^ SHA256Digest.rotr(e, 25)
            let ch = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ ch &+ SHA256Digest.k[t] &+ w[t]
            let s0 = SHA256Digest.rotr(a, 2) ^ SHA256Digest.rotr(a, 13) ^ SHA256Digest.rotr(a, 22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            hh = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }
        h[0] = h[0] &+ a
        h[1] = h[1] &+ b
        h[2] = h[2] &+ c
        h[3] = h[3] &+ d
        h[4] = h[4] &+ e
        h[5] = h[5] &+ f
        h[6] = h[6] &+ g
        h[7] = h[7] &+ hh
    }
}
