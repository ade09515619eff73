import Foundation
import NotesKit

// Read while the program is still single-threaded: reading the umask means setting it.
_ = FileSystem.creationMask
Trace.mark("start")
// Ctrl-C (or a kill) during a write removes the half-written temp file before the process dies.
TemporaryFiles.installSignalHandlers()

// Each write of a closed pipe (`notes list | head`) should end quietly, as in other Unix tools.
signal(SIGPIPE, SIG_DFL)

// Text that is not UTF-8 is refused before Swift repairs it into U+FFFD.
if let refused = RawArguments.refusal() { exit(refused) }

let status = CLI.main(
    Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    cwd: FileManager.default.currentDirectoryPath)
Trace.mark("output")
exit(status)
