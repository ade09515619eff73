import Foundation

extension Vault {
    /// Why the vault path `path` (`/`-separated, `.md` and all) cannot be a note's new name, as a
    /// phrase that follows the name (`'Plan?' holds '?', …`); nil when it can. A name must be one
    /// that links reach and every system can keep, so the characters `TitleFileName` keeps out of
    /// new file names are refused: `# ^ [ ] |`, at which a `[[link]]` breaks, `\ : * ? " < >`,
    /// which file systems refuse (and with which `c:d` reads as a URL), and control characters;
    /// so are a folder or file name that starts or ends with a blank (links and other apps trim
    /// it away) and an empty one (`a//b`).
    public static func nameProblem(_ path: String) -> String? {
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            guard let first = part.unicodeScalars.first, let last = part.unicodeScalars.last else {
                return "has a folder with no name (two '/' in a row, or one at an end)"
            }
            if first.properties.isWhitespace || last.properties.isWhitespace {
                return "has a part that starts or ends with a blank, which links and other apps trim away"
            }
            if let bad = part.unicodeScalars.first(where: TitleFileName.isReplaced) {
                if "[]|#^".unicodeScalars.contains(bad) {
                    return "holds '\(bad)', which a [[link]] cannot hold ([, ], |, # or ^)"
                }
                if bad.properties.generalCategory == .control {
                    return "holds a control character, which a file name should not hold"
                }
                return
                    "holds '\(bad)', which a file name cannot hold on every system (\\, :, *, ?, \", < or >)"
            }
        }
        return nil
    }

    /// Why a note moved to the vault path `to` would have a name no note can have
    /// (`nameProblem`), judging only what the move makes: the folders that are not there yet,
    /// and the file name when it is not `kept` (the note's own, with which it already lives).
    /// Its extension is set aside first, so that `x .md` is a name that ends with a blank.
    func newPlaceProblem(_ to: String, keeping kept: String) -> String? {
        let file = String(to.split(separator: "/").last ?? "")
        var made = foldersToMake(FileSystem.parentFolder(of: to))
        if file != kept {
            var base = file
            for ext in [".md", ".markdown"] where base.hasSuffix(ext) && base.count > ext.count {
                base.removeLast(ext.count)
                break
            }
            made.append(base)
        }
        return made.isEmpty ? nil : Vault.nameProblem(made.joined(separator: "/"))
    }

    /// The parts of the vault folder `folder` that are not there yet, which a command would make
    /// and so must give names a note's path can hold; those that are there are the user's.
    func foldersToMake(_ folder: String) -> [String] {
        var (built, made) = ("", [String]())
        for part in folder.split(separator: "/") {
            built += (built.isEmpty ? "" : "/") + part
            if FileSystem.status(fullPath(built)) == nil { made.append(String(part)) }
        }
        return made
    }

    /// Whether the vault paths `a` and `b` differ, but only in case, and are one file: the same
    /// note on a file system that ignores case (`plan.md` and `Plan.md`), which a rename in case
    /// only may find "already there".
    func isSameFile(_ a: String, inAnotherCaseAs b: String) -> Bool {
        guard a != b, CaselessName.key(a) == CaselessName.key(b), let x = FileSystem.status(fullPath(a)),
            let y = FileSystem.status(fullPath(b))
        else { return false }
        return x.inode == y.inode && x.kind == .regular && y.kind == .regular
    }
}
