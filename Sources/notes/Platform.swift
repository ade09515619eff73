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
