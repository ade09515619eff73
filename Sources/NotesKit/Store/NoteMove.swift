import Foundation

/// One link rewritten by a move: where it is, and how it reads before and after.
public struct LinkRewrite: Equatable, Sendable {
    /// The 1-based line of the file.
    public var line: Int
    /// The link as it was written.
    public var old: String
    /// The link as it is written now.
    public var new: String
}

/// The links of one note that a move rewrites.
public struct NoteRewrites: Equatable, Sendable {
    /// The note's ID (after the move, for the moved note itself).
    public var id: String
    /// Its vault path before the move.
    public var path: String
    /// The rewrites, in file order.
    public var rewrites: [LinkRewrite]
    /// The same rewrites as changes to bytes, in order: of the file as the index saw it, or of
    /// the editor's buffer when the plan was given one for this note (`workedOn`).
    public var edits: [ByteEdit]
    /// What `edits` were worked out on.
    public var workedOn: WorkedOn
    /// The file as the index last saw it; a file that is not so any more is left alone.
    var size: Int64, mtime: Int64, inode: UInt64
    /// The note's place in the catalog the plan was made from.
    var position: Int

    /// The text a note's edits were worked out on.
    public enum WorkedOn: Equatable, Sendable {
        /// The file, as the index saw it.
        case file
        /// An editor's buffer given to the plan.
        case buffer
        /// Nothing: the file was no longer as the index saw it, so there are no edits and a move
        /// leaves it alone; `rewrites` are the index's.
        case nothing
    }
}

/// A move worked out before anything changes: the note, where it goes, and every link
/// that must change so that it goes where it went — found with the index, so that only the notes
/// whose links change are read — as byte edits of each such note: `NoteStore.move` makes them,
/// and the language server hands them to the editor as a rename's edits.
public struct MovePlan {
    /// The note moved.
    public let note: Note
    /// Its vault paths before and after.
    public let from: String, to: String
    /// The notes whose links change, in ID order.
    public let notes: [NoteRewrites]

    /// The ID after the move.
    public var toID: String { Note.id(forPath: to) }
    /// How many links change.
    public var linkCount: Int { notes.reduce(0) { $0 + $1.rewrites.count } }
}

/// What a move did.
public struct MoveReport {
    /// The plan carried out.
    public let plan: MovePlan
    /// The notes whose links were rewritten, with the rewrites.
    public var rewritten: [NoteRewrites] = []
    /// The notes that changed on disk since the index read them: left as they are (their links
    /// still point to the old place).
    public var changed: [String] = []
    /// The notes that could not be written, and why.
    public var failed: [(id: String, error: VaultError)] = []

    /// How many links were rewritten.
    public var linkCount: Int { rewritten.reduce(0) { $0 + $1.rewrites.count } }
}

