import Foundation
import Testing

@testable import Baton

/// The `baton` command line, built beside the tests, run as a child process.
enum BatonProcess {
    /// The executable: beside the test bundle (or a few folders up), else in `.build/debug`.
    static let executable: URL? = {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("baton")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let built = root.appendingPathComponent(".build/debug/baton")
        return FileManager.default.isExecutableFile(atPath: built.path) ? built : nil
    }()

    /// Runs `baton arguments…` to its end.
    static func run(_ arguments: [String]) throws -> ToolProcess.Run {
        let executable = try #require(executable, "the baton executable is built beside the tests")
        return try ToolProcess.run(executable, arguments)
    }
}

/// Every file of a directory with its bytes: what "left untouched" is checked against.
struct DirectorySnapshot: Equatable, CustomStringConvertible {
    var files: [String: Data]

    init(_ path: String) throws {
        files = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path).sorted() {
            files[name] = FileManager.default.contents(atPath: path + "/" + name) ?? Data()
        }
    }

    var description: String {
        files.keys.sorted().map { "\($0) (\(files[$0]!.count) bytes)" }.joined(separator: ", ")
    }
}
