import NotesKit
import Testing

@Suite struct ShellTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("work/standup", "work/standup"),
        ("東京-メモ", "東京-メモ"),
        ("crème-brûlée", "crème-brûlée"),
        ("Release notes/v1.13.8", "'Release notes/v1.13.8'"),
        ("it's", #"'it'\''s'"#),
        ("$HOME", "'$HOME'"),
        ("a;rm -rf b", "'a;rm -rf b'"),
        ("*", "'*'"),
        ("", "''"),
        ("tab\there", "'tab\there'"),
        ("nbsp\u{00A0}x", "'nbsp\u{00A0}x'"),
        ("~/My Notes", "~/'My Notes'"),
        ("~/Notes", "~/Notes"),
        ("~user", "'~user'"),
    ])
    func quote(word: String, quoted: String) {
        #expect(Shell.quote(word) == quoted)
    }
}

@Suite struct HashingTests {
    /// FNV-1a's published test values: names made from it must not change between versions.
    @Test(arguments: [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")])
    func fnv1a(text: String, hex: String) {
        #expect(Hashing.fnv1a(text.utf8) == hex)
    }
}
