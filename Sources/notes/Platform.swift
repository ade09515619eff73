// The one place the executable names its C library; every other file sees it through this
// re-export (and NotesKit keeps its own).
#if canImport(Darwin)
    @_exported import Darwin
#elseif canImport(Glibc)
    @_exported import Glibc

    // Glibc's module map leaves out this GNU extension (glibc 2.34 and later).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    @_silgen_name("posix_spawn_file_actions_addclosefrom_np")
    func posix_spawn_file_actions_addclosefrom_np(
        _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32
    ) -> Int32
#endif

/// A C signal handler, as `signal(2)` takes and returns it.
typealias SignalHandler = @convention(c) (Int32) -> Void
