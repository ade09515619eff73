import NotesKit

/// The table `notes config` prints: every key with its value and where the value comes from.
enum ConfigView {
    /// `key  value  source` lines, columns aligned to the longest key and value (a value longer
    /// than 40 columns pushes only its own row's source along). The source is `vault` (the
    /// vault's `.notes/settings.json`), `user` (the user's file), `obsidian` (what an `.obsidian/`
    /// folder implies) or `default`. Known keys first,
    /// then the keys the user's file holds that notes does not use.
    static func render(_ layered: LayeredSettings) -> String {
        let settings = layered.effective
        var rows: [(key: String, value: String, source: String)] = Settings.Key.allCases.map { key in
            var source = layered.source(of: key).rawValue
            if let invalid = layered.vault.settings.invalidFileValue(key)
                ?? layered.user.settings.invalidFileValue(key)
            {
                let shown = if case .string(let text) = invalid { "\"\(text)\"" } else { invalid.display }
                let file = layered.vault.settings.invalidFileValue(key) != nil ? "vault" : "user"
                source += " (\(file) file value \(shown) is invalid)"
            } else if let invalid = layered.invalidObsidianValue(key) {
                source += " (obsidian value \"\(invalid)\" is invalid)"
            }
            return (key.rawValue, settings.effective(key) ?? "(unset)", source)
        }
        for (key, value) in layered.user.settings.other.sorted(by: { $0.key < $1.key })
        where Settings.Key(rawValue: key) == nil {
            rows.append((key, value.display, "user (not used by notes)"))
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
