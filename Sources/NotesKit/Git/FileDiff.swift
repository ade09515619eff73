import Foundation

extension NoteStore {
    /// The unified diff of two files of the vault (vault-relative paths) — a conflict copy's
    /// original and the copy — from `git diff --no-index` when git is there, else `diff -u`, else
    /// `UnifiedDiff.make`; "" when they are the same.
    public func diff(_ old: String, _ new: String) -> String {
        let vault = self.vault.root
        let path = environment["PATH"]
        if let git = ProcessRunner.find("git", path: path),
            let result = try? ProcessRunner.run(
                git, ["-C", vault, "diff", "--no-index", "--no-color", "--no-ext-diff", "--", old, new],
                environment: environment),
            result.status <= 1
        {
            return result.output
        }
        if let diff = ProcessRunner.find("diff", path: path),
            let result = try? ProcessRunner.run(
                diff, ["-u", "--label", old, "--label", new, "--", vault + "/" + old, vault + "/" + new],
                environment: environment),
            result.status <= 1
        {
            return result.output
        }
        let read = { (relative: String) -> String in
            ((try? FileSystem.read(vault + "/" + relative)).map { String(decoding: $0.0, as: UTF8.self) })
                ?? ""
        }
        return UnifiedDiff.make(read(old), read(new), oldLabel: old, newLabel: new)
    }
}
