import ChatModel
import Foundation
import Testing

/// One RFC 3339 text, the instant it names, and its canonical UTC form.
struct TimestampCase: Sendable, CustomTestStringConvertible {
    var text: String
    var milliseconds: Int64
    var canonical: String
    var testDescription: String { text }
    init(_ text: String, _ milliseconds: Int64, _ canonical: String? = nil) {
        self.text = text
        self.milliseconds = milliseconds
        self.canonical = canonical ?? text
    }
}

@Suite struct TimestampTests {
    /// Canonical UTC texts: parsing gives the instant, formatting gives the text back.
    static let canonical: [TimestampCase] = [
        TimestampCase("1970-01-01T00:00:00Z", 0),
        TimestampCase("1970-01-01T00:00:00.001Z", 1),
        TimestampCase("1969-12-31T23:59:59.999Z", -1),
        TimestampCase("2024-05-01T10:00:00Z", 1_714_557_600_000),
        TimestampCase("2024-02-29T12:00:00Z", 1_709_208_000_000),
        TimestampCase("2000-02-29T23:59:59.999Z", 951_868_799_999),
        TimestampCase("1900-03-01T00:00:00Z", -2_203_891_200_000),
        TimestampCase("2038-01-19T03:14:08Z", 2_147_483_648_000),
        TimestampCase("0001-01-01T00:00:00Z", -62_135_596_800_000),
        TimestampCase("9999-12-31T23:59:59Z", 253_402_300_799_000),
        TimestampCase("2024-12-31T23:59:59.050Z", 1_735_689_599_050),
    ]

    @Test(arguments: canonical)
    func canonicalTextRoundTrips(_ c: TimestampCase) throws {
        let t = try #require(Timestamp.parse(c.text))
        #expect(t.milliseconds == c.milliseconds)
        #expect(t.rfc3339 == c.canonical)
        #expect(Timestamp(milliseconds: c.milliseconds).rfc3339 == c.canonical)
        #expect(Timestamp.parse(t.rfc3339) == t)
    }

