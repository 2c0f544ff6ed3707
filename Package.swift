// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ChatArchive",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ChatArchive", targets: ["ChatArchive"]),
        .executable(name: "chat-archive", targets: ["chat-archive"]),
        .executable(name: "chat-archive-serve", targets: ["chat-archive-serve"]),
        .executable(name: "chat-archive-bench", targets: ["chat-archive-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        // Documentation only: `swift package generate-documentation` (see .ci/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own dependencies, named for the server's imports of Logger and Channel.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    ],
    targets: [
        // Layer 0: plain values.
        .target(name: "ChatModel"),
        // Layer 1: the only code that sees ICU headers (and the FTS5 tokenizer written over them).
        .target(
            name: "CChatICU",
            linkerSettings: [
                .linkedLibrary("icuuc"), .linkedLibrary("icui18n"), .linkedLibrary("icudata"),
                .linkedLibrary("sqlite3"),
            ]),
        // Layer 1: stored message text compressed with the archive's dictionary, and the SQL
        // functions that read it (zstd is loaded at run time: nothing to build against).
        .target(name: "CChatZstd", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Layer 1: a checksum on every archive page, kept by a VFS shim in front of SQLite's own.
        .target(name: "CChatPages", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Layer 2: analysis (normaliser, tokenizer, markdown, mentions, display text).
        .target(name: "ChatText", dependencies: ["ChatModel", "CChatICU"]),
        // Layer 2: readers of export formats, producing ChatModel values.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "ChatImport",
            dependencies: ["ChatModel", "CZlib", .product(name: "GRDB", package: "GRDB.swift")]),
        // Layer 3: the SQLite archive.
        .target(
            name: "ChatIndex",
            dependencies: [
                "ChatModel", "ChatText", "CChatZstd", "CChatPages", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        // Layer 4: queries.
        .target(
            name: "ChatSearch",
            dependencies: ["ChatModel", "ChatText", "ChatIndex", .product(name: "GRDB", package: "GRDB.swift")]),
        // Layer 5: the public façade.
        .target(name: "ChatArchive", dependencies: ["ChatModel", "ChatText", "ChatImport", "ChatIndex", "ChatSearch"]),
        // Layer 6: the local web app over the façade (HTTP stays out of the library product).
        // Its page, script and style are real files in Web/, compiled in by the EmbedWebAssets plugin.
        .target(
            name: "ChatArchiveServer",
            dependencies: [
                "ChatArchive", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Web/index.html", "Web/app.js", "Web/app.css"],
            plugins: ["EmbedWebAssets"]),
        // Build time only: turns the web app's files into string constants (no resource bundle to find at run time).
        .executableTarget(name: "EmbedWebAssetsTool"),
        .plugin(
            name: "EmbedWebAssets", capability: .buildTool(), dependencies: ["EmbedWebAssetsTool"],
            path: "Sources/EmbedWebAssets"),
        // The command line's shared parts (global options, errors, terminal output, serve's options).
        .target(
            name: "ChatArchiveCommandLine",
            dependencies: ["ChatArchive", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // `chat-archive`: no HTTP stack linked, so every command's process starts small.
        .executableTarget(
            name: "chat-archive",
            dependencies: [
                "ChatArchive", "ChatArchiveCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `chat-archive serve` runs this program (found beside `chat-archive`).
        .executableTarget(
            name: "chat-archive-serve",
            dependencies: [
                "ChatArchive", "ChatArchiveCommandLine", "ChatArchiveServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "chat-archive-bench",
            dependencies: [
                "ChatModel", "ChatIndex", "ChatArchive", "ChatArchiveServer",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["BenchmarkLog.md", "compare.py", "RealText"]),
        .target(
            name: "ChatTestSupport",
            dependencies: [
                "ChatModel", "ChatImport", "ChatArchive", "ChatIndex", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/ChatTestSupport"),
        .testTarget(name: "ChatModelTests", dependencies: ["ChatModel"]),
        // Each test target declares every module its files import.
        .testTarget(name: "ChatTextTests", dependencies: ["ChatModel", "ChatText", "CChatICU", "ChatTestSupport"]),
        .testTarget(
            name: "ChatImportTests",
            dependencies: [
                "ChatModel", "ChatImport", "ChatArchive", "ChatTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "ChatIndexTests",
            dependencies: [
                "ChatText", "ChatIndex", "ChatArchive", "ChatTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "ChatSearchTests",
            dependencies: [
                "ChatText", "ChatIndex", "ChatSearch", "ChatArchive", "ChatTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "ChatArchiveTests",
            dependencies: [
                "ChatModel", "ChatText", "ChatImport", "ChatSearch", "ChatArchive", "ChatArchiveCommandLine",
                "ChatTestSupport", "chat-archive", "chat-archive-serve", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "ChatArchiveServerTests",
            dependencies: [
                "ChatArchive", "ChatArchiveServer", "ChatTestSupport", "chat-archive", "chat-archive-serve",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
