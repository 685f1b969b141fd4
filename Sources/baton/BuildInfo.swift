import Foundation

/// What the report says about the build that ran a campaign.
enum BuildInfo {
    /// The CLI's version.
    static let version = "0.7.0"

    /// `debug` or `release` (mutants exist only in debug builds).
    static var configuration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    /// The git commit of the checkout this binary was built from, when it can be known: `git
    /// describe` in the source folder (SwiftPM embeds nothing without a plugin), else CI's
    /// `GITHUB_SHA`, else "unknown". A checkout with uncommitted changes ends in `-dirty`.
    static func commit(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        if FileManager.default.fileExists(atPath: sources),
           let described = run(["git", "-C", sources, "describe", "--always", "--dirty", "--abbrev=12"]), !described.isEmpty {
            return described
        }
        if let sha = environment["GITHUB_SHA"], !sha.isEmpty { return sha }
        return "unknown"
    }

    /// The build as the campaign report names it.
    static func report() -> [String: String] {
        ["version": version, "commit": commit(), "configuration": configuration]
    }

    /// Runs a command and returns its first line of output, or nil when it fails.
    private static func run(_ words: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = words
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
    }
}
