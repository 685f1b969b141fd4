import Foundation
import Testing
@testable import baton

/// A wrong command line gets one line on standard error that says what is wrong and where its
/// help is, and exit status 64; it never traps and never runs something else silently.
@Suite("The CLI refuses a wrong command line in one line")
struct CommandLineErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let says: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["sim", "run", "--seed", "1", "--events", "-5"], says: "--events takes a whole number from 1 to 100000, not -5"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--events", "0"], says: "--events takes a whole number from 1 to 100000, not 0"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--internal-shard", "1/0"], says: "unknown option --internal-shard"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--shard", "1/0"], says: "--shard takes I/N with 1 ≤ I ≤ N, e.g. 2/4, not 1/0"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--shard", "5/4"], says: "--shard takes I/N"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..2", "--shard", "4/4"], says: "shard 4/4 of --seeds 0..2 has no seeds"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--json", "/nonexistent/x.json"], says: "--json: cannot write /nonexistent/x.json: there is no folder /nonexistent"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--jobs", "0"], says: "--jobs takes a whole number from 1 to 64, not 0"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--jobs", "-2"], says: "--jobs takes a whole number from 1 to 64, not -2"),
        Case(arguments: ["sim", "run", "--seed", "1", "extra"], says: "unexpected word \"extra\""),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "and", "more"], says: "unexpected word \"and\""),
        Case(arguments: ["sim", "run", "--seed", "1", "--bogus"], says: "unknown option --bogus"),
        Case(arguments: ["sim", "run", "--seed", "1", "--bogus", "value"], says: "unknown option --bogus"),
        Case(arguments: ["sim", "run", "--seed", "1", "-x"], says: "unknown option -x (options start with --)"),
        Case(arguments: ["sim", "run", "--seed", "1", "--evnts", "5"], says: "unknown option --evnts (did you mean --events?)"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--job", "2"], says: "unknown option --job (did you mean --jobs?)"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--no-shrnk"], says: "unknown option --no-shrnk (did you mean --no-shrink?)"),
        Case(arguments: ["sim", "run", "--seed"], says: "--seed needs a value"),
        Case(arguments: ["sim", "run", "--seed", "--trace"], says: "--seed needs a value"),
        Case(arguments: ["sim", "run", "--seed", "abc"], says: "--seed takes a whole number from 0 to 18446744073709551615, not abc"),
        Case(arguments: ["sim", "run", "--seed", "1", "--seed", "2"], says: "--seed is given twice"),
        Case(arguments: ["sim", "run", "--seed", "1", "--trace=yes"], says: "--trace takes no value"),
        Case(arguments: ["sim", "run", "--seed", "1", "--add-typename"], says: "--add-typename goes with --schema FILE --operations FILE[,FILE…]"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--world", "github", "--add-typename"],
             says: "--add-typename goes with --schema and --operations; a world folder says \"addTypename\": true in its world.json"),
        Case(arguments: ["sim", "run", "--seed", "1", "--add-typename=yes"], says: "--add-typename takes no value"),
        Case(arguments: ["sim", "campaign", "--seeds", "5..1"], says: "--seeds 5..1: the first seed is after the last"),
        Case(arguments: ["sim", "campaign", "--seeds", "lots"], says: "--seeds takes A..B, A.. or random (e.g. 0..999), not lots"),
        Case(arguments: ["sim", "campaign"], says: "missing --seeds"),
        Case(arguments: ["sim", "campaign", "--seed", "0..9"], says: "unknown option --seed (did you mean --seeds?)"),
        Case(arguments: ["normalize", "--shcema", "s", "--document", "d", "--response", "r"], says: "unknown option --shcema (did you mean --schema?)"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--for", "10x"], says: "--for takes a duration such as 90s, 10m, 1h or 1h30m, not 10x"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--for", "0s"], says: "a time budget lies between 1s and 30 days"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--for", "-1m"], says: "--for takes a duration"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--max-failures", "0"], says: "--max-failures takes a whole number of at least 1, not 0"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--mutant", "nope"], says: "unknown mutant nope"),
        Case(arguments: ["sim", "campaign", "--seeds", "0..3", "--no-shrink", "--save-regressions", "kept"], says: "--save-regressions saves shrunk failures: it does not go with --no-shrink"),
        Case(arguments: ["sim", "mutants", "--seeds", "9..1"], says: "--seeds takes A..B with A ≤ B"),
        Case(arguments: ["sim", "replay"], says: "baton sim replay needs a replay FILE"),
        Case(arguments: ["sim", "replay", "a.json", "b.json"], says: "unexpected word \"b.json\""),
        Case(arguments: ["sim", "sweep"], says: "missing --seed"),
        Case(arguments: ["sim", "sweep", "--seed", "x"], says: "--seed takes a whole number from 0 to 18446744073709551615, not x"),
        Case(arguments: ["sim", "sweep", "--seed", "1", "--mode", "explode"], says: "--mode takes fail or crash, not explode"),
        Case(arguments: ["sim", "sweep", "--seed", "1", "--events", "0"], says: "--events takes a whole number from 1 to 100000, not 0"),
        Case(arguments: ["sim", "sweep", "--seed", "1", "--world", "nowhere"], says: "nowhere"),
        Case(arguments: ["sim", "sweep", "--seed", "1", "extra"], says: "unexpected word \"extra\""),
        Case(arguments: ["sim", "bogus"], says: "unknown sim command bogus"),
        Case(arguments: ["sim"], says: "baton sim needs a command"),
        Case(arguments: ["stress"], says: "missing --kills"),
        Case(arguments: ["stress", "--kills", "0"], says: "--kills takes a whole number of at least 1, not 0"),
        Case(arguments: ["stress", "--kills", "many"], says: "--kills takes a whole number of at least 1, not many"),
        Case(arguments: ["stress", "--kills", "3", "--seed", "-1"], says: "--seed takes a whole number from 0 to 18446744073709551615, not -1"),
        Case(arguments: ["stress", "--kills", "3", "--mutant", "nope"], says: "unknown mutant nope"),
        Case(arguments: ["stress", "--kills", "3", "--checkpoint-pages", "0"], says: "--checkpoint-pages takes a whole number from 1 to 2147483647, not 0"),
        Case(arguments: ["stress", "--kills", "3", "--bogus"], says: "unknown option --bogus"),
        Case(arguments: ["stress", "--kills", "3", "--dir"], says: "--dir needs a value"),
        Case(arguments: ["stress", "--child", "--workload", "w"], says: "missing --image"),
        Case(arguments: ["bogus"], says: "unknown command bogus"),
    ]

    @Test("one line, a pointer to the help, exit status 64", arguments: cases)
    func refused(_ example: Case) throws {
        let result = try BatonProcess.run(example.arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing ran: \(result.stdout)")
        let lines = result.errorLines
        #expect(lines.count == 1, "one line: \(lines)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("baton: "))
        #expect(line.contains(example.says), "\(line)")
        #expect(line.contains("--help`"), "a pointer to the help: \(line)")
    }

    @Test("--replays into a folder that cannot be made is refused before any seed runs")
    func unwritableReplays() throws {
        try TemporaryFolder.with { folder in
            // A file where the folder's parent should be: no user, root included, can make it.
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("plain").path, contents: Data("x".utf8))
            let result = try BatonProcess.run(["sim", "campaign", "--seeds", "0..3", "--replays", "plain/replays"], in: folder)
            #expect(result.status == 64)
            #expect(result.errorLines == ["baton: --replays: cannot write plain/replays: plain is a file, not a folder; see `baton sim campaign --help`"])
            let run = try BatonProcess.run(["sim", "run", "--seed", "1", "--replays", "plain/replays"], in: folder)
            #expect(run.status == 64)
            #expect(run.stdout.isEmpty, "refused before the seed runs")
            #expect(run.errorLines == ["baton: --replays: cannot write plain/replays: plain is a file, not a folder; see `baton sim run --help`"])
        }
    }

    @Test("a replay file that is not UTF-8 is refused in one line naming the byte, not read with the bytes replaced")
    func replayNotUTF8() throws {
        try TemporaryFolder.with { folder in
            // Valid JSON up to a byte that no UTF-8 text holds, inside a string.
            let bytes = Array("{\"baton-replay\":1,\"note\":\"ab".utf8) + [0xFF] + Array("\",\"events\":[]}".utf8)
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("r.json").path, contents: Data(bytes))
            let result = try BatonProcess.run(["sim", "replay", "r.json"], in: folder)
            #expect(result.status == 65)
            #expect(result.errorLines == ["baton: r.json: not UTF-8 text (byte 28)"], "\(result.stderr)")
        }
    }

    @Test("--variables that are not a JSON object say so", arguments: [
        ("[1]", "--variables must hold a JSON object such as {\"id\": \"1\"}, not an array"),
        ("abc", "--variables takes a JSON object, inline or in a file: there is no file abc, and it is not JSON"),
        ("{\"id\":", "--variables is not JSON"),
    ])
    func variables(_ text: String, _ says: String) throws {
        try TemporaryFolder.with { folder in
            try "type Query { a: Int }".write(to: folder.appendingPathComponent("s.graphql"), atomically: true, encoding: .utf8)
            try "query Q { a }".write(to: folder.appendingPathComponent("q.graphql"), atomically: true, encoding: .utf8)
            try "{\"data\":{\"a\":1}}".write(to: folder.appendingPathComponent("r.json"), atomically: true, encoding: .utf8)
            let result = try BatonProcess.run(["read", "--schema", "s.graphql", "--document", "q.graphql", "--response", "r.json",
                                               "--variables", text], in: folder)
            #expect(result.status == 64)
            #expect(result.errorLines.count == 1)
            #expect(result.stderr.contains(says), "\(result.stderr)")
        }
    }

    @Test("every command answers --help with its usage, exit 0", arguments: Help.commands.map(\.path))
    func help(_ path: [String]) throws {
        let result = try BatonProcess.run(path + ["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("usage: baton " + path.joined(separator: " ")), "\(result.stdout)")
        #expect(result.stderr.isEmpty)
    }

    @Test("--help wins over everything else on the line")
    func helpAnywhere() throws {
        let result = try BatonProcess.run(["sim", "run", "--seed", "1", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: baton sim run --seed N"))
        let none = try BatonProcess.run([])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("usage:"))
    }
}
