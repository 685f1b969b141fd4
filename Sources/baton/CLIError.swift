import Foundation

/// An error the CLI reports on standard error as one line, with a non-zero exit status.
enum CLIError: Error, CustomStringConvertible {
    /// The command line is wrong: exit status 64, and a pointer to the command's `--help`.
    case usage(String)
    /// An input (a file, a value, the environment) does not read: exit status 65.
    case input(String)
    /// Anything else that stops the command: exit status 1.
    case failed(String)

    var description: String {
        switch self {
        case .usage(let message), .input(let message), .failed(let message): message
        }
    }

    /// The exit status (sysexits' `EX_USAGE` and `EX_DATAERR` for the first two).
    var exitStatus: Int32 {
        switch self {
        case .usage: 64
        case .input: 65
        case .failed: 1
        }
    }
}

/// Reads a whole file, with an error that names it and says why.
func readFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        let why = !exists ? "no such file" : isFolder.boolValue ? "it is a folder" : "not readable"
        throw CLIError.input("cannot read \(path): \(why)")
    }
    return [UInt8](data)
}

/// Writes `text` to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// `text` on one line: line breaks become " / ", so every error is one line of a log.
func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " / ")
}
