import NotesKit

extension Shell {
    /// `notes <words…> <argument>` ready to paste; `--` goes before an argument that starts with
    /// `-`, so it is not read as an option.
    static func notes(_ words: String..., argument: String) -> String {
        (["notes"] + words + (argument.hasPrefix("-") ? ["--"] : []) + [quote(argument)]).joined(
            separator: " ")
    }
}
