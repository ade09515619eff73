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
        .testTarget(name: "NotesKitTests", dependencies: ["NotesKit"]),
        .testTarget(name: "notesTests", dependencies: ["notes", "NotesKit"]),
    ]
)
