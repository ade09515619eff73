import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// Links written as paths, as Obsidian's "relative path" link format writes them: `[[./s]]` and
/// `[[../../Top]]` from the linking note's folder, `[[/Top]]` and `[p](/Plan.md)` from the vault's
/// top. They go to the note (or file) at that path, never to one elsewhere by its name, and
/// never out of the vault.
@Suite struct PathLinkTests {
    static let tree: [Sandbox.Item] = [
        .directory(".notes", [.file(".gitignore", Sandbox.stateIgnore)]), .directory(".obsidian", []),
        .file("Top.md", "# Top\n"), .file("Plan.md", "# Plan\n"), .file("img/x.png", "png"),
        .file("a/b/s.md", "# S\n"),
        // Decoys the old rules took: a note of the same name in the linking note's folder.
        .file("a/b/Plan.md", "# Local plan\n"), .file("a/b/img/x.png", "near png"),
        .file(
            "a/b/deep.md",
            """
            [[../../Top]] [[./s]] [[/Top]] [[../../top#Top]] ![[../../img/x.png]]
            [x](/Plan) [y](/Plan.md) [z](../../Top.md)
            [[../../../Top]] [[./Top]] ![[../../../img/x.png]] [w](/../Plan.md)

            """),
    ]

    static func note(_ catalog: Catalog, _ id: String) throws -> Note {
        try #require(catalog.notes.first { $0.id == id })
    }

