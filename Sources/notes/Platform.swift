import NotesKit

// The one place the executable names its C library; every other file sees it through this
// re-export (and NotesKit keeps its own; its `ProcessRunner.closeDescriptors` is the one
// declaration of glibc's `posix_spawn_file_actions_addclosefrom_np`).
#if canImport(Darwin)
    @_exported import Darwin
#elseif canImport(Glibc)
    @_exported import Glibc
#endif

/// A C signal handler, as `signal(2)` takes and returns it.
typealias SignalHandler = @convention(c) (Int32) -> Void

/// What this process knows of itself.
enum Platform {
    /// The absolute path of the running `notes`, as it was started (a symlink on `PATH` stays
    /// the link, so an upgrade behind it is still found); nil when it cannot be told.
    static func executablePath(cwd: String, environment: [String: String]) -> String? {
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
        if first.contains("/") {
            return Vault.normalized(first.hasPrefix("/") ? first : cwd + "/" + first)
        }
        return ProcessRunner.find(first, path: environment["PATH"])
    }
}
