import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Tells when the vault's folders change: a file added, removed or replaced in one of them (and,
/// with inotify, a file rewritten in place). It watches the folders the walk visits — hidden ones
/// and those the ignore files ignore left out — with inotify where the system has it, else by
/// comparing the folders' modification times, which change whenever an entry is added, removed or
/// renamed and cost one `stat` each. Used from one thread.
final class FolderWatch {
    /// How the folders are watched.
    enum Mode: Equatable, Sendable {
        /// Told by the kernel (inotify), falling back to `polling` where that fails.
        case automatic
        /// The folders' modification times compared at every `wait`.
        case polling
        /// Not watched: only refreshes asked for see changes.
        case none
    }

    let root: String
    private(set) var mode: Mode
    /// The folders watched (vault-relative, "" for the top), with their modification time and
    /// inode when polling.
    private var folders: [String: FolderStamp] = [:]
    #if canImport(Glibc)
        private var inotify: Int32 = -1
        private var watches: [Int32: String] = [:]
        private var watched: [String: Int32] = [:]
    #endif

    /// A folder's modification time (to the nanosecond) and inode.
    private struct FolderStamp: Equatable {
        var seconds: Int
        var nanoseconds: Int
        var inode: UInt64
    }

    init(root: String, mode: Mode) {
        self.root = root
        self.mode = mode
        #if canImport(Glibc)
            if mode == .automatic {
                inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
                if inotify < 0 { self.mode = .polling }
            }
        #else
            if mode == .automatic { self.mode = .polling }
        #endif
    }

    deinit {
        #if canImport(Glibc)
            if inotify >= 0 { close(inotify) }
        #endif
    }

    /// Whether the kernel tells of changes (so rewrites in place are seen at once too).
    var usesInotify: Bool {
        #if canImport(Glibc)
            return mode == .automatic && inotify >= 0
        #else
            return false
        #endif
    }

