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

    /// `O_NOATIME`, which the Glibc module does not export (its value on Linux on x86-64 and
    /// arm64; other architectures number it otherwise); 0 elsewhere (nothing asked).
    static var noAccessTime: Int32 {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            0o1_000_000
        #else
            0
        #endif
    }

    /// The C library's function `name` through a pointer of type `T` (a `@convention(c)` function
    /// type): for what the Glibc module leaves out (declared only under `_GNU_SOURCE`, or newer
    /// than it) or brings in only as variadic; nil where the library has no such function.
    static func function<T>(_ name: String, as type: T.Type) -> T? {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.close(fd)
        #else
            Glibc.close(fd)
        #endif
    }
}