extension NoteStore {
    /// Works out moving `loaded` to `argument` (see `Vault.notePath(forNew:name:)`): the new path,
    /// and every link of the vault whose resolution the move changes — those that went to the note
    /// (rewritten to go to its new place), those of the note itself (whose relative paths and
    /// nearest matches change with its folder), and those that would now go to it instead of
    /// where they went (kept going there). A link is rewritten in the style it was written in,
    /// changing only its target: a wiki link by file name stays a file name when that resolves,
    /// else takes as much of the ID as it needs; a Markdown link stays relative (or from the
    /// vault's top), its percent-encoding, `<…>` and `#heading` kept. Nothing is changed on disk.
    ///
    /// `buffers` (vault path to text) are editors' unsaved buffers: such a note's links are read
    /// from its buffer, as typed, and its edits are of that text.
    public func planMove(
        _ loaded: LoadedNote, to argument: String, buffers: [String: String] = [:]
    ) throws(VaultError) -> MovePlan {
        let catalog = self.catalog
        let from = loaded.note.path
        let name = String(from.split(separator: "/").last ?? Substring(from))
        // A folder with no name as typed (`a//b`), then what the move makes: folders not there
        // yet and a new file name (the note's own name and folders are the user's already).
        var typed = argument
        while typed.hasSuffix("/") { typed.removeLast() }
        if !typed.hasPrefix("/"), typed.contains("//") || typed.isEmpty {
            throw .badName(
                argument, problem: "has a folder with no name (two '/' in a row, or one at an end)")
        }
        let to = try vault.notePath(forNew: argument, name: name, replacing: from)
        let toID = Note.id(forPath: to)
        if let problem = vault.newPlaceProblem(to, keeping: name) {
            throw .badName(argument, problem: problem)
        }
        guard let moved = catalog.position(ofPath: from) else { throw .noMatch(loaded.note.id) }
        let rewriter = MoveRewriter(catalog: catalog, moved: moved, to: to, titleSource: vault.titleSource)
        // Only a name with an extension of its own (`p.png`) is one an attachment link gives:
        // `[[LICENSE]]` finds no file, and a Markdown link to `LICENSE` goes to the file.
        if VaultFiles.hasOwnExtension(toID), let file = rewriter.before.files.named(by: toID) {
            throw .takesFileName(toID, file: file)
        }
        // Every table made now, so that the notes can be worked on on all cores, each thread only
        // reading them.
        rewriter.before.makeTables()
        var candidates = Set(rewriter.candidates())
        // A buffer's links are as typed, whatever the index holds.
        for path in buffers.keys {
            if let position = catalog.position(ofPath: path) { candidates.insert(position) }
        }
        Trace.mark("move: candidates")
        let order = Array(candidates)
        let (shared, vault) = (UnsafeSendable(rewriter), vault)
        let planned = Parallel.map(count: order.count, chunk: 8) { k -> NoteRewrites? in
            let rewriter = shared.value
            let position = order[k]
            let status = catalog.status(at: position)
            let path = catalog.withPath(at: position) { String(decoding: $0, as: UTF8.self) }
            var entry = NoteRewrites(
                id: position == moved ? toID : Note.id(forPath: path), path: path, rewrites: [], edits: [],
                workedOn: .file, size: status.size, mtime: status.mtime, inode: status.inode,
                position: position)
            if let text = buffers[path] {
                entry.workedOn = .buffer
                (entry.edits, entry.rewrites) = rewriter.edits(
                    of: Array(text.utf8), NoteDocument(parsing: text), at: position, sourcePath: path)
            } else {
                let rewrites = rewriter.indexRewrites(at: position)
                guard !rewrites.isEmpty else { return nil }
                if let file = try? vault.load(path: path), file.status.size == status.size,
                    file.status.mtime == status.mtime, file.status.inode == status.inode
                {
                    (entry.edits, entry.rewrites) = rewriter.edits(
                        of: file.bytes, file.document, at: position, sourcePath: path)
                } else {
                    entry.workedOn = .nothing
                    entry.rewrites = rewrites
                }
            }
            return entry.rewrites.isEmpty ? nil : entry
        }
        var notes = planned.compactMap { $0 }
        notes.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        Trace.mark("move: plan")
        return MovePlan(note: loaded.note, from: from, to: to, notes: notes)
    }

    /// Makes the folders that `plan`'s new path needs, inside the vault and holding the lock, for
    /// an editor that moves the file itself and cannot make a folder.
    public func makeFolders(for plan: MovePlan) throws(VaultError) {
        let folder = FileSystem.parentFolder(of: plan.to)
        guard !folder.isEmpty else { return }
        try withLock { () throws(VaultError) in
            try vault.checkFolder(folder, argument: plan.to)
            try vault.makeFolder(folder)
        }
    }

