import Foundation
import Testing

/// The `baton` command line, built beside the tests, run as a child process.
enum BatonProcess {
    /// What one run printed and how it ended.
    struct Run: CustomStringConvertible {
        var status: Int32
        var output: String
        var errors: String

        var description: String { "exit \(status), stdout \(output.prefix(200)), stderr \(errors.prefix(400))" }
    }

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

    /// Starts `baton arguments…`; the caller waits for it with ``finish(_:)``.
    static func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let executable = try #require(executable, "the baton executable is built beside the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    /// Waits for a started run and collects what it printed.
    static func finish(_ started: (Process, Pipe, Pipe)) -> Run {
        let (process, output, errors) = started
        // Read both pipes to their ends before waiting, so a full pipe never blocks the child.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
            errors: String(decoding: complained, as: UTF8.self))
    }

    /// Runs `baton arguments…` to its end.
    static func run(_ arguments: [String]) throws -> Run {
        finish(try start(arguments))
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
