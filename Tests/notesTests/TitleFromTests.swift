import Foundation
import TestSupport
import Testing

/// The `titleFrom` setting: Obsidian's title is the file name.
@Suite struct TitleFromTests {
    func obsidianLike() throws -> Sandbox {
        let s = try Sandbox()
        try s.write(
            "Getting started/Download and install Obsidian.md",
            "Obsidian is available for all major desktop platforms.\n\nSee [[Sync]].\n")
        try s.write("Old notes.markdown", "---\ntitle: Front title\n---\n# Heading line\nText\n")
        return s
    }

    func json(_ r: RunResult) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    }

    @Test func contentIsTheDefault() throws {
        let s = try obsidianLike()
        let titles = try json(try s.run(["list", "--json", "--sort", "title"])).compactMap {
            $0["title"] as? String
        }
        #expect(titles == ["Front title", "Obsidian is available for all major desktop platforms."])
    }

    @Test func filenameTitlesAreListedSearchedAndResolved() throws {
        let s = try obsidianLike()
        // An index built with content titles must not be reused.
        #expect(try s.run(["list"]).status == 0)
        #expect(try s.run(["config", "set", "titleFrom", "filename"]).status == 0)
        let notes = try json(try s.run(["list", "--json", "--sort", "title"]))
        #expect(
            notes.compactMap { $0["title"] as? String } == ["Download and install Obsidian", "Old notes"])
        // The preview is the first line of the body, since no body line is the title.
        #expect(
            notes.first?["preview"] as? String == "Obsidian is available for all major desktop platforms.")
        #expect(notes.last?["preview"] as? String == "Heading line")
        let search = try s.run(["search", "download", "install"])
        #expect(search.stdout.hasPrefix("Getting started/Download and install Obsidian\t"), "\(search)")
        let show = try s.run(["show", "download and install obsidian"])
        #expect(show.status == 0 && show.stdout.hasPrefix("Obsidian is available"), "\(show)")
        // And back: the content titles return.
        #expect(try s.run(["config", "set", "titleFrom", "content"]).status == 0)
        let again = try json(try s.run(["list", "--json", "--sort", "title"])).compactMap {
            $0["title"] as? String
        }
        #expect(again == ["Front title", "Obsidian is available for all major desktop platforms."])
        #expect(try s.run(["search", "download"]).stdout.isEmpty)
    }

    @Test func anInvalidValueIsRefused() throws {
        let s = try Sandbox()
        let r = try s.run(["config", "set", "titleFrom", "heading"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("valid values: content, filename"), "\(r)")
    }
}
