import Foundation
import NotesKit

// Read while the program is still single-threaded: reading the umask means setting it.
_ = FileSystem.creationMask

// Each write of a closed pipe (`notes list | head`) should end quietly, as in other Unix tools.
signal(SIGPIPE, SIG_DFL)

let status = CLI.main(
    Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    cwd: FileManager.default.currentDirectoryPath)
exit(status)
