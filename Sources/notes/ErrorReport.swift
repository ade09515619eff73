import Foundation
import NotesKit

/// Any error as the user reads it, made in this one place: its sentence (for the
/// library's errors, with the `notes` command that fixes them), its exit code, and whether the
/// command line was wrong. The CLI prints `lines` on stderr, the browser shows
/// `headline`, and a message to an editor can carry `sentence` alone.
struct ErrorReport {
    /// What kind of error it is: this decides the exit code and what follows the sentence.
    enum Kind {
        /// The command failed: exit 1.
        case failure
        /// The command line is wrong: exit 64, with the usage line of the command (nil for the
        /// top level) and where its help is.
        case usage(CommandSpec?)
        /// Nothing was done because the user chose so (an empty editor): exit 1, no `Error: `.
        case declined
    }

    /// What went wrong and what to do, without the `Error: ` prefix.
    let sentence: String
    let kind: Kind

    init(_ error: any Error) {
        switch error {
        case let usageError as UsageError:
            sentence = usageError.message
            kind = .usage(usageError.command)
            return
        case is Editor.NothingSaved:
            sentence = "Nothing saved."
            kind = .declined
            return
        case let commandError as CommandError:
            sentence = commandError.message
        case let vaultError as VaultError:
            sentence = (vaultError.errorDescription ?? "\(error)") + (Self.hint(for: vaultError) ?? "")
        case let gitError as GitError:
            sentence = (gitError.errorDescription ?? "\(error)") + (Self.hint(for: gitError) ?? "")
        case SettingsError.notAFile(let path):
            sentence =
                SettingsError.notAFile(path: path).localizedDescription
                + "; move that folder away or remove it (the defaults apply without a file), "
                + "or name another file with --config FILE"
        case let localized as LocalizedError:
            sentence = localized.errorDescription ?? "\(error)"
        default:
            sentence = "\(error)"
        }
        kind = .failure
    }

    /// Whether the command line was wrong, rather than the command failing.
    var isUsageError: Bool {
        if case .usage = kind { true } else { false }
    }

    /// 64 when the command line is wrong, 1 when the command failed.
    var exitCode: Int32 { isUsageError ? 64 : 1 }

    /// The first line: `Error: ` and the sentence (the sentence alone for what the user chose).
    var headline: String {
        if case .declined = kind { sentence } else { "Error: " + sentence }
    }

    /// What stderr shows, without the final newline: the headline, and for a usage error the
    /// usage line and where to find help.
    var lines: String {
        guard case .usage(let command) = kind else { return headline }
        let name = command.map { "notes " + $0.fullName } ?? "notes"
        return headline + "\nUsage: \(Help.usage(command))\n  See '\(name) --help' for more information."
    }

    /// The end of the sentence that names the `notes` command to run next, for the library's
    /// errors that have one: the library says what happened, and only the command line knows
    /// its own commands.
    static func hint(for error: VaultError) -> String? {
        switch error {
        case .vaultMissing(let path): "; create it with: " + Shell.notes("init", argument: path)
        case .notAFolder: ", or create one with 'notes init DIR'"
        case .stateNotAFolder: " and run 'notes init' again"
        case .notInTrash: "; see 'notes trash'"
        default: nil
        }
    }

    /// The `notes` command that follows a `GitError`, for those that have one.
    static func hint(for error: GitError) -> String? {
        switch error {
        case .rebaseConflict: "\nThen run 'notes sync': it goes on with the rebase, and finishes the sync."
        default: nil
        }
    }
}
