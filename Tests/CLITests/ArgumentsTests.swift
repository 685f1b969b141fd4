import Testing
@testable import baton

@Suite("The argument parser")
struct ArgumentsTests {
    @Test("values, flags, = values and positional words")
    func parses() throws {
        var arguments = try Arguments(["file.json", "--seed", "7", "--trace", "--events=-5", "--", "--not-an-option"], flagNames: ["trace"])
        let seed = arguments.option("seed")
        #expect(seed == "7")
        let trace = arguments.flag("trace")
        #expect(trace)
        #expect(try arguments.integer("events") == -5)
        let first = arguments.takePositional(), second = arguments.takePositional()
        #expect(first == "file.json")
        #expect(second == "--not-an-option")
        try arguments.finish()
    }

    @Test("an unknown flag at the end of a line is unknown, not short of a value")
    func unknownAtEnd() throws {
        var arguments = try Arguments(["--seed", "1", "--bogus"], flagNames: [])
        _ = arguments.option("seed")
        #expect(throws: CLIError.self) { try arguments.finish() }
        #expect(message { try arguments.finish() } == "unknown option --bogus")
    }

    @Test("an option followed by another option has no value")
    func bareOption() throws {
        var arguments = try Arguments(["--json", "--quiet"], flagNames: ["quiet"])
        let json = arguments.option("json")
        #expect(json == nil)
        _ = arguments.flag("quiet")
        #expect(message { try arguments.finish() } == "--json needs a value")
        #expect(message { _ = try arguments.required("json") } == "--json needs a value")
    }

    @Test("an option whose value may be left out")
    func optionalValue() throws {
        var bare = try Arguments(["--save-regressions", "--seeds", "0..1"], flagNames: [])
        let bareValue = bare.optionalValue("save-regressions")
        #expect(bareValue == .some(nil))
        _ = bare.option("seeds")
        try bare.finish()
        var given = try Arguments(["--save-regressions", "kept"], flagNames: [])
        let givenValue = given.optionalValue("save-regressions")
        #expect(givenValue == .some("kept"))
        var absent = try Arguments([], flagNames: [])
        let absentValue = absent.optionalValue("save-regressions")
        #expect(absentValue == nil)
    }

    @Test("twice the same option, a flag with a value, extra words and bounds are errors")
    func refusals() throws {
        #expect(message { _ = try Arguments(["--seed", "1", "--seed=2"], flagNames: []) } == "--seed is given twice")
        #expect(message { _ = try Arguments(["--trace=1"], flagNames: ["trace"]) } == "--trace takes no value")
        var extra = try Arguments(["one", "two"], flagNames: [])
        _ = extra.takePositional()
        #expect(message { try extra.finish() } == "unexpected word \"two\"")
        var jobs = try Arguments(["--jobs", "0"], flagNames: [])
        #expect(message { _ = try jobs.integer("jobs", in: 1...64) } == "--jobs takes a whole number from 1 to 64, not 0")
    }

    @Test("an optional option misspelt is named with the nearest option the command knows")
    func misspeltOptional() throws {
        var events = try Arguments(["--evnts", "5"], flagNames: [])
        _ = events.option("events")
        _ = events.option("seed")
        #expect(message { try events.finish() } == "unknown option --evnts (did you mean --events?)")
        // The nearest wins over the first: one letter from --seeds, two from --seed.
        var seeds = try Arguments(["--seedss", "2"], flagNames: [])
        _ = seeds.option("seed")
        _ = seeds.option("seeds")
        #expect(message { try seeds.finish() } == "unknown option --seedss (did you mean --seeds?)")
        // At the same distance, the first in byte order.
        var tie = try Arguments(["--ab"], flagNames: ["ab"])
        _ = tie.flag("ac")
        _ = tie.flag("aa")
        #expect(message { try tie.finish() } == "unknown option --ab (did you mean --aa?)")
        // Nothing near: no guess.
        var far = try Arguments(["--verbose"], flagNames: ["verbose"])
        _ = far.option("seed")
        #expect(message { try far.finish() } == "unknown option --verbose")
        #expect(Arguments.distance("evnts", "events") == 1)
        #expect(Arguments.distance("seedss", "seed") == 2)
        #expect(Arguments.distance("jobz", "json") == 3)
        #expect(Arguments.distance("verbose", "seed") == 3)
    }

    @Test("a required option misspelt is named as the unknown option, not as missing")
    func misspeltRequired() throws {
        var swapped = try Arguments(["--respnose", "page.json"], flagNames: [])
        #expect(message { _ = try swapped.required("response") } == "unknown option --respnose (did you mean --response?)")
        var plural = try Arguments(["--seed", "0..9"], flagNames: [])
        #expect(message { _ = try plural.required("seeds") } == "unknown option --seed (did you mean --seeds?)")
        var unrelated = try Arguments(["--verbose"], flagNames: ["verbose"])
        #expect(message { _ = try unrelated.required("response") } == "missing --response")
        // An option already taken by the command is not a misspelling of another.
        var taken = try Arguments(["--seed", "3"], flagNames: [])
        _ = taken.option("seed")
        #expect(message { _ = try taken.required("seeds") } == "missing --seeds")
        #expect(Arguments.isNearMiss("shcema", of: "schema"))
        #expect(Arguments.isNearMiss("documnt", of: "document"))
        #expect(!Arguments.isNearMiss("world", of: "schema"))
        #expect(!Arguments.isNearMiss("kill", of: "image"))
    }

    /// The message of the usage error `body` throws, or nil.
    private func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as CLIError {
            return error.description
        } catch {
            return "\(error)"
        }
    }
}
