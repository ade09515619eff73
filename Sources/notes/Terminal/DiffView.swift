import NotesKit

/// A unified diff as printed (`notes conflicts --diff`, `notes history --patch`): control
/// characters shown as spaces, and with colour on, removed lines red, added lines green and hunk
/// headers cyan, as git shows them.
enum DiffView {
    /// The diff's lines, printable and coloured by `style`.
    static func render(_ diff: String, style: OutputStyle) -> String {
        var out = ""
        for line in diff.split(separator: "\n", omittingEmptySubsequences: false).dropLast(
            diff.hasSuffix("\n") ? 1 : 0)
        {
            let text = ANSI.printable(String(line))
            guard style.color else {
                out += text + "\n"
                continue
            }
            let code: String? =
                if text.hasPrefix("+++") || text.hasPrefix("---") || text.hasPrefix("diff ")
                    || text.hasPrefix("index ")
                { ANSI.bold } else if text.hasPrefix("@@") { "\u{1B}[36m" } else if text.hasPrefix("+") {
                    "\u{1B}[32m"
                } else if text.hasPrefix("-") { "\u{1B}[31m" } else { nil }
            out += code.map { $0 + text + ANSI.reset } ?? text
            out += "\n"
        }
        return out
    }
}
