import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Many small files read with two system calls (Linux's io_uring): one that opens them all, relative
/// to a folder, and one that reads each into its own buffer and closes it, each batch submitted
/// and waited for at once. A first index reads 100,000 notes: an open, a read and a close each cost
/// it about a tenth of its time. Used by one thread at a time; nil where the system has no io_uring
/// (another system, an old kernel, a sandbox that forbids it), and the files are then read one by
/// one as before.
final class FileRing {
    /// A file to read, open (`fd`): where its bytes go, and how many at most; or with no buffer,
    /// only to be closed.
    struct Read {
        var fd: Int32
        var buffer: UnsafeMutableRawPointer?
        var capacity: Int
    }

    /// How many files a batch holds at most.
    let slots: Int

    /// Whether io_uring may be tried: not when `NOTES_IO_URING=0` asks for the files to be read
    /// one by one (to compare the two ways, or where a kernel's io_uring misbehaves).
    static let allowed = ProcessInfo.processInfo.environment["NOTES_IO_URING"] != "0"

    #if os(Linux)
        private let fd: Int32
        private let ring: UnsafeMutableRawBufferPointer
        private let entries: UnsafeMutableRawBufferPointer
        private let sqTail: UnsafeMutablePointer<UInt32>
        private let sqMask: UInt32
        private let cqHead: UnsafeMutablePointer<UInt32>
        private let cqTail: UnsafeMutablePointer<UInt32>
        private let cqMask: UInt32
        private let cqes: UnsafeMutableRawPointer
        /// Set when the kernel refused the ring in a way a batch cannot recover from: the files are
        /// then read one by one, and the buffers given to the batch that failed are never used again.
        private var broken = false

        /// The system calls, by number (the same on every Linux architecture, io_uring being newer
        /// than the unified table): glibc has no wrappers, and Swift cannot call its variadic
        /// `syscall`, which is called through a pointer of fixed arity instead (its arguments go
        /// in the same registers).
        private static let setupCall = 425
        private static let enterCall = 426
        private typealias Syscall = @convention(c) (Int, Int, Int, Int, Int, Int, Int) -> Int
        private static let syscall = LibC.function("syscall", as: Syscall.self)

        /// A ring for batches of up to `slots` files, or nil where io_uring cannot be had.
        init?(slots: Int) {
            guard let call = FileRing.syscall, slots > 0 else { return nil }
            self.slots = slots
            // `struct io_uring_params`: 120 bytes, the kernel fills in the offsets.
            var params = [UInt32](repeating: 0, count: 30)
            let depth = 1 << (Int.bitWidth - (2 * slots - 1).leadingZeroBitCount)
            let fd = params.withUnsafeMutableBytes {
                call(FileRing.setupCall, depth, Int(bitPattern: $0.baseAddress), 0, 0, 0, 0)
            }
            guard fd >= 0 else { return nil }
            self.fd = Int32(fd)
            let (sqEntries, cqEntries, features) = (Int(params[0]), Int(params[1]), params[5])
            // sq_off at byte 40 (head, tail, ring_mask, ring_entries, flags, dropped, array),
            // cq_off at byte 80 (head, tail, ring_mask, ring_entries, overflow, cqes).
            let (sqTail, sqMaskAt, sqArray) = (params[11], params[12], params[16])
            let (cqHead, cqTail, cqMaskAt, cqesAt) = (params[20], params[21], params[22], params[25])
            let singleMap: UInt32 = 1 << 0  // IORING_FEAT_SINGLE_MMAP: both rings in one mapping
            guard features & singleMap != 0 else {
                Glibc.close(self.fd)
                return nil
            }
            let ringSize = max(Int(sqArray) + sqEntries * 4, Int(cqesAt) + cqEntries * 16)
            let protection = PROT_READ | PROT_WRITE
            let shared = MAP_SHARED | MAP_POPULATE
            guard let ring = mmap(nil, ringSize, protection, shared, self.fd, 0), ring != MAP_FAILED else {
                Glibc.close(self.fd)
                return nil
            }
            // IORING_OFF_SQES
            guard let entries = mmap(nil, sqEntries * 64, protection, shared, self.fd, 0x1000_0000),
                entries != MAP_FAILED
            else {
                munmap(ring, ringSize)
                Glibc.close(self.fd)
                return nil
            }
            self.ring = UnsafeMutableRawBufferPointer(start: ring, count: ringSize)
            self.entries = UnsafeMutableRawBufferPointer(start: entries, count: sqEntries * 64)
            func word(_ offset: UInt32) -> UnsafeMutablePointer<UInt32> {
                (ring + Int(offset)).assumingMemoryBound(to: UInt32.self)
            }
            self.sqTail = word(sqTail)
            self.sqMask = word(sqMaskAt).pointee
            self.cqHead = word(cqHead)
            self.cqTail = word(cqTail)
            self.cqMask = word(cqMaskAt).pointee
            self.cqes = ring + Int(cqesAt)
            // Each submission slot names the entry of the same index, once and for all.
            let array = word(sqArray)
            for i in 0..<sqEntries { array[i] = UInt32(i) }
        }

        deinit {
            munmap(entries.baseAddress, entries.count)
            munmap(ring.baseAddress, ring.count)
            Glibc.close(fd)
        }

        /// Opens each of `paths` (at most `slots`; C strings) with `flags`, relative to the folder
        /// `directory`; returns for each its descriptor or a negative `errno`. Nil when the ring
        /// failed as a whole (`broken`).
        func open(_ paths: [UnsafePointer<CChar>], relativeTo directory: Int32, flags: Int32) -> [Int]? {
            run(paths.count) { i, sqe in
                sqe.storeBytes(of: 18, as: UInt8.self)  // IORING_OP_OPENAT
                sqe.storeBytes(of: directory, toByteOffset: 4, as: Int32.self)
                sqe.storeBytes(of: UInt64(UInt(bitPattern: paths[i])), toByteOffset: 16, as: UInt64.self)
                sqe.storeBytes(of: UInt32(bitPattern: flags), toByteOffset: 28, as: UInt32.self)
            }
        }

        /// Reads each of `reads` (at most `slots`) from its start into its buffer, and closes it
        /// (whatever the read did); returns for each the count of bytes read or a negative `errno`.
        /// Nil when the ring failed as a whole (`broken`): the buffers must then not be used again
        /// (the kernel may still write them), nor the descriptors closed (they may be already).
        func readAndClose(_ reads: [Read]) -> [Int]? {
            let results = run(reads.count * 2) { i, sqe in
                let read = reads[i / 2]
                sqe.storeBytes(of: read.fd, toByteOffset: 4, as: Int32.self)
                guard i % 2 == 0 else {
                    sqe.storeBytes(of: 19, as: UInt8.self)  // IORING_OP_CLOSE
                    return
                }
                guard let buffer = read.buffer else {
                    sqe.storeBytes(of: 0, as: UInt8.self)  // IORING_OP_NOP
                    return
                }
                sqe.storeBytes(of: 22, as: UInt8.self)  // IORING_OP_READ, from offset 0
                // Hard-linked: the close waits for the read, and follows even a failed or short one.
                sqe.storeBytes(of: 1 << 3, toByteOffset: 1, as: UInt8.self)  // IOSQE_IO_HARDLINK
                sqe.storeBytes(of: UInt64(UInt(bitPattern: buffer)), toByteOffset: 16, as: UInt64.self)
                let length = UInt32(min(read.capacity, Int(UInt32.max)))
                sqe.storeBytes(of: length, toByteOffset: 24, as: UInt32.self)
            }
            return results.map { results in reads.indices.map { results[$0 * 2] } }
        }

        /// Submits `count` entries (at most the ring's), each made by `prepare(i, entry)` from a
        /// zeroed one, and waits for all; returns each one's result (by `i`). Nil when the kernel
        /// refuses in a way a batch cannot recover from, which leaves the ring `broken`.
        private func run(_ count: Int, prepare: (Int, UnsafeMutableRawPointer) -> Void) -> [Int]? {
            guard !broken, let call = FileRing.syscall else { return nil }
            precondition(count <= entries.count / 64, "a batch larger than the ring")
            var tail = sqTail.pointee
            for i in 0..<count {
                let sqe = entries.baseAddress.unsafelyUnwrapped + Int(tail & sqMask) * 64
                sqe.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
                prepare(i, sqe)
                sqe.storeBytes(of: UInt64(i), toByteOffset: 32, as: UInt64.self)  // user_data
                tail &+= 1
            }
            // The kernel reads the tail only in the call below (no polling thread), which no store
            // above can be moved past.
            sqTail.pointee = tail
            var results = [Int](repeating: -Int(ECANCELED), count: count)
            var (submitted, completed, refusals) = (0, 0, 0)
            while completed < count {
                let (toSubmit, toWaitFor, getEvents) = (count - submitted, count - completed, 1)
                let n = call(FileRing.enterCall, Int(fd), toSubmit, toWaitFor, getEvents, 0, 0)
                if n < 0 {
                    let error = errno
                    refusals += 1
                    guard error == EINTR || error == EAGAIN || error == EBUSY, refusals < 1000 else {
                        broken = true
                        return nil
                    }
                } else {
                    submitted += n
                }
                var head = cqHead.pointee
                while head != cqTail.pointee {
                    let cqe = cqes + Int(head & cqMask) * 16
                    let i = Int(cqe.load(as: UInt64.self))
                    if i < count { results[i] = Int(cqe.load(fromByteOffset: 8, as: Int32.self)) }
                    head &+= 1
                    completed += 1
                }
                cqHead.pointee = head
            }
            return results
        }

    #else
        init?(slots: Int) { return nil }

        func open(_ paths: [UnsafePointer<CChar>], relativeTo directory: Int32, flags: Int32) -> [Int]? {
            nil
        }

        func readAndClose(_ reads: [Read]) -> [Int]? { nil }
    #endif
}
