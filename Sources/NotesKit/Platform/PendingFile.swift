import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A temp file beside `path`, written in pieces — appended, or at an offset — then closed (fsync,
/// unless it is only a cache) and put in place, or removed. Registered so that a signal removes
/// it; errors name `path`, the file the temp is for, and the first write error is kept for
/// `close`. Not for use from two threads at once.
final class PendingFile: @unchecked Sendable {
    /// The file this temp will become.
    let path: String
    private let temp: TemporaryFiles.Entry
    private let fd: Int32
    private var failure: Int32 = 0
    private var closed = false
    /// What `append` has gathered, and where the file ends.
    private var gathering = Gathering(end: 0)
    /// How many bytes were appended.
    var length: Int { gathering.end }
    /// Whether the file must reach the disk before it is put in place (fsync of the file, and of
    /// the folder after the rename). Not for a cache that tells its own damage from its bytes (the
    /// index, with its checksums): the rename alone keeps a reader from ever seeing a torn file,
    /// and a power cut that loses the bytes costs one rebuild. Waiting for the disk there made a
    /// first index take seconds longer on a busy or slow disk, for nothing the user keeps.
    private let durable: Bool

    /// A new, empty temp beside `path`; stale temps of dead processes in that folder are swept
    /// first, unless the caller has (`sweep` false: many files of one folder). `durable` false:
    /// a cache, never synced (see `durable`).
    init(beside path: String, sweep: Bool = true, durable: Bool = true) throws(FileSystemError) {
        self.path = path
        self.durable = durable
        let parent = FileSystem.parentFolder(of: path)
        let directory = parent.isEmpty ? "." : parent
        if sweep { FileSystem.sweepStaleTemps(in: directory) }
        WriteStep.take(.create)
        // A short fixed name, so a long note name never makes the temp name too long; the pid
        // says whose it is, so a sweep never takes the temp of a process still writing it.
        switch TemporaryFiles.shared.makeTemp(directory + "/" + FileSystem.tempPrefix + "\(getpid())-XXXXXX")
        {
        case .success(let made): (fd, temp) = made
        case .failure(let error): throw .writeFailed(path: path, reason: error.description)
        }
    }

    deinit {
        abandon()
    }

    /// Appends `chunk`.
    func append(_ chunk: UnsafeRawBufferPointer) {
        gathering.append(chunk, write: writeAll)
    }

    /// Appends `pieces`, in order, in writes of about a megabyte each (`pwritev`, `writeSize`).
    func append(all pieces: [UnsafeRawBufferPointer]) {
        flush()
        var iovecs = pieces.filter { !$0.isEmpty }.map(PendingFile.vector)
        let offset = gathering.end
        gathering.end += pieces.reduce(0) { $0 + $1.count }
        if failure == 0 { failure = PendingFile.writeAll(&iovecs, to: fd, at: offset) }
    }

    /// Appends the pieces `pieces` hands its argument, in order, written on all cores: each
    /// core writes a run of them at their offsets, gathering small ones as `append` does.
    /// (Copying tens of megabytes into the page cache is work a core does at the speed of
    /// memory.) `pieces` is called once to size them, then once on each core, at the same time.
    func appendOnAllCores(_ pieces: @Sendable ((UnsafeRawBufferPointer) -> Void) -> Void) {
        flush()
        var sizes: [Int] = []
        pieces { sizes.append($0.count) }
        let total = sizes.reduce(0, +)
        let start = length
        gathering.end += total
        guard failure == 0, total > 0 else { return }
        // Runs of about equal bytes, cut between pieces: run `w` is pieces cuts[w]..<cuts[w + 1].
        let workers = max(1, min(sizes.count, ProcessInfo.processInfo.activeProcessorCount))
        var cuts = [0]
        var sum = 0
        for (i, size) in sizes.enumerated() {
            sum += size
            if cuts.count < workers && sum * workers >= total * cuts.count { cuts.append(i + 1) }
        }
        while cuts.count <= workers { cuts.append(sizes.count) }
        let (fd, runs, sized) = (fd, cuts, sizes)
        let failures = Parallel.map(count: workers, chunk: 1) { w -> Int32 in
            var failure: Int32 = 0
            func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
                if failure == 0 { failure = PendingFile.writeAll(bytes, to: fd, at: offset) }
            }
            var run = Gathering(end: start + sized[..<runs[w]].reduce(0, +))
            var number = 0
            pieces { piece in
                defer { number += 1 }
                if number >= runs[w] && number < runs[w + 1] { run.append(piece, write: write) }
            }
            run.flush(write: write)
            return failure
        }
        failure = failures.first { $0 != 0 } ?? 0
    }

    /// Writes out what `append` gathered.
    private func flush() {
        gathering.flush(write: writeAll)
    }

    /// Writes `chunk` at `offset` (a placeholder filled in at the end, say), after what `append`
    /// gathered, so that it is not written over.
    func write(_ chunk: UnsafeRawBufferPointer, at offset: Int) {
        flush()
        writeAll(chunk, at: offset)
    }

    private func writeAll(_ chunk: UnsafeRawBufferPointer, at offset: Int) {
        if failure == 0 { failure = PendingFile.writeAll(chunk, to: fd, at: offset) }
    }

    /// How many bytes one write call takes at most. A megabyte costs the kernel half what the same
    /// bytes cost in writes of tens of kilobytes (it takes them into the page cache in larger
    /// folios); writes of several megabytes (3.5 at a time, say) cost more again on a machine
    /// whose memory was fragmented, the kernel compacting it to find still larger folios.
    static let writeSize = 1 << 20

    /// Writes `chunk` at `offset` of `fd`; returns the error number of a write that failed, or 0.
    private static func writeAll(_ chunk: UnsafeRawBufferPointer, to fd: Int32, at offset: Int) -> Int32 {
        guard !chunk.isEmpty else { return 0 }
        var one = [vector(chunk)]
        return writeAll(&one, to: fd, at: offset)
    }

    /// The `iovec` of `piece`, for `pwritev`.
    private static func vector(_ piece: UnsafeRawBufferPointer) -> iovec {
        iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress), iov_len: piece.count)
    }

    /// Writes the bytes `iovecs` point at, one after the other, at `offset` of `fd` (`iovecs` is
    /// used up); returns the error number of a write that failed, or 0.
    private static func writeAll(_ iovecs: inout [iovec], to fd: Int32, at offset: Int) -> Int32 {
        var (first, offset) = (0, offset)
        while first < iovecs.count {
            guard WriteStep.mayWrite() else { return errno }
            // About a megabyte a call (`writeSize`).
            var (count, bytes) = (1, iovecs[first].iov_len)
            while first + count < iovecs.count && count < 1024  // IOV_MAX on Linux and macOS
                && bytes + iovecs[first + count].iov_len <= PendingFile.writeSize
            {
                bytes += iovecs[first + count].iov_len
                count += 1
            }
            let n =
                bytes > PendingFile.writeSize  // one piece larger than that: its first megabyte
                ? pwrite(fd, iovecs[first].iov_base, PendingFile.writeSize, off_t(offset))
                : iovecs.withUnsafeBufferPointer {
                    pwritev(fd, $0.baseAddress.map { $0 + first }, Int32(count), off_t(offset))
                }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            // Past the pieces written whole, and into the one written in part.
            offset += n
            var left = n
            while first < iovecs.count && left >= iovecs[first].iov_len {
                left -= iovecs[first].iov_len
                first += 1
            }
            if left > 0 {
                iovecs[first].iov_base = iovecs[first].iov_base.map { $0 + left }
                iovecs[first].iov_len -= left
            }
        }
        return 0
    }

    /// Starts writing what is written so far to the disk, without waiting, so that `close` has
    /// less to wait for (Linux; elsewhere `close` does it all).
    func startWriteback() {
        flush()
        guard durable else { return }
        #if os(Linux)
            _ = PendingFile.syncFileRange?(fd, 0, 0, 2)  // SYNC_FILE_RANGE_WRITE
        #endif
    }

    #if os(Linux)
        /// glibc's `sync_file_range`, which its headers declare only under `_GNU_SOURCE`.
        private static let syncFileRange = LibC.function(
            "sync_file_range", as: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    #endif

    /// Gives the file `mode`, writes it to the disk (unless `sync` is false: the caller makes it
    /// durable with others, at once; or the file is not `durable`) and closes it; the temp is
    /// returned for the caller to put in place (or remove). Throws, naming `path`, when any write
    /// failed.
    func close(mode: mode_t, sync: Bool = true) throws(FileSystemError) -> TemporaryFiles.Entry {
        flush()
        closed = true
        let sync = sync && durable
        if sync { WriteStep.take(.sync) }
        if failure == 0 && (fchmod(fd, mode) != 0 || (sync && fsync(fd) != 0)) { failure = errno }
        if LibC.close(fd) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            FileSystem.discard(temp)
            throw .writeFailed(path: path, reason: String(cString: strerror(failure)))
        }
        return temp
    }

    /// Closes the file and removes it, now: nothing of it is kept.
    func abandon() {
        guard !closed else { return }
        closed = true
        _ = LibC.close(fd)
        FileSystem.discard(temp)
    }

    /// Closes the file (see `close`) and renames it over `path`: a crash leaves the old file or
    /// the new one, never a torn one.
    func commit(mode: mode_t) throws(FileSystemError) {
        let temp = try close(mode: mode)
        FileSystem.pauseIfTesting()
        WriteStep.take(.rename)
        guard rename(temp.path, path) == 0 else {
            let reason = FileSystem.lastError()
            FileSystem.discard(temp)
            throw .writeFailed(path: path, reason: reason)
        }
        FileSystem.forget(temp)
        if durable { FileSystem.syncDirectory(of: path) }
    }
}

