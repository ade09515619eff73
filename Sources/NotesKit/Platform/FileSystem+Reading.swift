import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

extension FileSystem {
    /// Reads a whole regular file; also returns its status. Notes are read without following a
    /// final symlink (a link is never a note); `followSymlinks` is for files like the settings.
    /// `relativeTo` opens `path` relative to that open folder (a vault's, say), sparing the kernel
    /// the walk of the folders above it; errors still name `named`, the full path.
    /// `keepingAccessTime` leaves the file's access time alone (`openForReading`).
    public static func read(
        _ path: String, followSymlinks: Bool = false, relativeTo directory: Int32? = nil,
        named: String? = nil,
        keepingAccessTime: Bool = false
    ) throws(FileSystemError) -> ([UInt8], FileStatus) {
        // Non-blocking, so a FIFO (or a device) put where a file was expected is refused below
        // rather than waiting forever for a writer; it changes nothing for a regular file.
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followSymlinks ? 0 : O_NOFOLLOW)
        let fd = openForReading(
            path, relativeTo: directory, flags: flags, keepingAccessTime: keepingAccessTime)
        let path = named ?? path
        guard fd >= 0 else { throw .io(path: path, reason: lastError()) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .io(path: path, reason: lastError()) }
        let status = makeStatus(st)
        guard status.kind == .regular else { throw .io(path: path, reason: "not a regular file") }
        // One byte more than the size, so the read that finds the end needs no bigger buffer;
        // uninitialized, since zeroing a large file's buffer costs as much as reading it.
        var capacity = max(Int(status.size), 0) + 1
        var bytes: [UInt8] = []
        while true {
            var failure: Int32 = 0
            let attempt = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = 0
                while count < buffer.count {
                    let n = LibC.read(
                        fd, buffer.baseAddress.map { UnsafeMutableRawPointer($0 + count) },
                        buffer.count - count)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    if n == 0 { return }
                    count += n
                    // All the bytes fstat counted: done, without one more read that only finds the
                    // end (the status says this size; a file growing meanwhile shows a new status
                    // next time, and an edit compares the file with these bytes before writing).
                    if count == capacity - 1 && bytes.isEmpty { return }
                }
            }
            if failure != 0 { throw .io(path: path, reason: String(cString: strerror(failure))) }
            // The whole file in one read (almost always): the buffer itself, not a copy of it.
            if bytes.isEmpty { bytes = attempt } else { bytes += attempt }
            // A full buffer means the file grew since fstat: read on.
            guard attempt.count == capacity else { break }
            capacity = max(4096, bytes.count)
        }
        return (bytes, status)
    }

    /// Opens `path` (relative to the open folder `directory`, when given) with `flags`; with
    /// `keepingAccessTime`, without updating its access time where the system allows that (Linux's
    /// `O_NOATIME`, for the file's owner; for anyone else the file is opened as usual). For the
    /// index, which reads every note: it must not make the disk write 100,000 inodes back (what
    /// `relatime` does on the first read of the day), nor make every note look just read.
    private static func openForReading(
        _ path: String, relativeTo directory: Int32?, flags: Int32, keepingAccessTime: Bool
    ) -> Int32 {
        func attempt(_ flags: Int32) -> Int32 {
            // Through `withCString`: the implicit conversion copies the path into a new array.
            path.withCString { path in directory.map { openat($0, path, flags) } ?? open(path, flags) }
        }
        if keepingAccessTime && LibC.noAccessTime != 0 {
            let fd = attempt(flags | LibC.noAccessTime)
            if fd >= 0 || errno != EPERM { return fd }
        }
        return attempt(flags)
    }

    /// How a note is opened for reading: not following a final symlink (a link is never a note),
    /// and non-blocking, so that a FIFO put where a note was is refused rather than waited on
    /// (`O_NOATIME` comes on top where allowed, see `openForReading`).
    static let noteFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW

    /// Reads a whole regular file of at most `limit` bytes into `buffer` (not following a final
    /// symlink, opened relative to the open folder `directory`), reusing its memory; returns the
    /// file's status, or nil when it cannot be read so, for whatever reason — larger than `limit`,
    /// not regular, an error, grown since its status was taken — for `read` to do it and say why.
    static func read(
        _ path: String, relativeTo directory: Int32?, into buffer: FileBuffer, limit: Int
    ) -> FileStatus? {
        let fd = openForReading(path, relativeTo: directory, flags: noteFlags, keepingAccessTime: true)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let status = makeStatus(st)
        let size = Int(status.size)
        guard status.kind == .regular, size >= 0, size <= limit else { return nil }
        // One byte more than the size: a read that fills it means the file grew.
        buffer.reserve(size + 1)
        var count = 0
        while count < size + 1 {
            let n = LibC.read(fd, buffer.storage.baseAddress.map { $0 + count }, size + 1 - count)
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            count += n
            if count == size { break }
        }
        guard count <= size else { return nil }
        buffer.count = count
        return status
    }

    /// Maps a whole regular file read-only (not following a final symlink), and returns the mapping
    /// and the open descriptor (for `pread`; the caller closes it); nil when it cannot. Only for
    /// files that are replaced by rename, never rewritten in place (the index).
    public static func map(_ path: String) -> (bytes: UnsafeRawBufferPointer, fd: Int32)? {
        // Non-blocking: an index replaced by a FIFO must not wait for a writer (it is refused below).
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, makeStatus(st).kind == .regular, st.st_size > 0,
            let base = mmap(nil, Int(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED
        else {
            close(fd)
            return nil
        }
        return (UnsafeRawBufferPointer(start: base, count: Int(st.st_size)), fd)
    }

    /// Unmaps what `map` mapped.
    public static func unmap(_ buffer: UnsafeRawBufferPointer) {
        if let base = buffer.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), buffer.count) }
    }
}

/// Memory that file reads reuse (`FileSystem.read(_:relativeTo:into:limit:)`): one allocation
/// for many files, grown when one needs more. Used by one thread at a time.
final class FileBuffer {
    /// The memory; the file's bytes are its first `count`.
    private(set) var storage: UnsafeMutableRawBufferPointer
    /// How many bytes the last read left.
    fileprivate(set) var count = 0

    /// An empty buffer with room for a typical note.
    init() { storage = .allocate(byteCount: 1 << 16, alignment: 16) }

    deinit { storage.deallocate() }

    /// The bytes the last read left.
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Makes room for `capacity` bytes (what it held is not kept).
    fileprivate func reserve(_ capacity: Int) {
        guard capacity > storage.count else { return }
        storage.deallocate()
        storage = .allocate(byteCount: capacity, alignment: 16)
    }
}
