import Baton
import Foundation

/// `baton`: the store's command line.
let usage = """
usage:
  baton normalize --schema SDL --document GRAPHQL [--operation NAME] [--variables JSON] --response JSON
  baton read      --schema SDL --document GRAPHQL [--operation NAME] [--variables JSON] --response JSON
  baton image write --image FILE --schema SDL --document GRAPHQL [--operation NAME] [--variables JSON] --response JSON
  baton image read  --image FILE --schema SDL --document GRAPHQL [--operation NAME] [--variables JSON]
  baton image dump  --image FILE
  baton image stats --image FILE
  baton image sweep [--damages N] [--seed S] [--first I] [--header] [--trace] [--directory DIR]
  baton image race  [--pairs N] [--directory DIR] [--baton PATH]
  baton sim run --seed N [--events K] [--trace] [--mutant NAME]
  baton sim campaign --seeds A..B [--jobs N] [--shard I/N] [--events K] [--json FILE] [--mutant NAME]
  baton sim replay FILE [--trace]
  baton sim mutants
"""

@MainActor
func runCommand(_ words: [String]) throws -> Int32 {
    guard let command = words.first else {
        print(usage)
        return 1
    }
    let rest = Array(words.dropFirst())
    switch command {
    case "normalize": return try NormalizeCommand.run(rest, readBack: false)
    case "read": return try NormalizeCommand.run(rest, readBack: true)
    case "image": return try ImageCommand.run(rest)
    case "sim": return try SimCommand.run(rest)
    case "help", "--help", "-h":
        print(usage)
        return 0
    default:
        throw CLIError.usage("unknown command \(command)\n\(usage)")
    }
}

do {
    exit(try runCommand(Array(CommandLine.arguments.dropFirst())))
} catch {
    printError("baton: \(error)")
    exit(1)
}
