import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

extension FileSystem {
    /// The start of every temp file's name; the full name is `.notes-tmp-<pid>-XXXXXX`.
    static let tempPrefix = ".notes-tmp-"

    /// Writes `bytes` to a new temp file beside `path`, registered so a signal removes it; errors
    /// name `path`, the file the temp is for. Stale temps of dead processes in that folder are
    /// swept first.
    static func writeTemp(
        _ bytes: [UInt8], beside path: String, mode: mode_t
    ) throws(FileSystemError) -> TemporaryFiles.Entry {
        try writeTemp(beside: path, mode: mode) { emit in bytes.withUnsafeBytes(emit) }
    }

    /// `writeTemp` of the chunks `produce` hands to its argument.
    static func writeTemp(
        beside path: String, mode: mode_t, _ produce: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(FileSystemError) -> TemporaryFiles.Entry {
        let file = try PendingFile(beside: path)
        produce(file.append)
        return try file.close(mode: mode)
    }

    /// Removes a temp that will not be renamed into place, and unregisters it.
    static func discard(_ temp: TemporaryFiles.Entry) {
        WriteStep.take(.remove)
        unlink(temp.path)
        forget(temp)
    }

    /// Unregisters a temp that was renamed into place (or removed).
    static func forget(_ temp: TemporaryFiles.Entry) {
        if let slot = temp.slot { TemporaryFiles.shared.release(slot) }
    }

    /// Removes from `directory` the temp files (`.notes-tmp-<pid>-XXXXXX`) of processes that no
    /// longer exist: left by a crash, a power cut or SIGKILL. A temp whose process is alive is
    /// never touched, even another user's (`kill` says EPERM, not ESRCH). Temps without a pid
    /// (older versions) are left alone, since nothing tells whose they are. One `readdir` of the
    /// folder, no more.
    public static func sweepStaleTemps(in directory: String) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        let prefixLength = tempPrefix.utf8.count
        var stale: [String] = []
        while let entry = readdir(dir) {
            let size = MemoryLayout.size(ofValue: entry.pointee.d_name)
            let name = withUnsafePointer(to: entry.pointee.d_name) { ptr in
                ptr.withMemoryRebound(to: CChar.self, capacity: size) {
                    // Most names are not temps: compare bytes before making a String.
                    strncmp($0, tempPrefix, prefixLength) == 0 ? String(cString: $0) : nil
                }
            }
            guard let name, let pid = tempOwner(name) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { stale.append(name) }
        }
        for name in stale where status(directory + "/" + name)?.kind == .regular {
            WriteStep.take(.remove)
            unlink(directory + "/" + name)
        }
    }

    /// The pid in a temp's name `.notes-tmp-<pid>-XXXXXX`; nil for any other name.
    static func tempOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix(tempPrefix) else { return nil }
        let rest = name.utf8.dropFirst(tempPrefix.utf8.count)
        guard let dash = rest.firstIndex(of: UInt8(ascii: "-")),
            rest.distance(from: dash, to: rest.endIndex) == 7
        else { return nil }
        let digits = rest[..<dash]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let pid = pid_t(String(decoding: digits, as: UTF8.self)), pid > 0
        else { return nil }
        return pid
    }
}
