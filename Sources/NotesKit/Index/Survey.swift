import Foundation

/// The vault's note files checked against an index: which records are still current, and which
/// files must be read.
struct Survey {
    /// View-wide numbers of the index records that describe their files as they are.
    var current: [Int] = []
    /// The files the index does not know as they are (new or changed), with their status.
    var stale: [(path: String, status: FileStatus)] = []
    /// The group and other permission bits that the vault folder and every note grant.
    var sharedMode: mode_t = 0o066
    /// Folders that could not be read.
    var diagnostics: [Diagnostic] = []
}

extension Vault {
    /// Walks the vault (hidden files and folders skipped, symlinks not followed) and checks every
    /// note file against `index` on the way, on all cores: one `fstatat` per file on its open
    /// folder, and the path looked up in the index by its bytes, folder and name apart, so that a
    /// vault whose index is fresh is checked without making a string per file. Without an index,
    /// every note file is stale.
    func survey(against index: IndexView?) -> Survey {
        var survey = Survey()
        survey.sharedMode = (FileSystem.status(canonicalRoot)?.mode ?? 0) & 0o066
        var pending: [String] = [""]
        while let directory = pending.popLast() {
            let full = directory.isEmpty ? root : root + "/" + directory
            let fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0, let dir = fdopendir(fd) else {
                let reason = String(cString: strerror(errno))
                if fd >= 0 { close(fd) }
                survey.diagnostics.append(Diagnostic(
                    path: full, line: nil, message: "could not read this folder (\(reason)); its notes are skipped"))
                continue
            }
            defer { closedir(dir) }
            // The names of the note files, each followed by a NUL, and where each starts.
            var names: [UInt8] = []
            var starts: [Int] = []
            while let entry = readdir(dir) {
                let type = Int32(entry.pointee.d_type)
                withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                    let name = UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.count)])
                    guard let first = name.first, first != UInt8(ascii: ".") else { return }
                    var kind = type
                    if kind == Int32(DT_UNKNOWN) {
                        var st = stat()
                        let found = raw.withMemoryRebound(to: CChar.self) { name in
                            name.baseAddress.map { fstatat(fd, $0, &st, AT_SYMLINK_NOFOLLOW) } ?? -1
                        }
                        kind = found != 0 ? Int32(DT_UNKNOWN)
                            : st.st_mode & S_IFMT == S_IFDIR ? Int32(DT_DIR) : st.st_mode & S_IFMT == S_IFREG ? Int32(DT_REG) : Int32(DT_UNKNOWN)
                    }
                    if kind == Int32(DT_DIR) {
                        let name = String(decoding: name, as: UTF8.self)
                        pending.append(directory.isEmpty ? name : directory + "/" + name)
                    } else if kind == Int32(DT_REG) && Vault.isNoteName(name) {
                        starts.append(names.count)
                        names.append(contentsOf: name)
                        names.append(0)
                    }
                }
            }
            let prefix = Array((directory.isEmpty ? "" : directory + "/").utf8)
            let checked = names.withUnsafeBytes { names in
                prefix.withUnsafeBytes { prefix in
                    let shared = UnsafeSendable((names, prefix, starts, index))
                    return Parallel.map(count: starts.count, chunk: 512) { i, _ -> Checked in
                        let (names, prefix, starts, index) = shared.value
                        guard let base = names.baseAddress else { return .gone }
                        let start = starts[i]
                        let end = i + 1 < starts.count ? starts[i + 1] - 1 : names.count - 1
                        var st = stat()
                        guard fstatat(fd, (base + start).assumingMemoryBound(to: CChar.self), &st, AT_SYMLINK_NOFOLLOW) == 0
                        else { return .gone }
                        let status = FileSystem.makeStatus(st)
                        // Gone or replaced by another kind of file since the folder was read: not a note now.
                        guard status.kind == .regular else { return .gone }
                        if let index, let number = index.find(prefix, UnsafeRawBufferPointer(rebasing: names[start..<end])),
                           index.isCurrent(number, status) {
                            return .current(number, mode: status.mode)
                        }
                        return .stale(status)
                    }
                }
            }
            for (i, outcome) in checked.enumerated() {
                switch outcome {
                case .gone: continue
                case .current(let number, let mode):
                    survey.sharedMode &= mode
                    survey.current.append(number)
                case .stale(let status):
                    let end = i + 1 < starts.count ? starts[i + 1] - 1 : names.count - 1
                    // A name that is not UTF-8 cannot be a note's ID: it is left alone, as before.
                    guard let name = String(validating: names[starts[i]..<end], as: UTF8.self) else { continue }
                    survey.sharedMode &= status.mode
                    survey.stale.append((directory.isEmpty ? name : directory + "/" + name, status))
                }
            }
        }
        return survey
    }

    /// Whether a file name's bytes are a note's (`.md` or `.markdown`).
    static func isNoteName(_ name: UnsafeRawBufferPointer) -> Bool {
        func hasSuffix(_ suffix: StaticString) -> Bool {
            guard name.count >= suffix.utf8CodeUnitCount, let base = name.baseAddress else { return false }
            return memcmp(base + name.count - suffix.utf8CodeUnitCount, suffix.utf8Start, suffix.utf8CodeUnitCount) == 0
        }
        return hasSuffix(".md") || hasSuffix(".markdown")
    }
}

/// What the survey found of one directory entry.
private enum Checked {
    /// Gone, or not a regular file.
    case gone
    /// The index's record describes it as it is.
    case current(Int, mode: mode_t)
    /// It must be read.
    case stale(FileStatus)
}
