/// A set of 64-bit keys that may answer "maybe" for keys never inserted (one hash, 2^26 bits).
///
/// A class, not a struct: as a `lazy var` of another type, read and written back from another
/// file, a struct's 2^26 bits were copied on every insert (its getter hands out a second
/// reference, so the mutation copies); that made ingests several times slower.
final class SlotFilter {
    private var bits = [UInt64](repeating: 0, count: 1 << 20)

    private func position(_ key: Int64) -> (Int, UInt64) {
        var h = UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        let bit = Int(h & ((1 << 26) - 1))
        return (bit >> 6, 1 << UInt64(bit & 63))
    }

    func insert(_ key: Int64) {
        let (word, mask) = position(key)
        bits[word] |= mask
    }

    func mayContain(_ key: Int64) -> Bool {
        let (word, mask) = position(key)
        return bits[word] & mask != 0
    }
}
