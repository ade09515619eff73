import Foundation
import NotesKit
import Testing

@Suite struct NoteDateTests {
    /// 2026-11-29T12:38:16Z.
    static let t0 = 1_795_955_896.0
    /// 2026-11-29T00:00:00Z.
    static let midnightUTC = 1_795_910_400.0

    static func zone(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// One accepted date form, read in an explicit time zone.
    struct ParseCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var zone: String
        var seconds: Double

        var testDescription: String { name }
    }

    static let accepted: [ParseCase] = [
        ParseCase(name: "UTC with Z", text: "2026-11-29T12:38:16Z", zone: "Asia/Tokyo", seconds: t0),
        ParseCase(
            name: "UTC with lower-case t and z", text: "2026-11-29t12:38:16z", zone: "UTC", seconds: t0),
        ParseCase(
            name: "fractional seconds", text: "2026-11-29T12:38:16.25Z", zone: "UTC", seconds: t0 + 0.25),
        ParseCase(
            name: "milliseconds", text: "2026-11-29T12:38:16.125Z", zone: "Europe/Berlin",
            seconds: t0 + 0.125),
        ParseCase(name: "offset +02:00", text: "2026-11-29T12:38:16+02:00", zone: "UTC", seconds: t0 - 7200),
        ParseCase(name: "offset -05:30", text: "2026-11-29T12:38:16-05:30", zone: "UTC", seconds: t0 + 19800),
        ParseCase(name: "offset +0200", text: "2026-11-29T12:38:16+0200", zone: "UTC", seconds: t0 - 7200),
        ParseCase(name: "offset +02", text: "2026-11-29T12:38:16+02", zone: "UTC", seconds: t0 - 7200),
        ParseCase(
            name: "fraction and offset", text: "2026-11-29T14:38:16.5+02:00", zone: "UTC",
            seconds: t0 + 0.5),
        ParseCase(
            name: "offset ignores the local zone", text: "2026-11-29T12:38:16+00:00",
            zone: "America/New_York", seconds: t0),
        ParseCase(
            name: "local minutes, Berlin (UTC+1 in November)", text: "2026-11-29 12:38",
            zone: "Europe/Berlin", seconds: t0 - 16 - 3600),
        ParseCase(
            name: "local seconds, New York (UTC-5 in November)", text: "2026-11-29 12:38:16",
            zone: "America/New_York", seconds: t0 + 5 * 3600),
        ParseCase(name: "local seconds, UTC", text: "2026-11-29 12:38:16", zone: "UTC", seconds: t0),
        ParseCase(
            name: "local with T and no zone", text: "2026-11-29T12:38", zone: "Europe/Berlin",
            seconds: t0 - 16 - 3600),
        ParseCase(
            name: "local summer time, Berlin (UTC+2 in July)", text: "2026-07-01 12:00",
            zone: "Europe/Berlin", seconds: 1_782_900_000),
        ParseCase(
            name: "local midnight, Tokyo", text: "2026-11-29", zone: "Asia/Tokyo",
            seconds: midnightUTC - 9 * 3600),
        ParseCase(name: "local midnight, UTC", text: "2026-11-29", zone: "UTC", seconds: midnightUTC),
        ParseCase(
            name: "local midnight, New York", text: "2026-11-29", zone: "America/New_York",
            seconds: midnightUTC + 5 * 3600),
        ParseCase(name: "leap day", text: "2028-02-29T00:00:00Z", zone: "UTC", seconds: 1_835_395_200),
        ParseCase(
            name: "leap day of a year divisible by 400", text: "2000-02-29T23:59:59Z", zone: "UTC",
            seconds: 951_868_799),
        ParseCase(name: "the epoch", text: "1970-01-01T00:00:00Z", zone: "UTC", seconds: 0),
        ParseCase(name: "before the epoch", text: "1969-12-31T23:59:59Z", zone: "UTC", seconds: -1),
    ]

    @Test(arguments: accepted)
    func parses(_ c: ParseCase) {
        let parsed = NoteDate.parse(c.text, timeZone: Self.zone(c.zone))
        #expect(parsed == c.seconds)
    }

    @Test(arguments: [
        "", "yesterday", "2026", "2026-11", "26-11-29", "2026/11/29", "2026-11-29 ",
        "2026-02-30", "2027-02-29", "2100-02-29", "2026-13-01", "2026-00-10", "2026-11-00", "2026-11-31",
        "2026-11-29T24:00:00Z", "2026-11-29T12:60:00Z", "2026-11-29T12:38:60Z", "2026-11-29T12",
        "2026-11-29T12:38:16.Z", "2026-11-29T12:38:16Q", "2026-11-29T12:38:16Z extra",
        "2026-11-29T12:38:16+2", "2026-11-29T12:38:16+25:00", "2026-11-29T12:38:16+02:60",
        "2026-11-29X12:38", "２０２６-11-29",
    ])
    func rejects(_ text: String) {
        #expect(NoteDate.parse(text, timeZone: Self.zone("UTC")) == nil)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (t0, "2026-11-29T12:38:16Z"),
        (t0 + 0.999, "2026-11-29T12:38:16Z"),
        (-1.0, "1969-12-31T23:59:59Z"),
        (-0.5, "1969-12-31T23:59:59Z"),
        (1_835_395_200.0, "2028-02-29T00:00:00Z"),
        (951_868_799.0, "2000-02-29T23:59:59Z"),
        (253_402_300_799.0, "9999-12-31T23:59:59Z"),
    ])
    func formatsUTCWithWholeSeconds(_ seconds: Double, _ expected: String) {
        #expect(NoteDate.format(seconds) == expected)
    }

    @Test(arguments: [0.0, t0, 951_868_799.0, 1_835_395_200.0, -86_400.0 * 365 - 1, 4_102_444_800.0])
    func formatThenParseIsTheIdentity(_ seconds: Double) {
        #expect(NoteDate.parse(NoteDate.format(seconds), timeZone: Self.zone("Asia/Tokyo")) == seconds)
    }

    @Test(arguments: [
        ("UTC", "20261129-123816"),
        ("Asia/Tokyo", "20261129-213816"),
        ("America/New_York", "20261129-073816"),
    ])
    func stampUsesTheGivenZone(_ zone: String, _ expected: String) {
        #expect(NoteDate.stamp(Self.t0, timeZone: Self.zone(zone)) == expected)
    }

    /// Without a zone, stamps are in the process's zone (`TZ`). The oracle is the C library's
    /// `localtime_r` and `strftime`, which read `TZ` themselves, at instants in winter, in summer
    /// time, at and before the epoch.
    @Test(arguments: [t0, 1_782_900_000.0, 951_868_799.0, 0.0, -1.0])
    func stampDefaultsToTheLocalZone(_ seconds: Double) {
        var time = time_t(seconds)
        var local = tm()
        localtime_r(&time, &local)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &local)
        let expected = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(count == 15)
        #expect(NoteDate.stamp(seconds) == expected)
    }
}
