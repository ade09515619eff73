// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MyNotes",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "notes", targets: ["notes"]),
        .library(name: "NotesKit", targets: ["NotesKit"]),
    ],
    targets: [
        .target(name: "NotesKit"),
        // notes.1 is the generated manual page kept beside the code it comes from (README: install).
        .executableTarget(name: "notes", dependencies: ["NotesKit"], exclude: ["notes.1"]),
        .executableTarget(name: "fold-bench", dependencies: ["NotesKit"], path: "Benchmarks/FoldBench"),
        // What both test targets share: the sandbox, the tree snapshot, the seeded generator, the
        // spawn helper and the pseudo-terminal (Tests/README.md).
        .target(name: "TestSupport", dependencies: ["NotesKit"], path: "Tests/TestSupport"),
        .testTarget(name: "NotesKitTests", dependencies: ["NotesKit", "TestSupport"]),
        // `notes` is a dependency so that `swift test` builds the binary the end-to-end tests run.
        .testTarget(name: "notesTests", dependencies: ["notes", "NotesKit", "TestSupport"]),
    ]
)