    /// Carries out `plan`, holding the lock: each note of the plan is read again and the plan's
    /// edits made to it — only the link targets, every other byte kept, front matter and
    /// `updatedAt` included — into temp files beside them; then the file is renamed (folders made; a file that
    /// appeared at the new path meanwhile is never replaced), and the rewritten notes put in place,
    /// each atomically. When a rewritten note cannot be written, nothing is moved. A note that is
    /// no longer as the index saw it when the plan was made, or that changes while it is rewritten,
    /// is left as it is and reported in `changed` (so is a note whose edits were worked out on a
    /// buffer, whose text the file is not). Records `.moved` and a `.rewroteLinks` per rewritten note.
    public func move(_ plan: MovePlan) throws(VaultError) -> MoveReport {
        try withLock { () throws(VaultError) -> MoveReport in
            let folder = FileSystem.parentFolder(of: plan.to)
            if !folder.isEmpty {
                try vault.checkFolder(folder, argument: plan.to)
                try vault.makeFolder(folder)
            }
            // `plan.md` to `Plan.md` where case is ignored: the file is "already" there.
            let inCase = vault.isSameFile(plan.from, inAnotherCaseAs: plan.to)
            if !inCase, FileSystem.status(vault.fullPath(plan.to)) != nil { throw .alreadyExists(plan.toID) }
            var report = MoveReport(plan: plan)
            var writes: [(path: String, bytes: [UInt8], mode: mode_t)] = []
            var written: [(entry: NoteRewrites, status: FileStatus)] = []
            for entry in plan.notes {
                // Read where it is now (its bytes and status only: the plan's edits are of these
                // very bytes while the status is the plan's); written where it will be.
                guard entry.workedOn == .file,
                    let (read, status) = try? FileSystem.read(vault.fullPath(entry.path)),
                    status.size == entry.size, status.mtime == entry.mtime, status.inode == entry.inode,
                    let bytes = ByteEdit.apply(entry.edits, to: read)
                else {
                    report.changed.append(entry.id)
                    continue
                }
                // With the mode it was read with: the moved note is not at its new path yet.
                writes.append(
                    (vault.fullPath(entry.path == plan.from ? plan.to : entry.path), bytes, status.mode))
                written.append((entry, status))
            }
            Trace.mark("move: read")
            // Every rewritten note is written and synced beside its file before anything is
            // renamed: a disk that cannot take them (full, read-only) fails the move with nothing
            // changed, instead of leaving the note moved and the links to it broken.
            let prepared = FileSystem.prepare(batch: writes)
            if let failure = prepared.firstFailure {
                prepared.discard()
                throw VaultError(failure)
            }
            do throws(FileSystemError) {
                if inCase {
                    try FileSystem.renameCase(vault.fullPath(plan.from), to: vault.fullPath(plan.to))
                } else {
                    try FileSystem.moveExclusively(vault.fullPath(plan.from), to: vault.fullPath(plan.to))
                }
            } catch {
                prepared.discard()
                throw VaultError(error)
            }
            record(.moved(from: plan.from, to: plan.to))
            let outcomes = FileSystem.commit(batch: writes, prepared: prepared) { i in
                // Changed since it was read a moment ago (an editor saved it): not overwritten.
                guard let now = FileSystem.status(writes[i].path) else { return false }
                let read = written[i].status
                return now.size == read.size && now.mtime == read.mtime && now.inode == read.inode
            }
            Trace.mark("move: write")
            for (i, outcome) in outcomes.enumerated() {
                let entry = written[i].entry
                switch outcome {
                case .written:
                    report.rewritten.append(entry)
                    record(
                        .rewroteLinks(
                            entry.path == plan.from ? plan.to : entry.path, count: entry.rewrites.count))
                case .changed: report.changed.append(entry.id)
                case .failed(let error): report.failed.append((entry.id, VaultError(error)))
                }
            }
            return report
        }
    }
}

extension Catalog {
    /// The file status the index records for the note at position `i`.
    func status(at i: Int) -> (size: Int64, mtime: Int64, inode: UInt64) {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        let (file, n) = index.locate(Int(mapped[i]))
        return (file.size(n), file.mtime(n), file.inode(n))
    }
}

extension IndexedLink {
    /// Whether a Markdown link's destination is written in `<…>`.
    var isAngled: Bool {
        let bytes = Array(text.utf8)
        return style == .markdown && targetRange.lowerBound > 0 && targetRange.lowerBound <= bytes.count
            && bytes[targetRange.lowerBound - 1] == UInt8(ascii: "<")
    }

    /// The link as written with its target replaced.
    func replacingTarget(with target: String) -> String {
        let bytes = Array(text.utf8)
        guard targetRange.upperBound <= bytes.count else { return text }
        return String(
            decoding: bytes[..<targetRange.lowerBound] + Array(target.utf8)
                + bytes[targetRange.upperBound...],
            as: UTF8.self)
    }
}

/// What rewriting needs of a link, however it was read (from the index or from the file).
struct WrittenLink {
    var style: NoteLink.Style
    /// A link to a note, or an attachment link (which may go to a note: `[p](Plan)`).
    var kind: NoteLink.Kind
    /// The target as written.
    var target: String
    /// A Markdown destination in `<…>`.
    var angled: Bool
    /// Its keys in the note where it is, before the move.
    var keys: LinkKeys
}

/// Where links go before and after one note moves, and how to write those that must change.
struct MoveRewriter {
    let catalog: Catalog
    let moved: Int
    let to: String
    let before: LinkResolver
    let after: LinkResolver
    /// The moved note's file name before the move (its bytes, as links compare), when the move
    /// changes it; nil when it keeps it.
    let renamedFrom: [UInt8]?