    @Test func theyResolveFromTheNotesFolderOrTheTop() throws {
        try Sandbox(tree: Self.tree).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            let deep = try Self.note(catalog, "a/b/deep")
            #expect(
                catalog.links(of: deep).map { "\($0.link.text) -> \($0.note?.id ?? $0.file ?? "")" } == [
                    "[[../../Top]] -> Top", "[[./s]] -> a/b/s", "[[/Top]] -> Top",
                    // Another case, as file names compare.
                    "[[../../top#Top]] -> Top", "![[../../img/x.png]] -> img/x.png",
                    // From the vault's top, not the note's folder (which has a Plan too).
                    "[x](/Plan) -> Plan", "[y](/Plan.md) -> Plan", "[z](../../Top.md) -> Top",
                    // Above the vault's top, or nothing at that path: broken, whatever has the name.
                    "[[../../../Top]] -> ", "[[./Top]] -> ", "![[../../../img/x.png]] -> ",
                    "[w](/../Plan.md) -> ",
                ])
            #expect(
                catalog.brokenLinks().map { "\($0.text) \($0.problem?.rawValue ?? "")" } == [
                    "[[../../../Top]] no-note", "[[./Top]] no-note", "![[../../../img/x.png]] no-file",
                    "[w](/../Plan.md) no-note",
                ])
            #expect(
                catalog.backlinks(to: try Self.note(catalog, "Top")).map(\.text) == [
                    "[[../../Top]]", "[[/Top]]", "[[../../top#Top]]", "[z](../../Top.md)",
                ])
            #expect(catalog.backlinks(to: try Self.note(catalog, "a/b/s")).map(\.text) == ["[[./s]]"])
            #expect(
                catalog.backlinks(to: try Self.note(catalog, "Plan")).map(\.text) == [
                    "[x](/Plan)", "[y](/Plan.md)",
                ])
            #expect(catalog.backlinks(to: try Self.note(catalog, "a/b/Plan")).isEmpty)
            // The language server's one resolver, on a buffer's link.
            let link = try #require(NoteLinks.of(body: "[[../../Top]]").first)
            #expect(catalog.target(of: link, from: "a/b/deep.md")?.id == "Top")
            // Orphans: Top, s and Plan are linked to, by paths only.
            var query = NoteQuery()
            query.filter.orphan = true
            #expect(catalog.run(query).map(\.id).sorted() == ["a/b/Plan", "a/b/deep"])
        }
    }

    /// A path to a file ignores case as a path to a note does, and a path reaches a `.markdown`
    /// note as a name does.
    @Test func aPathFindsAFileInAnotherCaseAndAMarkdownNote() throws {
        let tree: [Sandbox.Item] = [
            .directory(".notes", [.file(".gitignore", Sandbox.stateIgnore)]), .directory(".obsidian", []),
            .file("img/x.png", "png"), .file("a/Other.markdown", "# Other\n"),
            .file("a/n.md", "![[../IMG/X.PNG]] [[./Other]] [[/a/Other]] ![[/img/y.png]]\n"),
        ]
        try Sandbox(tree: tree).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            #expect(
                catalog.links(of: try Self.note(catalog, "a/n")).map {
                    "\($0.link.text) -> \($0.note?.id ?? $0.file ?? "")"
                } == [
                    "![[../IMG/X.PNG]] -> img/x.png", "[[./Other]] -> a/Other.markdown",
                    "[[/a/Other]] -> a/Other.markdown", "![[/img/y.png]] -> ",
                ])
        }
    }

    @Test(arguments: [
        ("./s", "a/b/deep.md", "a/b/s"), ("../../Top", "a/b/deep.md", "Top"), ("/Top", "a/b/deep.md", "Top"),
        ("../../../Top", "a/b/deep.md", nil), ("../Top", "Top.md", nil), ("./", "a/b/deep.md", nil),
        ("./x//y/./z", "a/n.md", "a/x/y/z"), ("/a/./b/../c", "x/y/n.md", "a/c"), ("//Top", "a/n.md", "Top"),
        ("../a/../../b/../c", "x/n.md", nil), ("./..", "a/n.md", nil), ("./x/.", "n.md", nil),
        ("../Café/é", "a/b/n.md", "a/Café/é"), ("./s", "n.md", "s"),
    ])
    func wikiPathsAsVaultPaths(_ target: String, _ source: String, _ expected: String?) {
        let found = Array(target.utf8).withUnsafeBytes { LinkResolver.wikiPath($0, from: Array(source.utf8)) }
        #expect(found.map { String(decoding: $0, as: UTF8.self) } == expected)
        // As `Vault.normalized` reads the joined path, which the bytes must agree with.
        let folder = LinkKeys.folder(of: source)
        let joined =
            target.hasPrefix("/")
            ? String(target.drop { $0 == "/" }) : folder.isEmpty ? target : folder + "/" + target
        let normalized = Vault.normalized(joined)
        let last = target.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        let leaves = normalized.isEmpty || normalized == ".." || normalized.hasPrefix("../")
        #expect(expected == (["", ".", ".."].contains(last) || leaves ? nil : normalized))
    }

    /// A move rewrites a path link to a path of the same kind that reaches the note's new place:
    /// relative stays relative (with `./` when it does not climb), from the top stays from the top;
    /// and the moved note's own path links follow its folder.
    @Test func aMoveKeepsThemPathsOfTheirKind() throws {
        try Sandbox(tree: Self.tree + [.file("a/mid.md", "[[../Top]] [[./b/s]] [x](</Plan.md>)\n")]).test {
            root in
            let notes = store(try Vault(root: root))
            func move(_ id: String, to new: String) throws -> [String] {
                let plan = try notes.planMove(try notes.open(id, cwd: root), to: new)
                _ = try notes.move(plan)
                return plan.notes.flatMap { entry in
                    entry.rewrites.map { "\(entry.id): \($0.old) → \($0.new)" }
                }
            }
            #expect(
                try move("Top", to: "x/y/Top2") == [
                    "a/b/deep: [[../../Top]] → [[../../x/y/Top2]]", "a/b/deep: [[/Top]] → [[/x/y/Top2]]",
                    "a/b/deep: [[../../top#Top]] → [[../../x/y/Top2#Top]]",
                    "a/b/deep: [z](../../Top.md) → [z](../../x/y/Top2.md)",
                    "a/mid: [[../Top]] → [[../x/y/Top2]]",
                ])
            #expect(
                try move("a/b/s", to: "a/s") == [
                    "a/b/deep: [[./s]] → [[../s]]", "a/mid: [[./b/s]] → [[./s]]",
                ])
            #expect(
                try move("Plan", to: "a/b/My Plan") == [
                    "a/b/deep: [x](/Plan) → [x](/a/b/My%20Plan)",
                    "a/b/deep: [y](/Plan.md) → [y](/a/b/My%20Plan.md)",
                    "a/mid: [x](</Plan.md>) → [x](</a/b/My Plan.md>)",
                ])
            #expect(
                try move("a/b/deep", to: "q/deep") == [
                    "q/deep: [[../../x/y/Top2]] → [[../x/y/Top2]]", "q/deep: [[../s]] → [[../a/s]]",
                    "q/deep: [[../../x/y/Top2#Top]] → [[../x/y/Top2#Top]]",
                    "q/deep: ![[../../img/x.png]] → ![[../img/x.png]]",
                    "q/deep: [z](../../x/y/Top2.md) → [z](../x/y/Top2.md)",
                ])
            let catalog = notes.refresh()
            // What was broken before is broken still; nothing else is.
            #expect(
                catalog.brokenLinks().map(\.text) == [
                    "[[../../../Top]]", "[[./Top]]", "![[../../../img/x.png]]", "[w](/../Plan.md)",
                ])
            #expect(catalog.backlinks(to: try Self.note(catalog, "x/y/Top2")).count == 5)
        }
    }
}