    /// Other spellings of an instant: offsets, fractions, separators, missing parts.
    static let variants: [TimestampCase] = [
        TimestampCase("2024-05-01T12:00:00+02:00", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01T05:30:00-04:30", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01T12:00:00+0200", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01T12:00:00+02", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01T10:00:00-00:00", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01T00:30:00+01:00", 1_714_519_800_000, "2024-04-30T23:30:00Z"),
        TimestampCase("2024-02-28T23:00:00-02:00", 1_709_168_400_000, "2024-02-29T01:00:00Z"),
        TimestampCase("2023-02-28T23:00:00-02:00", 1_677_632_400_000, "2023-03-01T01:00:00Z"),
        TimestampCase("2024-05-01t10:00:00z", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01 10:00:00Z", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01T10:00Z", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01 10:00", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01T10:00:00", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01", 1_714_521_600_000, "2024-05-01T00:00:00Z"),
        TimestampCase("2024-05-01T10:00:00Z  ", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01T10:00:00.5Z", 1_714_557_600_500, "2024-05-01T10:00:00.500Z"),
        TimestampCase("2024-05-01T10:00:00.05Z", 1_714_557_600_050, "2024-05-01T10:00:00.050Z"),
        TimestampCase("2024-05-01T10:00:00.123456789Z", 1_714_557_600_123, "2024-05-01T10:00:00.123Z"),
        TimestampCase("2024-05-01T10:00:00.9999Z", 1_714_557_600_999, "2024-05-01T10:00:00.999Z"),
        TimestampCase("2024-05-01T10:00:00,25Z", 1_714_557_600_250, "2024-05-01T10:00:00.250Z"),
        TimestampCase("2024-05-01T10:00:00.000Z", 1_714_557_600_000, "2024-05-01T10:00:00Z"),
        TimestampCase("2024-05-01T12:00:00.750+02:00", 1_714_557_600_750, "2024-05-01T10:00:00.750Z"),
        // A leap second is read as the last ordinary second of its minute.
        TimestampCase("2016-12-31T23:59:60Z", 1_483_228_799_000, "2016-12-31T23:59:59Z"),
    ]

    @Test(arguments: variants)
    func variantsParseToTheSameInstant(_ c: TimestampCase) throws {
        let t = try #require(Timestamp.parse(c.text))
        #expect(t.milliseconds == c.milliseconds)
        #expect(t.rfc3339 == c.canonical)
    }

    @Test func defaultOffsetAppliesOnlyWithoutAnExplicitOne() throws {
        let local = try #require(Timestamp.parse("2024-05-01T10:00:00", defaultOffsetSeconds: 3600))
        #expect(local.rfc3339 == "2024-05-01T09:00:00Z")
        let explicit = try #require(Timestamp.parse("2024-05-01T10:00:00Z", defaultOffsetSeconds: 3600))
        #expect(explicit.rfc3339 == "2024-05-01T10:00:00Z")
        let withOffset = try #require(Timestamp.parse("2024-05-01T10:00:00-01:00", defaultOffsetSeconds: 3600))
        #expect(withOffset.rfc3339 == "2024-05-01T11:00:00Z")
        let dateOnly = try #require(Timestamp.parse("2024-05-01", defaultOffsetSeconds: -7200))
        #expect(dateOnly.rfc3339 == "2024-05-01T02:00:00Z")
    }

    @Test(arguments: [
        "", " ", "2024", "2024-05", "2024-5-01", "2024-05-1", "24-05-01", "2024/05/01", "2024-13-01", "2024-00-10",
        "2024-05-00", "2024-05-32", "2024-04-31", "2024-02-30", "2023-02-29", "1900-02-29", "2024-05-01T",
        "2024-05-01T10", "2024-05-01T1:00", "2024-05-01T24:00:00Z", "2024-05-01T10:60:00Z", "2024-05-01T10:00:0Z",
        "2024-05-01T10:00:00.Z", "2024-05-01T10:00:00+", "2024-05-01T10:00:00+2", "2024-05-01T10:00:00+24:00",
        "2024-05-01T10:00:00+02:60", "2024-05-01T10:00:00Q", "2024-05-01X10:00", "2024-05-01T10:00:00Z extra",
        " 2024-05-01", "２０２４-05-01", "2024-05-01T10:00:00ZZ", "not a date",
    ])
    func invalidTextIsRejected(_ text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test(arguments: ["2024-05-01T10:00:61Z", "2024-05-01T10:00:99Z"])
    func secondsBeyondALeapSecondAreRejected(_ text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    static let fields: [(Int64, [Int])] = [
        (0, [1970, 1, 1, 0, 0, 0, 0]),
        (-1, [1969, 12, 31, 23, 59, 59, 999]),
        (-86_400_000, [1969, 12, 31, 0, 0, 0, 0]),
        (951_782_400_000, [2000, 2, 29, 0, 0, 0, 0]),
        (1_714_557_600_123, [2024, 5, 1, 10, 0, 0, 123]),
        (-62_135_596_800_000, [1, 1, 1, 0, 0, 0, 0]),
        (253_402_300_799_999, [9999, 12, 31, 23, 59, 59, 999]),
    ]

    @Test(arguments: fields)
    func componentsAreUTCCalendarFields(_ milliseconds: Int64, _ fields: [Int]) throws {
        let c = Timestamp(milliseconds: milliseconds).components
        #expect([c.year, c.month, c.day, c.hour, c.minute, c.second, c.millisecond] == fields)
        let back = try #require(
            Timestamp(
                year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second,
                millisecond: c.millisecond))
        #expect(back.milliseconds == milliseconds)
    }

    @Test(arguments: [
        [2024, 0, 1, 0, 0, 0, 0], [2024, 13, 1, 0, 0, 0, 0], [2024, 1, 0, 0, 0, 0, 0], [2024, 1, 32, 0, 0, 0, 0],
        [2023, 2, 29, 0, 0, 0, 0], [2024, 6, 31, 0, 0, 0, 0], [2024, 1, 1, 24, 0, 0, 0], [2024, 1, 1, -1, 0, 0, 0],
        [2024, 1, 1, 0, 60, 0, 0], [2024, 1, 1, 0, 0, 61, 0], [2024, 1, 1, 0, 0, 0, 1000], [2024, 1, 1, 0, 0, 0, -1],
    ])
    func calendarFieldsOutOfRangeGiveNil(_ f: [Int]) {
        #expect(
            Timestamp(year: f[0], month: f[1], day: f[2], hour: f[3], minute: f[4], second: f[5], millisecond: f[6])
                == nil)
    }

    @Test(arguments: [
        (2, 2024, 29), (2, 2023, 28), (2, 2000, 29), (2, 1900, 28), (2, 2100, 28), (2, 2400, 29),
        (1, 2023, 31), (4, 2023, 30), (6, 2023, 30), (9, 2023, 30), (11, 2023, 30), (12, 2023, 31),
    ])
    func daysInMonthFollowsTheGregorianRules(_ month: Int, _ year: Int, _ days: Int) {
        #expect(Timestamp.daysIn(month: month, year: year) == days)
    }

    @Test func daysCountFromTheEpoch() {
        #expect(Timestamp.days(year: 1970, month: 1, day: 1) == 0)
        #expect(Timestamp.days(year: 1969, month: 12, day: 31) == -1)
        #expect(Timestamp.days(year: 2000, month: 3, day: 1) == 11017)
        #expect(Timestamp.days(year: 2000, month: 3, day: 1) - Timestamp.days(year: 2000, month: 2, day: 28) == 2)
        #expect(Timestamp.days(year: 1900, month: 3, day: 1) - Timestamp.days(year: 1900, month: 2, day: 28) == 1)
    }

    @Test func secondsOrderingAndDescription() throws {
        let a = Timestamp(seconds: 1_714_557_600)
        #expect(a.milliseconds == 1_714_557_600_000)
        #expect(a.description == "2024-05-01T10:00:00Z")
        #expect(Timestamp(milliseconds: -5) < Timestamp(milliseconds: 0))
        let sorted = [Timestamp(milliseconds: 3), Timestamp(milliseconds: 1), Timestamp(milliseconds: 2)].sorted()
        #expect(sorted.map(\.milliseconds) == [1, 2, 3])
        let json = try JSONEncoder().encode(a)
        #expect(try JSONDecoder().decode(Timestamp.self, from: json) == a)
    }
}
