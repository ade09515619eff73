import Foundation

/// The time "now" as the tool sees it. A test seam (listed in `Sources/README.md`):
/// `NOTES_TEST_NOW` set to an ISO 8601 time with an offset (`2026-12-02T09:30:00+01:00`) fixes it,
/// so relative dates (`yesterday`, `7d`) and today's daily note can be tested. Read once; unset
/// or not a time, it is the system clock.
public enum TestClock {
    private static let fixed: Double? = {
        guard let value = ProcessInfo.processInfo.environment["NOTES_TEST_NOW"] else { return nil }
        return NoteDate.parse(value)
    }()

    /// Now, in seconds since 1970.
    public static func now() -> Double { fixed ?? Date().timeIntervalSince1970 }
}
