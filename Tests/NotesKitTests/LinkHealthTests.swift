import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// Headings and block ids of a note, and how a link's `#…` is matched with them.
@Suite struct NoteAnchorsTests {
    @Test func headingsAndBlockIDsOutsideCode() {
        let anchors = NoteAnchors.of(
            body: """
                # Title
                Some text ^intro-1
                ##  Step 1: install ##
                #not-a-heading and #tag
                ```
                ## In a fence ^fenced
                ```
                `## in code` and `x ^spanned`
                    ####### seven
                - item ^Item2
                a^glued
                ### 
                """, firstLine: 4)
        #expect(
            anchors.headings == [
                NoteHeading(level: 1, text: "Title", line: 4),
                NoteHeading(level: 2, text: "Step 1: install", line: 6),
            ])
        #expect(anchors.blocks == [NoteBlock(id: "intro-1", line: 5), NoteBlock(id: "Item2", line: 13)])
    }

    @Test(arguments: [
        ("Step 1: install", true),  // as written
        ("step 1 install", true),  // case, and the `:` a link cannot hold
        ("Step  1   install", true),  // runs of blanks
        ("Step 1", false),
        ("Title#Step 1 install", true),  // a heading below another
        ("Step 1 install#Title", false),  // not below it
        ("Other#Step 1 install", false),
        ("^ITEM2", true),  // block ids ignore case
        ("^item", false),
        ("", true),
        ("hasTag", true),  // punctuation is a blank: `` `hasTag()` ``
        ("How large can it be", true),  // `?`
        ("^image-1", true),  // an id right after an embed
    ])
    func wikiHeadings(_ heading: String, _ found: Bool) {
        let anchors = NoteAnchors.of(
            body:
                "# Title\n## Step 1: install\n- x ^Item2\n### `hasTag()`\n## How large can it be?\n![[a.png]]^image-1\n"
        )
        #expect(anchors.has(NoteAnchors.want(heading)) == found)
    }

    @Test func aMarkdownFragmentMayBeTheGitHubSlug() {
        let anchors = NoteAnchors.of(body: "## Step 1: install\n")
        #expect(anchors.has(NoteAnchors.want("step-1-install"), markdown: true))
        #expect(!anchors.has(NoteAnchors.want("step-1-install"), markdown: false))
    }

    @Test func linksOfEveryKind() {
        let links = NoteLinks.all(
            body:
                "[[A#H]] [[#Here]] [[#^blk]] ![[p.png]] ![](img/a.png) [pdf](x.pdf#page=2) [n](n.md) ![u](https://x/a.png) ![](//cdn/a.png)\n"
        )
        #expect(
            links.map(\.kind) == [.note, .sameNote, .sameNote, .attachment, .attachment, .attachment, .note])
        #expect(links.map(\.decodedTarget) == ["A", "", "", "p.png", "img/a.png", "x.pdf", "n.md"])
        #expect(links.map(\.heading) == ["H", "Here", "^blk", nil, nil, "page=2", nil])
        // The links to notes alone, as `move` reads them.
        #expect(
            NoteLinks.of(body: "[[A#H]] [[#Here]] ![[p.png]] ![](a.png) [n](n.md)\n").map(\.target) == [
                "A", "n.md",
            ])
    }
}

/// Broken links with their reasons, and attachment links resolved against the vault's other files,
/// from the index.
@Suite struct LinkHealthTests {
    static let tree: [Sandbox.Item] = [
        .file(
            "hub.md",
            """
            # Hub
            ## Local part
            A paragraph. ^here
            [[plan#Goal]] [[plan#Missing heading]] [[plan#^b1]] [[plan#^noblock]] [[nowhere]]
            [[#Local part]] [[#Nope]] [[#^here]] [[plan#Goal#Sub]]
            ![[photo.png]] ![[gone.png]] ![](img/a.png) ![](img/gone.png) [pdf](docs/x.pdf) [[list.txt]]
            [md](work/plan.md#goal) [md](work/plan.md#nope) [bare](work/plan#Goal) [bare](work/nothing)

            """),
        .file("work/plan.md", "# Plan\n## Goal\n### Sub\ntext ^b1\n"),
        .file("media/photo.png", "png"),
        .file("img/a.png", "png"),
        .file("list.txt", "txt"),
        .file(".hidden/gone.png", "hidden files are no attachment targets"),
    ]

    static func broken(_ catalog: Catalog) -> [String] {
        catalog.brokenLinks().map { "\($0.line) \($0.text) \($0.problem?.rawValue ?? "-")" }
    }

    @Test func eachBrokenLinkHasItsReason() throws {
        try Sandbox(tree: Self.tree).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            #expect(
                Self.broken(catalog) == [
                    "4 [[plan#Missing heading]] missing-heading", "4 [[plan#^noblock]] missing-block",
                    "4 [[nowhere]] no-note", "5 [[#Nope]] missing-heading", "6 ![[gone.png]] no-file",
                    "6 ![](img/gone.png) no-file", "6 [pdf](docs/x.pdf) no-file",
                    "7 [md](work/plan.md#nope) missing-heading", "7 [bare](work/nothing) no-note",
                ])
        }
    }

    @Test func linksListAttachmentsWithTheirFiles() throws {
        try Sandbox(tree: Self.tree).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            let hub = try #require(catalog.notes.first { $0.id == "hub" })
            let links = catalog.links(of: hub).map {
                "\($0.link.text) -> \($0.note?.id ?? $0.file ?? "")\($0.problem.map { " " + $0.rawValue } ?? "")"
            }
            #expect(
                links.filter {
                    $0.contains("png") || $0.contains("pdf") || $0.contains("txt") || $0.contains("[[#")
                }
                    == [
                        "[[#Local part]] -> hub", "[[#Nope]] -> hub missing-heading", "[[#^here]] -> hub",
                        "![[photo.png]] -> media/photo.png", "![[gone.png]] ->  no-file",
                        "![](img/a.png) -> img/a.png", "![](img/gone.png) ->  no-file",
                        "[pdf](docs/x.pdf) ->  no-file", "[[list.txt]] -> list.txt",
                    ])
            // A link into its own note, or to a file, is no backlink.
            #expect(catalog.backlinks(to: hub).isEmpty)
        }
    }

    /// The index keeps the vault's other files: one that appears or vanishes is seen by the next
    /// command, and while the index is fresh nothing is read (that no note file is opened then is
    /// `ListFilterTests/filtersReadNoNoteFile`'s, with notes made unreadable).
    @Test func filesAppearingAndVanishingRefreshTheIndex() throws {
        try Sandbox(tree: Self.tree).test { root in
            let notes = store(try Vault(root: root))
            _ = notes.refresh()
            try Data("png".utf8).write(to: URL(fileURLWithPath: root + "/gone.png"))
            try FileManager.default.removeItem(atPath: root + "/media/photo.png")
            let catalog = notes.refresh()
            #expect(catalog.indexWritten && catalog.filesRead == 0)
            let attachments = Self.broken(catalog).filter { $0.hasSuffix("no-file") }
            #expect(attachments.first == "6 ![[photo.png]] no-file")
            #expect(!attachments.contains { $0.contains("![[gone.png]]") })
            let fresh = notes.refresh()
            #expect(!fresh.indexWritten && fresh.filesRead == 0)
            #expect(Self.broken(fresh) == Self.broken(catalog))
        }
    }
}
