#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The C library's `read` and `close`, by their module's name: where a type has a method
/// of the same name (`PendingFile.close`, `FileSystem.read`), an unqualified call finds the method.
enum LibC {
    static func read(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.read(fd, buf, count)
        #else
            Glibc.read(fd, buf, count)
        #endif
    }

    /// `O_NOATIME`, which the Glibc module does not export (Linux's value on x86-64 and arm64);
    /// 0 elsewhere.
    static var noAccessTime: Int32 {
        #if os(Linux)
            0o1_000_000
        #else
            0
        #endif
    }

    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.close(fd)
        #else
            Glibc.close(fd)
        #endif
    }
}
