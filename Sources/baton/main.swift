import Baton
import Foundation

/// `baton`: the store's command line. Every command answers `--help`; every error is one line on
/// standard error with a non-zero exit status (64: the command line, 65: an input, 1: otherwise).
@MainActor
func runCommand(_ words: [String]) throws -> Int32 {
    if Help.wanted(words) {
        print(Help.text(for: words))
        return 0
    }
    guard let command = words.first else {
        printError(Help.usage)
        return 64
    }
    let rest = Array(words.dropFirst())
    switch command {
    case "normalize": return try NormalizeCommand.run(rest, readBack: false)
    case "read": return try NormalizeCommand.run(rest, readBack: true)
    case "image": return try ImageCommand.run(rest)
    case "sim": return try SimCommand.run(rest)
    case "stress": return try StressCommand.run(rest)
    default:
        throw CLIError.usage("unknown command \(command)")
    }
}

let commandWords = Array(CommandLine.arguments.dropFirst())
do {
    exit(try runCommand(commandWords))
} catch let error as CLIError {
    if case .usage = error {
        printError("baton: \(oneLine(error.description)); \(Help.hint(for: commandWords))")
    } else {
        printError("baton: \(oneLine(error.description))")
    }
    exit(error.exitStatus)
} catch {
    printError("baton: \(oneLine("\(error)"))")
    exit(1)
}
