import Foundation
import Testing

extension Tag {
    /// The suites and tests that take the most time (crash safety, full disks, races and the lock,
    /// file safety, the huge inputs, a thousand index deltas): what the quick loop,
    /// `NOTES_QUICK=1 swift test`, leaves out. A plain `swift test` (and CI) runs them.
    @Tag public static var heavy: Self
}

/// The quick loop of development: `NOTES_QUICK=1 swift test` skips what is tagged `.heavy`.
public enum QuickLoop {
    /// Whether this run is the quick loop.
    public static let isOn = ProcessInfo.processInfo.environment["NOTES_QUICK"] == "1"
}

extension Trait where Self == ConditionTrait {
    /// Skipped, saying why, in the quick loop (`NOTES_QUICK=1`); run by a plain `swift test`. This
    /// toolchain's `swift test` cannot select tests by tag, hence the variable; the suites that
    /// carry it are also tagged `.heavy`, for tools that can.
    public static var skippedInQuickLoop: Self {
        .disabled(
            if: QuickLoop.isOn, "NOTES_QUICK=1 leaves the heavy tests out; a plain swift test runs them")
    }
}