    init(catalog: Catalog, moved: Int, to: String, titleSource: TitleSource) {
        self.catalog = catalog
        self.moved = moved
        self.to = to
        before = LinkResolver(catalog: catalog)
        var folding = TextFolder()
        // A title taken from the file name changes with it.
        let title = titleSource == .filename ? folding.foldedBytes(Note.fileTitle(to)) : nil
        after = before.moving(moved, to: to, foldedTitle: title)
        let (old, new) = (before.withName(of: moved) { Array($0) }, after.withName(of: moved) { Array($0) })
        renamedFrom = old == new ? nil : old
    }

    /// The notes that may hold a link the move changes: the moved note, and those with a link
    /// that could name it before or after the move (`NamingKeys`, compared as bytes, in place).
    func candidates() -> [Int] {
        let keys = [NamingKeys(before, moved), NamingKeys(after, moved)]
        let (catalog, moved) = (self.catalog, self.moved)
        // The notes in runs over the cores, each run giving its candidates, in order.
        return Parallel.map(count: catalog.count, runsOf: 2048) { positions in
            var found: [Int] = []
            for position in positions {
                if position == moved {
                    found.append(position)
                    continue
                }
                var hit = false
                catalog.linkKeys(at: position).forEachLink { link in
                    hit = keys.contains { $0.couldName(link) }
                    return !hit
                }
                if hit { found.append(position) }
            }
            return found
        }.flatMap { $0 }
    }

    /// How `link`, in the note at `position`, must now be written (its target only) so that it
    /// goes where it went — to the moved note's new place if it went to the moved note — or nil
    /// when it already does, or was broken. A link that went by a name (an ID, a file name) must
    /// still go by one: that its note's title or an alias would still find it is not enough, as
    /// Obsidian and zk resolve by names only.
    func newTarget(for link: WrittenLink, in position: Int) -> String? {
        let sourceBefore = before.path(position)
        let sourceAfter = after.path(position)
        let markdown = link.style == .markdown
        guard
            let (desired, step) = before.resolution(
                link.keys, kind: link.kind, markdown: markdown, from: sourceBefore)
        else {
            return link.kind == .attachment && position == moved ? newAttachmentTarget(for: link) : nil
        }
        var folding = TextFolder()
        let sourceAfterPath = String(decoding: sourceAfter, as: UTF8.self)
        // A Markdown link without an extension (`[p](Plan)`) goes to a note as the link with
        // `.md` would, and is written without it again.
        let bare = link.kind == .attachment
        func pathKey(_ target: String, from source: String) -> [UInt8] {
            guard bare else {
                return LinkKeys.make(style: .markdown, target: target, from: source, folding: &folding).key
            }
            return LinkKeys.markdown(path: NoteLinks.percentDecoded(target) + ".md", from: source).key
        }
        // A relative Markdown link stays one: reaching the note only from the vault's top (as
        // Obsidian would) is not enough, other Markdown readers would not find it.
        let keyBefore =
            bare ? pathKey(link.target, from: String(decoding: sourceBefore, as: UTF8.self)) : link.keys.key
        let viaKey = markdown && !keyBefore.isEmpty && before.position(ofPath: keyBefore) == desired
        func resolvesAfter(_ target: String) -> Bool {
            let keys =
                bare
                ? LinkKeys(key: Array(NoteLinks.percentDecoded(target).utf8), alternative: [])
                : LinkKeys.make(style: link.style, target: target, from: sourceAfterPath, folding: &folding)
            guard let found = after.resolution(keys, kind: link.kind, markdown: markdown, from: sourceAfter),
                found.position == desired
            else { return false }
            if viaKey { return after.position(ofPath: pathKey(target, from: sourceAfterPath)) == desired }
            return found.step.isByName || !step.isByName
        }
        if resolvesAfter(link.target) && !(desired == moved && spellsOldName(link)) { return nil }
        var destination = String(decoding: after.path(desired), as: UTF8.self)
        if bare { destination = String(destination.dropLast(3)) }
        if markdown {
            // A path from the vault's top (`[p](/Plan.md)`) stays one.
            if link.target.hasPrefix("/") { return "/" + MoveRewriter.written(destination, like: link) }
            let relative = MoveRewriter.written(
                MoveRewriter.relativePath(from: LinkKeys.folder(of: sourceAfterPath), to: destination),
                like: link)
            // A path from the vault's top stays one, unless a note at the same path from the
            // linking note's folder would take the link.
            let fromTop = MoveRewriter.written(destination, like: link)
            if !viaKey, resolvesAfter(fromTop) { return fromTop }
            return relative
        }
        // As short as it was written, or as little longer as it takes: the file name, or the
        // end of the ID with as many folders as the link had, then more, up to the whole ID.
        let id = Note.id(forPath: destination)
        let suffix = link.target.hasSuffix(".md") ? ".md" : ""
        // A path (`[[../../Top]]`, `[[./s]]`, `[[/Top]]`) stays one of its kind.
        if LinkResolver.isPathTarget(link.target) {
            return MoveRewriter.path(to: id, like: link.target, from: LinkKeys.folder(of: sourceAfterPath))
                + suffix
        }
        var forms = MoveRewriter.forms(of: id, writtenLike: link.target)
        if forms.first != Note.fileTitle(destination) && !link.target.contains("/") {
            forms.insert(Note.fileTitle(destination), at: 0)
        }
        for form in forms where resolvesAfter(form + suffix) { return form + suffix }
        return id + suffix
    }

