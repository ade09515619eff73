import Foundation
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// Notes whose dates are the same second — added one after the other — are ordered by the file
/// modified last (to the nanosecond), then by ID.
@Suite struct OrderTests {
    /// Sets a file's modification (and access) time to `seconds` and `nanoseconds` exactly.
    func setModified(_ path: String, seconds: Int, nanoseconds: Int) {
        var times = [
            timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    /// The IDs `list` prints, in its order.
    func listedIDs(_ s: Sandbox, _ extra: [String] = []) throws -> [String] {
        let r = try s.run(["list"] + extra)
        #expect(r.status == 0, "\(r)")
        return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
    }

    @Test func notesAddedOneAfterAnotherListNewestFirst() throws {
        let s = try Sandbox()
        for word in ["aaa", "mmm", "zzz"] { #expect(try s.run(["add", word]).status == 0) }
        #expect(try listedIDs(s) == ["zzz", "mmm", "aaa"])
        #expect(try listedIDs(s, ["-n", "1"]) == ["zzz"])
        #expect(try listedIDs(s, ["--reverse"]) == ["aaa", "mmm", "zzz"])
    }

    /// Times a few hundred nanoseconds apart, which a `Double` of seconds would not tell apart at
    /// today's dates (its step there is about 240 ns).
    @Test func tiesOfTheSameSecondGoByTheNanosecondThenTheID() throws {
        let s = try Sandbox()
        let header = "---\ncreatedAt: 2023-11-14T22:13:20Z\n---\n"
        for (name, nanoseconds) in [("a", 200), ("m", 300), ("z", 100), ("b", 100)] {
            try s.write(name + ".md", header + "# Note \(name)\n")
            setModified(s.vault + "/" + name + ".md", seconds: 1_700_000_000, nanoseconds: nanoseconds)
        }
        #expect(try listedIDs(s) == ["m", "a", "b", "z"])
        #expect(try listedIDs(s, ["--sort", "created"]) == ["m", "a", "b", "z"])
        #expect(try listedIDs(s, ["--reverse"]) == ["z", "b", "a", "m"])
    }

    /// A file without front matter (its mtime, fractions and all, for a date) ties with a note
    /// of the same second, and the one modified last comes first.
    @Test func datesCompareToTheSecond() throws {
        let s = try Sandbox()
        try s.write("plain.md", "# Plain\n")
        setModified(s.vault + "/plain.md", seconds: 1_700_000_000, nanoseconds: 500_000_000)
        try s.write("added.md", "---\ncreatedAt: 2023-11-14T22:13:20Z\n---\n# Added\n")
        setModified(s.vault + "/added.md", seconds: 1_700_000_000, nanoseconds: 900_000_000)
        #expect(try listedIDs(s) == ["added", "plain"])
    }

    /// A file rewritten in place (same size, same inode) is read again, with a time 100 ns later
    /// or with its time put back (as `cp -p` or `rsync -a` of a same-size edit leaves it): its
    /// status-change time moved, and nothing sets that back.
    @Test(arguments: [300, 200])
    func aRewriteInPlaceIsSeen(nanoseconds: Int) throws {
        let s = try Sandbox()
        let path = s.vault + "/x.md"
        try s.write("x.md", "# aaaa\n")
        setModified(path, seconds: 1_700_000_000, nanoseconds: 200)
        #expect(try s.run(["search", "aaaa"]).stdout.hasPrefix("x\t"))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("# bbbb\n".utf8))
        try handle.close()
        setModified(path, seconds: 1_700_000_000, nanoseconds: nanoseconds)
        #expect(try s.run(["search", "bbbb"]).stdout.hasPrefix("x\t"))
        #expect(try s.run(["search", "aaaa"]).stdout.isEmpty)
    }
}
