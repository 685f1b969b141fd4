import Baton
import BatonSim
import Foundation

/// What `baton sim campaign` was asked to do, read from its command line.
struct CampaignSettings {
    /// How progress is shown.
    enum ProgressMode: Equatable {
        /// A line redrawn in place on a terminal, a plain line every few seconds in a pipe.
        case automatic
        case quiet
        /// A job of `--jobs`: `progress SEEDS EVENTS FAILURES` lines on standard output for the parent.
        case job
    }

    var seeds: SeedStream
    var randomStart = false
    var events = EnvironmentRun.campaignEvents
    var jobs = 1
    var mutant: Mutant?
    /// `--for`, in seconds.
    var timeBudget: Double?
    var maxFailures: Int?
    var jsonPath: String?
    /// Where shrunk failures go; nil with `--no-shrink`.
    var replayDirectory: String? = "replays"
    /// The regressions folder replayed first (`--regressions`; else the repository's; else the
    /// folder `--save-regressions` saves into); nil for none.
    var regressions: String?
    /// The folder shrunk failures are saved into as regressions, if any.
    var saveRegressions: String?
    var progress = ProgressMode.automatic
    /// The world the seeds run in.
    var world = WorldOption.standard

    /// The words of `sim campaign`'s options. `randomSeed` draws the first seed of `--seeds
    /// random`; `repository` is the Baton checkout the command runs in, if any.
    static func parse(_ words: [String], randomSeed: () -> UInt64, repository: String?) throws -> CampaignSettings {
        var arguments = try Arguments(words, flagNames: WorldOption.flagNames.union(["quiet", "progress-lines", "no-shrink"]))
        let seedsText = try arguments.required("seeds")
        var settings = CampaignSettings(seeds: SeedStream(first: 0, last: 0))
        if seedsText == "random" {
            settings.seeds = SeedStream(first: randomSeed(), last: nil)
            settings.randomStart = true
        } else {
            settings.seeds = try seedStream(seedsText)
        }
        if let text = arguments.option("shard") {
            settings.seeds.shard = try shard(text)
        }
        settings.jobs = try arguments.integer("jobs", in: 1...64) ?? 1
        settings.events = try SimCommand.events(&arguments)
        settings.mutant = try SimCommand.mutant(&arguments)
        settings.timeBudget = try arguments.option("for").map(duration)
        settings.maxFailures = try arguments.integer("max-failures", in: 1...Int.max)
        settings.jsonPath = arguments.option("json")
        if let replays = arguments.option("replays") { settings.replayDirectory = replays }
        if arguments.flag("no-shrink") { settings.replayDirectory = nil }
        let defaultRegressions = repository.map { $0 == "." ? "Fixtures/regressions" : $0 + "/Fixtures/regressions" }
        switch arguments.optionalValue("save-regressions") {
        case nil: break
        case .some(nil):
            guard let folder = arguments.option("regressions").flatMap({ $0 == "none" ? nil : $0 }) ?? defaultRegressions else {
                throw CLIError.usage("--save-regressions needs a folder outside the Baton repository (--save-regressions DIR)")
            }
            settings.saveRegressions = folder
        case .some(let folder?):
            settings.saveRegressions = folder
        }
        switch arguments.option("regressions") {
        case "none"?: settings.regressions = nil
        case let folder?: settings.regressions = folder
        // The repository's folder first: a CI job that saves elsewhere still replays it.
        case nil: settings.regressions = defaultRegressions ?? settings.saveRegressions
        }
        settings.world = try WorldOption.parse(&arguments)
        let quiet = arguments.flag("quiet")
        if arguments.flag("progress-lines") { settings.progress = .job } else if quiet { settings.progress = .quiet }
        try arguments.finish()
        if settings.saveRegressions != nil, settings.replayDirectory == nil {
            throw CLIError.usage("--save-regressions saves shrunk failures: it does not go with --no-shrink")
        }
        if settings.seeds.count == 0 {
            throw CLIError.usage("shard \(settings.seeds.shard) of --seeds \(settings.seeds) has no seeds")
        }
        return settings
    }

    /// `A..B` or `A..`.
    static func seedStream(_ text: String) throws -> SeedStream {
        let parts = text.components(separatedBy: "..")
        let usage = CLIError.usage("--seeds takes A..B, A.. or random (e.g. 0..999), not \(text)")
        guard parts.count == 2, let first = UInt64(parts[0]) else { throw usage }
        if parts[1].isEmpty { return SeedStream(first: first, last: nil) }
        guard let last = UInt64(parts[1]) else { throw usage }
        guard first <= last else { throw CLIError.usage("--seeds \(text): the first seed is after the last") }
        return SeedStream(first: first, last: last)
    }

    /// `I/N` with 1 ≤ I ≤ N.
    static func shard(_ text: String) throws -> Shard {
        let parts = text.components(separatedBy: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), let shard = Shard(index: i - 1, count: n) else {
            throw CLIError.usage("--shard takes I/N with 1 ≤ I ≤ N, e.g. 2/4, not \(text)")
        }
        return shard
    }

    /// A duration such as `90s`, `10m`, `1h`, `1h30m` or `2.5m`, in seconds.
    static func duration(_ text: String) throws -> Double {
        let usage = CLIError.usage("--for takes a duration such as 90s, 10m, 1h or 1h30m, not \(text)")
        var seconds = 0.0
        var number = ""
        var sawUnit = false
        for character in text {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            default: throw usage
            }
            guard let value = Double(number) else { throw usage }
            seconds += value * unit
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else { throw usage }
        guard seconds > 0, seconds <= 30 * 86_400 else { throw CLIError.usage("--for \(text): a time budget lies between 1s and 30 days") }
        return seconds
    }

    /// A first seed for `--seeds random`, drawn from the clock: nine digits, easy to type again.
    static func clockSeed() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var random = SimRandom(seed: UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec) ^ UInt64(getpid()))
        return random.next() % 1_000_000_000
    }

    /// The Baton checkout at or above the working folder (a folder whose Package.swift names
    /// the package Baton), if any: "." when it is the working folder.
    static func repository(from folder: String = FileManager.default.currentDirectoryPath) -> String? {
        let start = (folder as NSString).standardizingPath
        var current = start
        while true {
            let manifest = (current as NSString).appendingPathComponent("Package.swift")
            if let data = FileManager.default.contents(atPath: manifest),
               String(decoding: data, as: UTF8.self).contains("name: \"Baton\"") {
                return current == start ? "." : current
            }
            let up = (current as NSString).deletingLastPathComponent
            if up == current || up.isEmpty { return nil }
            current = up
        }
    }
}
