import Foundation
import Testing

/// The `baton` executable built beside the tests, run as a person or a CI job runs it.
struct BatonProcess {
    /// What one run printed and how it ended.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard error's lines, without the progress that a pipe gets.
        var errorLines: [String] {
            stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("progress: ") }
        }
    }

    /// A run in progress, for the tests that signal it.
    final class Running {
        let process: Process
        let output: URL
        let error: URL

        init(process: Process, output: URL, error: URL) {
            self.process = process
            self.output = output
            self.error = error
        }

        var stderr: String { (try? String(contentsOf: error, encoding: .utf8)) ?? "" }

        /// Waits until standard error holds `text` (or `timeout` seconds pass); true when it does.
        func waitFor(_ text: String, timeout: Double) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if stderr.contains(text) { return true }
                if !process.isRunning { return stderr.contains(text) }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }

        func finish() -> Result {
            process.waitUntilExit()
            return Result(status: process.terminationStatus,
                          stdout: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
                          stderr: stderr)
        }
    }

    static let executable: URL? = {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("baton")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let fromSource = repository.appendingPathComponent(".build/debug/baton")
        return FileManager.default.isExecutableFile(atPath: fromSource.path) ? fromSource : nil
    }()

    /// The checkout these tests belong to.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Starts `baton arguments` in `directory`, standard output and error going to files there.
    static func start(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Running {
        let executable = try #require(Self.executable, "the baton executable is built beside the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let id = UUID().uuidString.prefix(8)
        let output = directory.appendingPathComponent(".stdout-\(id)")
        let error = directory.appendingPathComponent(".stderr-\(id)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: error.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: error)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, output: output, error: error)
    }

    /// Runs `baton arguments` to its end.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        if let directory { return try start(arguments, in: directory, environment: environment).finish() }
        return try TemporaryFolder.with { try start(arguments, in: $0, environment: environment).finish() }
    }
}

/// A fresh folder for one test.
enum TemporaryFolder {
    /// Runs `body` with a fresh folder, and removes the folder afterwards.
    static func with<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = try make()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    static func make() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("baton-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