/// Pieces appended at the end of a file: small ones (a kept note's folded text) gathered into
/// writes of about a megabyte, long ones (a table) written as they are (a megabyte a call,
/// `writeSize`), where copying them would cost more than the system calls it saves. (A batch's
/// folded texts, a buffer for each chunk of notes, go out with `append(all:)`, by `pwritev`.)
private struct Gathering {
    static let bufferSize = PendingFile.writeSize
    static let directSize = 1 << 14
    /// Where the file ends, with what is gathered.
    var end: Int
    private var buffer: [UInt8] = []

    init(end: Int) { self.end = end }

    /// Appends `piece`, calling `write` (bytes, offset) for what goes out now.
    mutating func append(_ piece: UnsafeRawBufferPointer, write: (UnsafeRawBufferPointer, Int) -> Void) {
        if buffer.count + piece.count > Self.bufferSize || piece.count >= Self.directSize {
            flush(write: write)
        }
        end += piece.count
        if piece.count >= Self.directSize {
            write(piece, end - piece.count)
        } else {
            if buffer.capacity == 0 { buffer.reserveCapacity(Self.bufferSize) }
            buffer.append(contentsOf: piece)
        }
    }

    /// Writes out what was gathered.
    mutating func flush(write: (UnsafeRawBufferPointer, Int) -> Void) {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { write($0, end - buffer.count) }
        buffer.removeAll(keepingCapacity: true)
    }
}
