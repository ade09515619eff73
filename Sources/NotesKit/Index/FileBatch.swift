import Foundation

/// The files of a chunk read in one batch (`FileRing`), ahead of their records: each one's status
/// and bytes, for `recordFromBytes`. A file the batch did not read whole (not a regular file,
/// larger than `RecordScratch.sizeLimit`, gone, changed in size since its status was taken, or
/// any error) has none, and is read on its own the usual way, which says why. Where there is no
/// ring, no file has any. Used by one thread at a time.
final class FileBatch {
    /// Made on first use, by the thread that reads; nil where the system gives none.
    private lazy var ring = FileRing(slots: FileBatch.size)
    /// The files' bytes, one after the other, each with room for one byte more than its status's
    /// size (a read that fills it means the file grew).
    private var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// The paths as C strings, one after the other.
    private var names = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// For each file of the last batch, its status and where its bytes are in `storage`.
    private var files: [(status: FileStatus, bytes: Range<Int>)?] = []
    /// The open flags' `O_NOATIME`, dropped for good once a file refuses it (not the reader's).
    private var noAccessTime = LibC.noAccessTime

    /// Called between the files' statuses and their reading (tests change a file there).
    var beforeReading: (() -> Void)?

    /// How many files a batch holds at most.
    static let size = 32
    /// How many bytes a batch's files take at most (the others are read one by one), so that the
    /// memory kept for them stays small.
    static let budget = 4 << 20

    deinit {
        storage.deallocate()
        names.deallocate()
    }

    /// Reads the files at `paths` (at most `size`, relative to the open folder `root`) in one batch;
    /// without `root`, none.
    func read(_ paths: some Collection<String>, relativeTo root: Int32?) {
        files.removeAll(keepingCapacity: true)
        guard let root, !paths.isEmpty, let ring, paths.count <= ring.slots else { return }
        let nameBytes = paths.reduce(0) { $0 + $1.utf8.count + 1 }
        if nameBytes > names.count {
            names.deallocate()
            names = .allocate(byteCount: max(nameBytes, 4096), alignment: 16)
        }
        let base = names.baseAddress.unsafelyUnwrapped
        var cNames: [UnsafePointer<CChar>] = []
        var at = 0
        for path in paths {
            var path = path
            cNames.append(UnsafePointer((base + at).assumingMemoryBound(to: CChar.self)))
            path.withUTF8 { utf8 in
                if let bytes = utf8.baseAddress { (base + at).copyMemory(from: bytes, byteCount: utf8.count) }
                at += utf8.count
            }
            names[at] = 0
            at += 1
        }
        let flags = FileSystem.noteFlags | noAccessTime
        guard let opened = ring.open(cNames, relativeTo: root, flags: flags) else { return }
        // The status of the file opened (the very file read): a regular file of a size the fast
        // path takes, else it is only closed.
        var statuses: [FileStatus?] = []
        var need = 0
        for fd in opened {
            if fd == -Int(EPERM) && noAccessTime != 0 { noAccessTime = 0 }
            var st = stat()
            guard fd >= 0, fstat(Int32(fd), &st) == 0 else {
                statuses.append(nil)
                continue
            }
            let status = FileSystem.makeStatus(st)
            let fits =
                status.kind == .regular && status.size >= 0 && status.size <= RecordScratch.sizeLimit
                && need + Int(status.size) + 1 <= FileBatch.budget
            statuses.append(fits ? status : nil)
            if fits { need += Int(status.size) + 1 }
        }
        // A kernel that knows io_uring but not its open (before Linux 5.6): the ring is let go.
        if !opened.isEmpty && opened.allSatisfy({ $0 == -Int(EINVAL) }) { self.ring = nil }
        if need > storage.count {
            storage.deallocate()
            storage = .allocate(byteCount: max(need, 1 << 16), alignment: 16)
        }
        var reads: [FileRing.Read] = []
        var ranges: [Range<Int>?] = []
        var offset = 0
        for (fd, status) in zip(opened, statuses) where fd >= 0 {
            guard let status else {
                reads.append(FileRing.Read(fd: Int32(fd), buffer: nil, capacity: 0))
                ranges.append(nil)
                continue
            }
            // One byte more than the size: a read that fills it means the file grew.
            let capacity = Int(status.size) + 1
            let buffer = storage.baseAddress.unsafelyUnwrapped + offset
            reads.append(FileRing.Read(fd: Int32(fd), buffer: buffer, capacity: capacity))
            ranges.append(offset..<(offset + capacity))
            offset += capacity
        }
        beforeReading?()
        guard let counts = ring.readAndClose(reads) else {
            // The kernel may still write the buffers it was given: they are left to it.
            storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
            return
        }
        var r = 0
        for (fd, status) in zip(opened, statuses) {
            guard fd >= 0 else {
                files.append(nil)
                continue
            }
            defer { r += 1 }
            guard let status, let range = ranges[r] else {
                files.append(nil)
                continue
            }
            // All the bytes its status counted, no more and no fewer: else it changed meanwhile.
            let whole = counts[r] == Int(status.size)
            files.append(whole ? (status, range.lowerBound..<(range.lowerBound + counts[r])) : nil)
        }
    }

    /// The status and bytes of file `i` of the last batch, when the batch read it whole.
    func file(_ i: Int) -> (status: FileStatus, bytes: UnsafeBufferPointer<UInt8>)? {
        guard i < files.count, let (status, range) = files[i] else { return nil }
        let base = storage.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
        return (status, UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }
}
