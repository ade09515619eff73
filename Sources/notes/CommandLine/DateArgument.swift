import Foundation
import NotesKit

/// A DATE option's value (`--since 7d`): what it names, counted from now (`TestClock`) in the
/// local time zone.
struct DateArgument: ArgumentValue {
    var span: DateSpan

    init?(argument: String) {
        guard let span = DateForms.parse(argument, now: TestClock.now(), timeZone: .current) else {
            return nil
        }
        self.span = span
    }

    static var kind: ArgumentKind { .text }

    /// `'x' is not a date; use one of:` and the forms, one per line.
    static func invalid(_ text: String) -> String {
        "'\(text)' is not a date; use one of:\n" + DateForms.summary.map { "  " + $0 }.joined(separator: "\n")
    }
}
