import NotesKit

/// The table `notes config` prints: every key with its value and where the value comes from.
enum ConfigView {
    /// `key  value  source` lines, columns aligned to the longest key and value (a value longer
    /// than 40 columns pushes only its own row's source along). Known keys first, then the keys
    /// the file holds that notes does not use.
    static func render(_ settings: Settings) -> String {
        var rows: [(key: String, value: String, source: String)] = Settings.Key.allCases.map { key in
            let source: String
            if let invalid = settings.invalidFileValue(key) {
                let shown = if case .string(let text) = invalid { "\"\(text)\"" } else { invalid.display }
                source = "default (file value \(shown) is invalid)"
            } else {
                source = settings.value(key) != nil ? "file" : "default"
            }
            return (key.rawValue, settings.effective(key) ?? "(unset)", source)
        }
        for (key, value) in settings.other.sorted(by: { $0.key < $1.key })
        where Settings.Key(rawValue: key) == nil {
            rows.append((key, value.display, "file (not used by notes)"))
        }
        rows = rows.map { (ANSI.printable($0.key), ANSI.printable($0.value), ANSI.printable($0.source)) }
        let keyWidth = rows.map { DisplayWidth.of($0.key) }.max() ?? 0
        let valueWidth = min(40, max(10, rows.map { DisplayWidth.of($0.value) }.max() ?? 0))
        return rows.map {
            DisplayWidth.pad($0.key, to: keyWidth) + "  " + DisplayWidth.pad($0.value, to: valueWidth) + "  "
                + $0.source + "\n"
        }.joined()
    }
}
