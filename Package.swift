// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Baton",
    products: [
        .library(name: "Baton", targets: ["Baton"]),
        .library(name: "BatonSim", targets: ["BatonSim"]),
        .executable(name: "baton", targets: ["baton"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "CBatonVFS",
            dependencies: ["CSQLite"],
            path: "Sources/CBatonVFS"
        ),
        // CRC-32C with the processor's instruction, for the image's row checksums.
        .target(
            name: "CBatonCRC",
            path: "Sources/CBatonCRC"
        ),
        .target(
            name: "Baton",
            dependencies: ["CSQLite", "CBatonCRC"],
            path: "Sources/Baton",
            swiftSettings: [.define("BATON_MUTANTS", .when(configuration: .debug))]
        ),
        .target(
            name: "BatonSim",
            dependencies: ["Baton", "CBatonVFS", "CSQLite"],
            path: "Sources/BatonSim",
            swiftSettings: [.define("BATON_MUTANTS", .when(configuration: .debug))]
        ),
        .executableTarget(
            name: "baton",
            dependencies: ["Baton", "BatonSim"],
            path: "Sources/baton"
        ),
        // The ingest benchmark's floor, a byte scan, in C: its speed must not move with the
        // benchmark's Swift code (the same loop in Swift ran 0.400 or 0.485 ms by build).
        .target(
            name: "CByteScan",
            path: "Benchmarks/CByteScan"
        ),
        .executableTarget(
            name: "BatonBenchmarks",
            dependencies: ["Baton", "BatonSim", "CSQLite", "CByteScan"],
            path: "Benchmarks/Sources"
        ),
        .testTarget(
            name: "BatonTests",
            dependencies: ["Baton"],
            path: "Tests/BatonTests",
            swiftSettings: [.define("BATON_MUTANTS", .when(configuration: .debug))]
        ),
        .testTarget(
            name: "Persistence",
            dependencies: ["Baton", "BatonSim", "CSQLite"],
            path: "Tests/Persistence",
            swiftSettings: [.define("BATON_MUTANTS", .when(configuration: .debug))]
        ),
        .testTarget(
            name: "UserWorldTests",
            dependencies: ["Baton", "BatonSim"],
            path: "Tests/UserWorldTests",
            swiftSettings: [.define("BATON_MUTANTS", .when(configuration: .debug))]
        ),
        .testTarget(
            name: "Properties",
            dependencies: ["Baton", "BatonSim", "CSQLite"],
            path: "Tests/Properties",
            swiftSettings: [.define("BATON_MUTANTS", .when(configuration: .debug))]
        ),
        // The CLI (its parser in-process, its commands as a spawned `baton`), campaigns, replay
        // files and the regressions folder.
        .testTarget(
            name: "CLITests",
            dependencies: ["baton", "Baton", "BatonSim"],
            path: "Tests/CLITests",
            swiftSettings: [.define("BATON_MUTANTS", .when(configuration: .debug))]
        ),
    ]
)
