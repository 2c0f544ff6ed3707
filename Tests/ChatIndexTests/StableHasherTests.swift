import Testing

@testable import ChatIndex

/// An item's content hash is stored with it and compared at every later ingest of the same
/// export, so its value for a given content may never change: these are FNV-1a 64-bit values
/// computed independently (the bytes of each string, then 0xFF; integers as 8 little-endian
/// bytes), in every kind of script, combining marks and emoji sequences included.
@Suite struct StableHasherTests {
    static func hash(_ parts: [Any]) -> Int64 {
        var h = StableHasher()
        for p in parts {
            switch p {
            case let s as String: h.combine(s)
            case let n as Int: h.combine(Int64(n))
            default: Issue.record("unexpected part \(p)")
            }
        }
        return h.signed
    }

    @Test func valuesStayTheSame() {
        #expect(Self.hash([""]) == -5_808_391_946_409_677_970)
        #expect(Self.hash(["hello"]) == -6_215_684_587_970_837_092)
        #expect(Self.hash(["東京で会いましょう"]) == 610_295_104_624_219_262)
        #expect(Self.hash(["สวัสดีครับ", "مرحبا"]) == -8_712_865_108_720_614_601)
        #expect(Self.hash(["Straße", 42]) == -3_471_958_271_723_216_817)
        #expect(Self.hash(["🎉👩\u{200D}👩\u{200D}👧 ｒｏｐｅ é"]) == -7_710_655_501_957_805_047)
        #expect(Self.hash([-1, "Привет", "İstanbul", "नमस्ते", "שָׁלוֹם"]) == 2_024_609_416_062_744_686)
        // Byte-exact: canonically equivalent spellings hash apart.
        #expect(Self.hash(["cafe\u{301}", "caf\u{E9}"]) == 7_724_817_199_185_250_963)
        #expect(Self.hash(["cafe\u{301}"]) != Self.hash(["caf\u{E9}"]))
    }

    /// A string that is not stored contiguously (bridged or a substring's copy) hashes alike.
    @Test func everyKindOfStringHashesItsBytes() {
        let long = String(repeating: "Встреча 東京 ", count: 40)
        let sliced = String(long.dropFirst(8).dropLast(3))
        var a = StableHasher()
        a.combine(sliced)
        var b = StableHasher()
        b.combine(String(decoding: Array(sliced.utf8), as: UTF8.self))
        #expect(a.value == b.value)
    }
}
