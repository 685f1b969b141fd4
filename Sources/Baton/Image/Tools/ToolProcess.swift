import Foundation

/// A child process of the reliability tools (`baton image race`, the tests that run `baton`):
/// started with its output captured, then waited for.
package enum ToolProcess {
    /// One finished run: its exit status and what it printed.
    package struct Run: CustomStringConvertible, Sendable {
        package var status: Int32
        package var output: String
        package var errors: String

        package var description: String { "exit \(status): \(errors.trimmingCharacters(in: .whitespacesAndNewlines))" }
    }

    /// A started run, waited for with ``finish(_:)``.
    package struct Started {
        let process: Process
        let output: Pipe
        let errors: Pipe
    }

    /// Starts `executable arguments…`.
    package static func start(_ executable: URL, _ arguments: [String]) throws -> Started {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let started = Started(process: process, output: Pipe(), errors: Pipe())
        process.standardOutput = started.output
        process.standardError = started.errors
        try process.run()
        return started
    }

    /// Waits for a started run and collects what it printed.
    package static func finish(_ started: Started) -> Run {
        // Both pipes are read to their ends before the wait; the tools print little on stderr.
        let printed = started.output.fileHandleForReading.readDataToEndOfFile()
        let complained = started.errors.fileHandleForReading.readDataToEndOfFile()
        started.process.waitUntilExit()
        return Run(
            status: started.process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
            errors: String(decoding: complained, as: UTF8.self))
    }

    /// Runs `executable arguments…` to its end.
    package static func run(_ executable: URL, _ arguments: [String]) throws -> Run {
        finish(try start(executable, arguments))
    }
}
