import Foundation
import Testing

@testable import NotesKit

/// One body and the attachment targets it has.
struct AttachmentCase: CustomTestStringConvertible, Sendable {
    var name: String
    var body: String
    var targets: [String]
    var testDescription: String { name }
}

/// One attachment link from a note, the files of the vault, and where it goes.
struct ResolutionCase: CustomTestStringConvertible, Sendable {
    var name: String
    var target: String
    var note: String
    var files: [String]
    var resolved: String?
    var testDescription: String { name }
}

/// Attachment links: embeds and links to files that are not notes, and where they go.
@Suite struct AttachmentLinkTests {
    static let bodies: [AttachmentCase] = [
        AttachmentCase(name: "an embed", body: "![[photo.png]]\n", targets: ["photo.png"]),
        AttachmentCase(
            name: "a wiki link to a PDF", body: "see [[docs/paper.pdf|the paper]]\n",
            targets: ["docs/paper.pdf"]),
        AttachmentCase(name: "an image", body: "![a cat](img/a.png \"cat\")\n", targets: ["img/a.png"]),
        AttachmentCase(name: "a link to a file", body: "[pdf](docs/x.pdf#page=2)\n", targets: ["docs/x.pdf"]),
        AttachmentCase(name: "percent-encoded", body: "![](My%20Photo.jpg)\n", targets: ["My Photo.jpg"]),
        AttachmentCase(
            name: "a badge inside a link", body: "[![b](b.svg)](docs/x.pdf)\n",
            targets: ["docs/x.pdf", "b.svg"]),
        AttachmentCase(
            name: "notes, URLs and anchors are not attachments",
            body: "[[plan]] ![[plan]] [p](plan.md) ![w](https://x.org/a.png) [m](mailto:a@b) [h](#part)\n",
            targets: []),
        AttachmentCase(
            name: "nothing in code", body: "`![[a.png]]` and\n```\n![](b.png)\n```\n![](c.png)\n",
            targets: ["c.png"]),
        AttachmentCase(
            name: "a colon that ends no scheme", body: "![](10:30.png) ![](img/a:b.png)\n",
            targets: ["10:30.png", "img/a:b.png"]),
        AttachmentCase(name: "an escaped bracket", body: "!\\[[a.png]] \\[x](b.pdf)\n", targets: []),
    ]

    @Test(arguments: bodies) func targets(_ c: AttachmentCase) {
        #expect(NoteLinks.attachments(body: c.body) == c.targets)
    }

    static let resolutions: [ResolutionCase] = [
        ResolutionCase(
            name: "from the note's folder first", target: "img/a.png", note: "trips/rome.md",
            files: ["trips/img/a.png", "img/a.png"], resolved: "trips/img/a.png"),
        ResolutionCase(
            name: "else from the vault's top", target: "img/a.png", note: "trips/rome.md",
            files: ["img/a.png"], resolved: "img/a.png"),
        ResolutionCase(
            name: "a leading slash is the vault's top", target: "/img/a.png", note: "trips/rome.md",
            files: ["trips/img/a.png", "img/a.png"], resolved: "img/a.png"),
        ResolutionCase(
            name: "up a folder", target: "../shared/a.png", note: "trips/rome.md",
            files: ["shared/a.png"], resolved: "shared/a.png"),
        ResolutionCase(
            name: "never out of the vault", target: "../../a.png", note: "trips/rome.md",
            files: [], resolved: nil),
        ResolutionCase(
            name: "never out of the vault, whatever has the name", target: "../../a.png",
            note: "trips/rome.md",
            files: ["a.png", "trips/a.png"], resolved: nil),
        ResolutionCase(
            name: "a relative path names only the file there", target: "./a.png", note: "trips/rome.md",
            files: ["a.png", "x/a.png"], resolved: nil),
        ResolutionCase(
            name: "a path from the top names only the file there", target: "/img/a.png",
            note: "trips/rome.md",
            files: ["trips/img/a.png"], resolved: nil),
        ResolutionCase(
            name: "else by file name, nearest first", target: "photo.png", note: "trips/rome.md",
            files: ["attachments/photo.png", "trips/media/photo.png", "z/photo.png"],
            resolved: "trips/media/photo.png"),
        ResolutionCase(
            name: "ties go to the smaller path", target: "photo.png", note: "rome.md",
            files: ["b/photo.png", "a/photo.png"], resolved: "a/photo.png"),
        ResolutionCase(
            name: "the extension is part of the name", target: "photo.png", note: "rome.md",
            files: ["photo.jpg", "photo"], resolved: nil),
    ]

    @Test(arguments: resolutions) func resolution(_ c: ResolutionCase) {
        #expect(AttachmentResolver.resolve(c.target, from: c.note, files: Set(c.files)) == c.resolved)
    }
}
