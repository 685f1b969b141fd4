/// Timeline pages written to files: beside a replay file a campaign or `sim run` writes
/// (`seed-N.json` → `seed-N.html`), or where `--html` says.
@MainActor
package enum TimelineFile {
    /// The page's path beside a replay file: its name with `.html` for `.json`.
    package static func path(besideReplay path: String) -> String {
        (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + ".html"
    }

    /// Writes `timeline`'s page to `path`.
    package static func write(_ timeline: Timeline, to path: String) throws(WriteError) {
        try FileWriting.write(Array(TimelinePage.render(timeline).utf8), to: path)
    }

    /// Replays `events` (on the disk of `seed`'s run, set up as that run's swarm says) recording a timeline, and writes its page
    /// to `path`, titled by the seed, the mutant and the replay file.
    package static func write(replaying events: [ScheduledEvent], seed: UInt64?, options: Simulation.Options, to path: String) throws(WriteError) {
        var recording = options
        recording.echo = false
        recording.recordsTimeline = true
        recording.events = events.count
        let disk = seed.map { Simulation.swarm(for: $0, world: options.world).disk }
        guard var timeline = Simulation.replay(events, seed: seed, disk: disk, options: recording).timeline else {
            throw WriteError(message: "no timeline for \(path): the world's plans do not build")
        }
        timeline.title = (seed.map { "seed \($0), " } ?? "") + "shrunk to \(events.count) events"
            + (options.mutant.map { ", mutant \($0.rawValue)" } ?? "") + ", world \(options.world.name)"
        try write(timeline, to: path)
    }

    /// ``write(running:options:to:)`` where the replay file `replayName` would be in `directory`
    /// (made if missing); returns the page's path.
    package static func write(running seed: UInt64, options: Simulation.Options, into directory: String, besideReplay replayName: String) throws(WriteError) -> String {
        try FileWriting.makeDirectory(directory)
        let page = path(besideReplay: ReplayFile.path(in: directory, name: replayName))
        try write(running: seed, options: options, to: page)
        return page
    }

    /// Runs `seed` again from its start, recording a timeline, and writes its page to `path`: the
    /// picture of a failure whose schedule did not fail again when replayed, so that it has no
    /// replay file to draw from (the whole run, up to the failing event).
    package static func write(running seed: UInt64, options: Simulation.Options, to path: String) throws(WriteError) {
        var recording = options
        recording.echo = false
        recording.recordsTimeline = true
        guard var timeline = Simulation.run(seed: seed, options: recording).timeline else {
            throw WriteError(message: "no timeline for \(path): the world's plans do not build")
        }
        timeline.title = "seed \(seed), the whole run (it did not fail again when replayed)"
            + (options.mutant.map { ", mutant \($0.rawValue)" } ?? "") + ", world \(options.world.name)"
        try write(timeline, to: path)
    }
}
