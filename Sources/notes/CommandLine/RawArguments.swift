import Foundation

/// The command line and the environment as the system passed them: bytes. Swift's
/// `CommandLine.arguments` and `ProcessInfo.environment` repair bytes that are not UTF-8 into
/// U+FFFD, so a Latin-1 `café` typed as a note's text would be saved as `caf�`, and a vault path
/// with such bytes would name another folder (which `notes init` would then create). Such text is
/// refused before anything runs.
enum RawArguments {
    /// The variables that name places the tool reads and writes.
    static let pathVariables = ["NOTES_VAULT", "NOTES_CONFIG"]

    /// What is wrong with `arguments` (the words after the program's name, as bytes) and the
    /// values of `variables` (nil when unset): a usage error for an argument, a message for a
    /// variable; nil when all of it is UTF-8.
    static func problem(arguments: [[UInt8]], variables: [(name: String, value: [UInt8]?)])
        -> (message: String, isUsage: Bool)?
    {
        for (index, bytes) in arguments.enumerated() where String(validating: bytes, as: UTF8.self) == nil {
            return (
                "argument \(index + 1) ('\(String(decoding: bytes, as: UTF8.self))') is not UTF-8 text; "
                    + "notes reads and writes UTF-8 only, so convert it first (e.g. with iconv).", true
            )
        }
        for (name, value) in variables {
            guard let value, String(validating: value, as: UTF8.self) == nil else { continue }
            return (
                "\(name) ('\(String(decoding: value, as: UTF8.self))') is not UTF-8 text; "
                    + "notes needs the paths it uses in UTF-8: rename the folder or set \(name) to another.",
                false
            )
        }
        return nil
    }

    /// `problem` for this process.
    static func problemOfThisProcess() -> (message: String, isUsage: Bool)? {
        func bytes(_ text: UnsafePointer<CChar>) -> [UInt8] {
            Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
        }
        let arguments = (1..<max(1, Int(CommandLine.argc))).map {
            CommandLine.unsafeArgv[$0].map { bytes($0) } ?? []
        }
        let variables = pathVariables.map { name in (name: name, value: getenv(name).map { bytes($0) }) }
        return problem(arguments: arguments, variables: variables)
    }

    /// Refuses this process's command line or environment when `problem` finds one: prints the
    /// error (a usage error for an argument, exit 64; exit 1 for a variable) and returns the
    /// exit code; nil when there is nothing to refuse.
    static func refusal() -> Int32? {
        guard let problem = problemOfThisProcess() else { return nil }
        let error: any Error =
            problem.isUsage
            ? UsageError(message: problem.message, command: nil) : CommandError(problem.message)
        return CLI.fail(error)
    }
}