    /// Lists the vault's folders afresh and watches each (done before the catalog is brought up
    /// to date, so that a change made while it is cannot go unseen).
    func rescan() {
        guard mode != .none else { return }
        let found = FolderWatch.folders(root: root)
        var stamps: [String: FolderStamp] = [:]
        for folder in found { stamps[folder] = stamp(folder) }
        folders = stamps
        #if canImport(Glibc)
            guard usesInotify else { return }
            let mask = UInt32(
                IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB
                    | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
            for folder in found where watched[folder] == nil {
                let wd = inotify_add_watch(inotify, path(folder), mask)
                guard wd >= 0 else {
                    // Out of watches (or another failure): the modification times will do.
                    stopInotify()
                    return
                }
                watches[wd] = folder
                watched[folder] = wd
            }
            for (folder, wd) in watched where stamps[folder] == nil {
                inotify_rm_watch(inotify, wd)
                watched[folder] = nil
                watches[wd] = nil
            }
        #endif
    }

    /// Waits at most `timeout` seconds for a change, or until `wake` is readable; true when a
    /// folder changed. Polling, each call compares the folders' modification times once, after
    /// the wait.
    func wait(timeout: Double, wake: Int32) -> Bool {
        #if canImport(Glibc)
            if usesInotify {
                var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
                fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0))
                guard poll(&fds, 2, FolderWatch.milliseconds(timeout)) > 0, fds[1].revents != 0 else {
                    return false
                }
                // A burst of changes (a `git pull`) is one: read until the folders are quiet a moment.
                var changed = drainEvents()
                var quiet = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
                var rounds = 0
                while rounds < 10 && poll(&quiet, 1, 20) > 0 {
                    changed = drainEvents() || changed
                    rounds += 1
                }
                return changed
            }
        #endif
        var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, FolderWatch.milliseconds(timeout))
        guard mode == .polling else { return false }
        for (folder, old) in folders where stamp(folder) != old { return true }
        return false
    }

    private static func milliseconds(_ seconds: Double) -> Int32 {
        Int32(max(0, min(seconds, 3600)) * 1000)
    }

    private func path(_ folder: String) -> String { folder.isEmpty ? root : root + "/" + folder }

    private func stamp(_ folder: String) -> FolderStamp? {
        var st = stat()
        guard lstat(path(folder), &st) == 0 else { return nil }
        #if canImport(Darwin)
            return FolderStamp(
                seconds: Int(st.st_mtimespec.tv_sec), nanoseconds: Int(st.st_mtimespec.tv_nsec),
                inode: UInt64(st.st_ino))
        #else
            return FolderStamp(
                seconds: Int(st.st_mtim.tv_sec), nanoseconds: Int(st.st_mtim.tv_nsec),
                inode: UInt64(st.st_ino))
        #endif
    }

    #if canImport(Glibc)
        /// Reads the pending events; true when one concerns a note, a file or a folder of the vault
        /// (not a hidden name such as an editor's swap file, except the ignore files).
        private func drainEvents() -> Bool {
            var changed = false
            var buffer = [UInt8](repeating: 0, count: 16384)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                guard n > 0 else { return changed }
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= n {
                    let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        return (event.wd, event.mask, Int(event.len))
                    }
                    let nameBytes = buffer[(offset + header)..<min(n, offset + header + length)]
                    let name = nameBytes.prefix { $0 != 0 }
                    offset += header + length
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        changed = true
                        continue
                    }
                    if mask & UInt32(IN_IGNORED) != 0 {
                        if let folder = watches[wd] { watched[folder] = nil }
                        watches[wd] = nil
                        changed = true
                        continue
                    }
                    if name.first == UInt8(ascii: "."),
                        !IgnoreRules.fileNames.contains(String(decoding: name, as: UTF8.self))
                    {
                        continue
                    }
                    changed = true
                }
            }
        }

        private func stopInotify() {
            close(inotify)
            inotify = -1
            watches = [:]
            watched = [:]
            mode = .polling
        }
    #endif

    /// The vault's folders that the walk visits ("" for the top, then the others by path): hidden
    /// folders, symlinks and what the ignore files ignore left out.
    static func folders(root: String) -> [String] {
        var found: [String] = []
        func visit(_ relative: String, _ above: IgnoreRules) {
            let fd = open(relative.isEmpty ? root : root + "/" + relative, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { return }
            found.append(relative)
            let rules = above.adding(folder: relative, fd: fd)
            guard let dir = fdopendir(fd) else {
                close(fd)
                return
            }
            var subfolders: [String] = []
            while let entry = readdir(dir) {
                var kind = Int32(entry.pointee.d_type)
                let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw -> [UInt8] in
                    Array(raw[..<(raw.firstIndex(of: 0) ?? raw.count)])
                }
                guard let first = name.first, first != UInt8(ascii: ".") else { continue }
                if kind == Int32(DT_UNKNOWN) {
                    var st = stat()
                    let status = name.withUnsafeBufferPointer { bytes in
                        String(decoding: bytes, as: UTF8.self).withCString {
                            fstatat(fd, $0, &st, AT_SYMLINK_NOFOLLOW)
                        }
                    }
                    if status == 0 && st.st_mode & S_IFMT == S_IFDIR { kind = Int32(DT_DIR) }
                }
                guard kind == Int32(DT_DIR) else { continue }
                let path = relative.isEmpty ? name : Array(relative.utf8) + [UInt8(ascii: "/")] + name
                let ignored = path.withUnsafeBytes {
                    rules.isIgnored(
                        path: $0, nameStart: relative.isEmpty ? 0 : relative.utf8.count + 1, isDirectory: true
                    )
                }
                if !ignored { subfolders.append(String(decoding: path, as: UTF8.self)) }
            }
            closedir(dir)
            for folder in subfolders { visit(folder, rules) }
        }
        visit("", .none)
        return found
    }
}