    /// Whether `link` (to the moved note) spells the old file name exactly, by its last part
    /// (`[[plan]]`, `[[work/plan#Goal]]`, `[p](plan.md)`), while the new one differs: after a
    /// rename in case only (`plan` to `Plan`) it still finds the note ignoring case, and is
    /// rewritten all the same, as Obsidian rewrites it, to spell the new name.
    func spellsOldName(_ link: WrittenLink) -> Bool {
        guard let old = renamedFrom else { return false }
        var target = link.style == .markdown ? NoteLinks.percentDecoded(link.target) : link.target
        return target.withUTF8 { bytes in
            let written = LinkResolver.name(ofPath: LinkResolver.lastPart(UnsafeRawBufferPointer(bytes)))
            return written.elementsEqual(old)
        }
    }

    /// How an attachment link of the moved note must now be written so that it goes to the file
    /// it went to from the note's old folder, or nil when it still does, or went to none. As a
    /// link to a note is: a relative Markdown path stays relative (else a path from the vault's
    /// top stays one when it still finds the file), a wiki link takes as little more of the
    /// file's path as it needs.
    func newAttachmentTarget(for link: WrittenLink) -> String? {
        let files = before.files
        let (from, to) = (String(decoding: before.path(moved), as: UTF8.self), self.to)
        let markdown = link.style == .markdown
        func decoded(_ target: String) -> String { markdown ? NoteLinks.percentDecoded(target) : target }
        func relativeFile(_ target: String, from source: String) -> String? {
            LinkKeys.join(LinkKeys.folder(of: source), decoded(target)).flatMap {
                files.exists($0) ? $0 : nil
            }
        }
        guard let file = files.resolve(decoded(link.target), from: from) else { return nil }
        // A relative Markdown path stays one (see `newTarget`).
        let viaPath = markdown && !link.target.hasPrefix("/") && relativeFile(link.target, from: from) == file
        func resolvesAfter(_ target: String) -> Bool {
            guard files.resolve(decoded(target), from: to) == file else { return false }
            return !viaPath || relativeFile(target, from: to) == file
        }
        if resolvesAfter(link.target) { return nil }
        let relative = MoveRewriter.relativePath(from: LinkKeys.folder(of: to), to: file)
        if markdown {
            // One from the vault's top (`/img/a.png`) keeps its `/`.
            if link.target.hasPrefix("/") { return "/" + MoveRewriter.written(file, like: link) }
            let fromTop = MoveRewriter.written(file, like: link)
            if !viaPath, resolvesAfter(fromTop) { return fromTop }
            return MoveRewriter.written(relative, like: link)
        }
        if LinkResolver.isPathTarget(link.target) {
            return MoveRewriter.path(to: file, like: link.target, from: LinkKeys.folder(of: to))
        }
        // The whole path may name a file in the note's folder first: then the relative one.
        let forms = MoveRewriter.forms(of: file, writtenLike: link.target) + [relative]
        return forms.first(where: resolvesAfter) ?? file
    }

