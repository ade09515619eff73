import Foundation

/// Folded searchable text: a range of the memory-mapped index, or bytes of a file just read.
/// Mapped text is only paged in when a search reads it, so `list` never touches it.
public struct FoldedText: Sendable {
    private let storage: TextStorage?
    private let owned: [UInt8]
    private let range: Range<Int>

    init(_ bytes: [UInt8]) {
        storage = nil
        owned = bytes
        range = 0..<bytes.count
    }

    init(storage: TextStorage, range: Range<Int>) {
        self.storage = storage
        owned = []
        self.range = range
    }

    /// The number of bytes.
    public var count: Int { range.count }

    /// Calls `body` with the bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let storage { return body(UnsafeRawBufferPointer(rebasing: storage.bytes[range])) }
        return owned.withUnsafeBytes(body)
    }
}

/// Bytes an index is read from, at a fixed address for as long as this lives: a read-only memory
/// map of a file, or a copy of bytes in memory.
final class TextStorage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    /// The mapped file, open; -1 for memory of this process.
    private let fd: Int32
    /// Whether `bytes` map a file (else they are memory of this process).
    var isMapped: Bool { fd >= 0 }

    /// The inode of the mapped file; nil for memory of this process.
    var inode: UInt64? {
        var status = stat()
        guard fd >= 0, fstat(fd, &status) == 0 else { return nil }
        return UInt64(status.st_ino)
    }

    init(_ array: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, array.count), alignment: 16)
        array.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(rebasing: copy[..<array.count])
        fd = -1
    }

    /// Maps a whole file read-only; nil when it cannot be mapped (then the caller reads it).
    init?(mapping path: String) {
        guard let (map, fd) = FileSystem.map(path) else { return nil }
        bytes = map
        self.fd = fd
    }

    deinit {
        if isMapped {
            FileSystem.unmap(bytes)
            close(fd)
        } else if let base = bytes.baseAddress {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    /// Gives the pages of the mapping that this process touched back to the kernel: they stay in
    /// the page cache and are mapped again from it when next read (the file is never written in
    /// place), so a scan of the whole index does not stay in the process's resident memory.
    /// Nothing for memory of this process.
    func releaseResidentPages() {
        guard isMapped, let base = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, MADV_DONTNEED)
    }

    /// Up to `count` bytes at `offset`, read without touching the mapping (`pread`), so that a
    /// few scattered reads do not map whole runs of the page cache into this process.
    func read(at offset: Int, count: Int) -> [UInt8] {
        let count = max(0, min(count, bytes.count - offset))
        guard isMapped else { return Array(bytes[offset..<(offset + count)]) }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let n = pread(fd, buffer.baseAddress, count, off_t(offset))
            initialized = max(0, n)
        }
    }
}
