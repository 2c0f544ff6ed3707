/// A small, fast, seedable PRNG (xoshiro256**, seeded through SplitMix64).
///
/// The corpus must be identical for a seed on every platform and Swift version, so it
/// never uses `SystemRandomNumberGenerator`, `hashValue` or the standard library's
/// `random(in:using:)` (whose algorithm is not guaranteed to stay the same).
struct CorpusRandom {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Seeds the state with four SplitMix64 outputs of `seed`.
    init(seed: UInt64) {
        var x = seed
        func splitMix(_ x: inout UInt64) -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(&x)
        s1 = splitMix(&x)
        s2 = splitMix(&x)
        s3 = splitMix(&x)
    }

    /// A generator for one sub-stream (a chat), independent of the order streams are used in.
    init(seed: UInt64, stream: UInt64) {
        self.init(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03) ^ 0x5851_F42D_4C95_7F2D)
    }

    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-shift; `bound` > 0).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A uniform integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A uniform double in `[0, 1)`.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// A uniformly chosen element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }
}
