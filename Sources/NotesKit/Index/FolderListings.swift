import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// What one folder of the vault held when a survey last listed it: the entries the walk kept
/// (files and folders neither hidden nor ignored, and every symlink not hidden, which the walk
/// looks at afresh), so that a later survey need not list the folder again while it is as it was
/// (git's untracked cache does the same). Listing a folder of 100,000 notes costs about a
/// quarter of a fresh walk's CPU time; replaying what it held costs next to nothing.
///
/// A folder's entries can only change with its times: making, removing or renaming an entry
/// sets its modification and status-change times to now, and no call sets a status-change time
/// back (only the clock being set back could). So a listing is replayed only while the folder's
/// device, inode and both times are those stamped just before it was listed, and the ignore
/// rules its entries were filtered by are the same. It is kept only when it can be trusted
/// (`mayKeep(_:of:now:settle:)`), and only when the whole folder was listed without an error.
struct FolderListing: Equatable, Sendable {
    /// A folder's identity and times, as `fstat` gives them.
    struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        /// Nanoseconds since 1970.
        var mtime: Int64
        var ctime: Int64
    }

    /// What an entry is; it comes before the entry's name in `entries`.
    enum Kind: UInt8 {
        /// A regular file the walk keeps (a note, or one of the vault's other files).
        case file = 0
        /// A folder the walk goes into.
        case folder = 1
        /// A symlink, whatever it leads to: that can change while the folder does not, so it
        /// is looked at afresh each time.
        case symlink = 2
    }

    var stamp: Stamp
    /// The fingerprint of the ignore rules the entries were filtered by (`IgnoreRules.fingerprint`).
    var rules: UInt64
    /// The entries, in the order the folder listed them: a kind, the name, a NUL. (A slice: those
    /// loaded from the file share its bytes.)
    var entries: ArraySlice<UInt8> = []

    /// How long a folder must have been left alone before its listing is kept: a change within
    /// the same tick of the file system's clock as the stamp would not move its times. A second
    /// is far more than any tick.
    static let settle: Int64 = 1_000_000_000

    /// The time now, in nanoseconds since 1970, as the file systems' clock reads it.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return FileSystem.nanoseconds(Int64(time.tv_sec), Int64(time.tv_nsec))
    }

    /// Whether a listing of the open folder `fd` stamped `stamp` may be kept, `now` (nanoseconds
    /// since 1970) read before the stamp was taken and the folder listed: its times are known to
    /// move with its entries (`keepsFolderTimes`), they have nanoseconds (a file system that keeps
    /// whole seconds makes a stamp far likelier to come round again after the clock is set back),
    /// and neither is within `settle` of `now`. Else the folder is listed each time.
    static func mayKeep(_ stamp: Stamp, of fd: Int32, now: Int64, settle: Int64 = settle) -> Bool {
        let second: Int64 = 1_000_000_000
        return (stamp.mtime % second != 0 || stamp.ctime % second != 0)
            && max(stamp.mtime, stamp.ctime) <= now - settle && keepsFolderTimes(fd)
    }

    /// Whether the folder `fd` is on a local file system known to update a folder's times on
    /// every change of its entries, and is not encrypted. Network and FUSE file systems may
    /// cache times or not keep them, and overlays report a lower layer's folder until it is
    /// copied up; an encrypted folder (fscrypt) lists other names once its key is added, its
    /// times staying as they were.
    static func keepsFolderTimes(_ fd: Int32) -> Bool {
        #if canImport(Darwin)
            var fs = statfs()
            guard fstatfs(fd, &fs) == 0 else { return false }
            let name = withUnsafeBytes(of: fs.f_fstypename) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return ["apfs", "hfs"].contains(name)
        #elseif arch(x86_64) || arch(arm64)
            // `struct statfs` begins with `f_type`, a long, on 64-bit Linux; the buffer is larger
            // than the whole struct (120 bytes).
            guard let fstatfs = fileSystemStatus else { return false }
            var status = [Int](repeating: 0, count: 32)
            let found = status.withUnsafeMutableBytes { buffer in buffer.baseAddress.map { fstatfs(fd, $0) } }
            // ext2/3/4, XFS, Btrfs, tmpfs, F2FS, ZFS.
            let known: Set<Int> = [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0xF2F5_2010, 0x2FC1_2FC1]
            guard found == 0, known.contains(status[0]), let statx = extendedStatus else { return false }
            // `struct statx`: `stx_attributes` at byte 8; `STATX_ATTR_ENCRYPTED`. "" and
            // `AT_EMPTY_PATH`: the folder `fd` itself.
            var extended = [UInt64](repeating: 0, count: 32)
            let told = extended.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { statx(fd, "", 0x1000, 0, $0) }
            }
            return told == 0 && extended[1] & 0x800 == 0
        #else
            return false
        #endif
    }

    #if !canImport(Darwin)
        /// glibc's `fstatfs`, which Swift's Glibc module does not bring in, through a pointer.
        private typealias FileSystemStatus = @convention(c) (Int32, UnsafeMutableRawPointer) -> Int32
        private static let fileSystemStatus = LibC.function("fstatfs", as: FileSystemStatus.self)

        /// glibc's `statx` (2.28 and later), likewise; nil before it, and then nothing is kept.
        private typealias ExtendedStatus =
            @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) -> Int32
        private static let extendedStatus = LibC.function("statx", as: ExtendedStatus.self)
    #endif

    /// Calls `body` with each entry's kind, its name, and its name with the NUL after it. (A
    /// listing loaded from the file is `wellFormed`: a file with any other is no file.)
    func forEachEntry(_ body: (Kind, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void) {
        _ = entries.withUnsafeBytes { entries in
            FolderListing.walk(entries) { kind, name, raw in
                body(kind, name, raw)
                return true
            }
        }
    }

    /// Whether `entries` are entries as `add` makes them, of names a folder can list: a kind, a
    /// name that is not empty, has no slash and does not start with a dot, and a NUL.
    static func wellFormed(_ entries: UnsafeRawBufferPointer) -> Bool {
        walk(entries) { _, name, _ in
            name.first.map { $0 != UInt8(ascii: ".") } == true
                && !name.contains(UInt8(ascii: "/"))
        }
    }

    /// Calls `body` with each of `entries`' kind, name, and name with its NUL, while it says
    /// true; false when it said false, or the entries are not a kind, a name and a NUL each.
    private static func walk(
        _ entries: UnsafeRawBufferPointer,
        _ body: (Kind, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        guard let base = entries.baseAddress else { return true }
        var i = 0
        while i < entries.count {
            guard let kind = Kind(rawValue: entries[i]),
                let nul = memchr(base + i + 1, 0, entries.count - i - 1)
            else { return false }
            let end = base.distance(to: UnsafeRawPointer(nul))
            let name = UnsafeRawBufferPointer(rebasing: entries[(i + 1)..<end])
            guard body(kind, name, UnsafeRawBufferPointer(rebasing: entries[(i + 1)...end])) else {
                return false
            }
            i = end + 1
        }
        return true
    }

    /// Adds an entry.
    mutating func add(_ kind: Kind, _ name: UnsafeRawBufferPointer) {
        entries.append(kind.rawValue)
        entries.append(contentsOf: name)
        entries.append(0)
    }
}

extension FolderListing.Stamp {
    /// A folder's stamp, from its status.
    init(_ st: stat) {
        #if canImport(Darwin)
            let (m, c) = (st.st_mtimespec, st.st_ctimespec)
        #else
            let (m, c) = (st.st_mtim, st.st_ctim)
        #endif
        self.init(
            device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(st.st_ino),
            mtime: FileSystem.nanoseconds(Int64(m.tv_sec), Int64(m.tv_nsec)),
            ctime: FileSystem.nanoseconds(Int64(c.tv_sec), Int64(c.tv_nsec)))
    }
}

/// The kept listings of a vault's folders, by vault-relative path (as bytes: two names that
/// differ only in Unicode normalization are two folders). Kept in a cache file beside the index
/// (`index.folders`), written atomically, checked by a checksum; a file that fails any check is
/// no file, and costs one listing of every folder.
///
///     magic     "MYNOTES-FOLDERS\n"
///     version   u32
///     count     u32
///     checksum  u64 (`IndexChecksum`) of everything after it
///     records   count × (path length u32, path, device u64, inode u64, mtime i64, ctime i64,
///               rules u64, entries length u32, entries), little-endian
struct FolderListings: Sendable {
    static let magic = Array("MYNOTES-FOLDERS\n".utf8)
    /// Bump when what the walk keeps of a folder changes (which names are hidden or notes, how
    /// ignore files match, what is kept of a symlink): listings the old walk made would be
    /// replayed as they are.
    static let version: UInt32 = 1
    var byPath: [[UInt8]: FolderListing] = [:]

    /// The path of the file beside the index at `indexPath`.
    static func path(besideIndex indexPath: String) -> String { indexPath + ".folders" }

    /// The listings in the file at `path`; nil when there is none or it fails a check.
    static func load(_ path: String) -> FolderListings? {
        guard let (bytes, _) = try? FileSystem.read(path) else { return nil }
        return FolderListings(decoding: bytes)
    }

    /// The file's bytes, records in byte order of their paths (the same listings, the same file).
    func encoded() -> [UInt8] {
        var bytes = FolderListings.magic
        bytes.reserveCapacity(
            byPath.reduce(bytes.count + 16) { $0 + 48 + $1.key.count + $1.value.entries.count })
        NoteIndexFile.append(FolderListings.version, to: &bytes)
        NoteIndexFile.append(UInt32(byPath.count), to: &bytes)
        let checksumAt = bytes.count
        NoteIndexFile.append(UInt64(0), to: &bytes)
        for (path, listing) in byPath.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            NoteIndexFile.append(UInt32(path.count), to: &bytes)
            bytes += path
            for value in [
                listing.stamp.device, listing.stamp.inode, UInt64(bitPattern: listing.stamp.mtime),
                UInt64(bitPattern: listing.stamp.ctime), listing.rules,
            ] {
                NoteIndexFile.append(value, to: &bytes)
            }
            NoteIndexFile.append(UInt32(listing.entries.count), to: &bytes)
            bytes += listing.entries
        }
        let checksum = bytes.withUnsafeBytes {
            IndexChecksum.of(UnsafeRawBufferPointer(rebasing: $0[(checksumAt + 8)...]))
        }
        withUnsafeBytes(of: checksum.littleEndian) {
            bytes.replaceSubrange(checksumAt..<(checksumAt + 8), with: $0)
        }
        return bytes
    }

    init() {}

    /// The listings `encoded` made into `bytes`; nil when they are not that.
    init?(decoding bytes: [UInt8]) {
        guard
            let listings = bytes.withUnsafeBytes({ raw -> [[UInt8]: FolderListing]? in
                // Each folder's entries are a slice of `bytes`, not a copy.
                var reader = ByteReader(bytes: raw)
                guard reader.take(FolderListings.magic.count).map(Array.init) == FolderListings.magic,
                    reader.u32() == FolderListings.version, let count = reader.u32(),
                    let checksum = reader.u64(),
                    IndexChecksum.of(UnsafeRawBufferPointer(rebasing: raw[reader.offset...])) == checksum
                else { return nil }
                var listings: [[UInt8]: FolderListing] = [:]
                for _ in 0..<count {
                    guard let pathLength = reader.u32(), let path = reader.take(Int(pathLength)),
                        let device = reader.u64(), let inode = reader.u64(), let mtime = reader.u64(),
                        let ctime = reader.u64(), let rules = reader.u64(), let entries = reader.range(),
                        FolderListing.wellFormed(UnsafeRawBufferPointer(rebasing: raw[entries]))
                    else { return nil }
                    listings[Array(path)] = FolderListing(
                        stamp: .init(
                            device: device, inode: inode, mtime: Int64(bitPattern: mtime),
                            ctime: Int64(bitPattern: ctime)),
                        rules: rules, entries: bytes[entries])
                }
                return reader.offset == raw.count ? listings : nil
            })
        else { return nil }
        byPath = listings
    }
}