    /// The vault path or ID `path` written as the wiki path `target` was: from the vault's top
    /// with its `/`, else from the vault folder `folder`, with `./` when it does not climb.
    static func path(to path: String, like target: String, from folder: String) -> String {
        if target.hasPrefix("/") { return "/" + path }
        let relative = relativePath(from: folder, to: path)
        return relative.hasPrefix("../") ? relative : "./" + relative
    }

    /// The ends of the vault path or ID `path` a wiki link may be written as, shortest first: with
    /// as many parts as `target` has (or all of them), then one more each, up to the whole.
    static func forms(of path: String, writtenLike target: String) -> [String] {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        let written = target.split(separator: "/", omittingEmptySubsequences: false).count
        return (min(written, components.count)...components.count).map {
            components.suffix($0).joined(separator: "/")
        }
    }

    /// The vault path or relative path `path` written as the Markdown destination `link` was:
    /// `./` kept; inside `<…>` anything but `<`, `>` as it is; else blanks and the like escaped,
    /// and everything when the link was written escaped.
    static func written(_ path: String, like link: WrittenLink) -> String {
        var path = path
        if link.target.hasPrefix("./") && !path.hasPrefix("../") && !path.hasPrefix("./") {
            path = "./" + path
        }
        let plain =
            link.angled
            ? !path.contains { "<>".contains($0) }
            : !link.target.contains("%") && !path.contains { " ()<>#?".contains($0) }
        return plain ? path : MoveRewriter.percentEncoded(path)
    }

    /// The rewrites of the links of the note at `position` as the index has them.
    func indexRewrites(at position: Int) -> [LinkRewrite] {
        var rewrites: [LinkRewrite] = []
        for link in catalog.links(at: position) where link.kind != .sameNote {
            let written = WrittenLink(
                style: link.style, kind: link.kind, target: link.target, angled: link.isAngled,
                keys: link.keys)
            guard let target = newTarget(for: written, in: position) else { continue }
            rewrites.append(
                LinkRewrite(line: link.line, old: link.text, new: link.replacingTarget(with: target)))
        }
        return rewrites
    }

    /// The edits to the links of a note's text, `bytes` parsed as `document` (the note at
    /// `position`, whose path before the move is `sourcePath`): only link targets change. With
    /// them, the rewrites they make, both in file order.
    func edits(
        of bytes: [UInt8], _ document: NoteDocument, at position: Int, sourcePath: String
    ) -> ([ByteEdit], [LinkRewrite]) {
        var folding = TextFolder()
        let body = Array(document.body.utf8)
        let bodyStart = bytes.count - body.count
        var edits: [ByteEdit] = []
        var rewrites: [LinkRewrite] = []
        for link in NoteLinks.all(document) where link.kind != .sameNote {
            let angled =
                link.style == .markdown && link.targetRange.lowerBound > 0
                && body[link.targetRange.lowerBound - 1] == UInt8(ascii: "<")
            let written = WrittenLink(
                style: link.style, kind: link.kind, target: link.target, angled: angled,
                keys: LinkKeys.make(link, from: sourcePath, folding: &folding))
            guard let target = newTarget(for: written, in: position) else { continue }
            let range = (bodyStart + link.targetRange.lowerBound)..<(bodyStart + link.targetRange.upperBound)
            edits.append(ByteEdit(range: range, replacement: target))
            let start = link.range.lowerBound
            let inText = (link.targetRange.lowerBound - start)..<(link.targetRange.upperBound - start)
            let text = Array(link.text.utf8)
            let new = String(
                decoding: text[..<inText.lowerBound] + Array(target.utf8) + text[inText.upperBound...],
                as: UTF8.self)
            rewrites.append(LinkRewrite(line: link.line, old: link.text, new: new))
        }
        return (edits, rewrites)
    }

    /// The relative path from the vault folder `folder` to the vault path `path`.
    static func relativePath(from folder: String, to path: String) -> String {
        let from = folder.split(separator: "/")
        let to = path.split(separator: "/")
        var common = 0
        while common < from.count && common + 1 < to.count && from[common] == to[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + to[common...].map(String.init)).joined(
            separator: "/")
    }

    /// A path with blanks, parentheses, `<`, `>`, `#`, `?` and `%` written as `%XX`.
    static func percentEncoded(_ path: String) -> String {
        var out = ""
        for scalar in path.unicodeScalars {
            if " ()<>#?%".unicodeScalars.contains(scalar) {
                out += "%" + String(format: "%02X", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
