import Baton
import Foundation

/// A folder of regressions: shrunk failures kept as replay files and replayed before every
/// campaign and by `swift test`, so that a fixed failure cannot come back unnoticed (as proptest
/// and Hypothesis keep theirs).
///
/// A regression is named `seed-<seed>-<invariant>[-<mutant>].json`. Its header names the seed,
/// the invariant and, for a failure found under a mutant, the mutant in `guards`: the schedule
/// passes as written and breaks the invariant with that mutant on. A regression found without a
/// mutant is a real bug: it fails until the bug is fixed and passes from then on.
package struct RegressionFolder: Hashable, Sendable {
    package var path: String

    package init(path: String) {
        self.path = path
    }

    /// The file name of a regression.
    package static func fileName(seed: UInt64, invariant: String, mutant: Mutant?) -> String {
        let safe = String(invariant.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        return "seed-\(seed)-\(safe)" + (mutant.map { "-" + $0.rawValue } ?? "") + ".json"
    }

    /// The folder's replay files, by name (never in listing order). A missing folder has none.
    package func files() throws(WriteError) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { throw WriteError(message: "the regressions folder \(path) is a file") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw WriteError(message: "cannot list the regressions folder \(path): \(error)")
        }
        return names.filter { $0.hasSuffix(".json") }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }

    /// Saves a shrunk failure as a regression and returns its path. Under a mutant the schedule
    /// must pass without it (else the failure is not the mutant's alone and is not saved).
    @MainActor
    package func save(seed: UInt64, violation: InvariantViolation, mutant: Mutant?, eventsPerSeed: Int,
                      events: [ScheduledEvent], world: World = .standard, writerBound: Int? = nil,
                      store: StoreSettings? = nil) throws(WriteError) -> String {
        if let mutant {
            var cleanOptions = Simulation.Options(events: events.count, world: world)
            cleanOptions.writerBound = writerBound
            cleanOptions.store = store
            let clean = Simulation.replay(events, seed: seed, disk: Simulation.swarm(for: seed, world: world).disk, options: cleanOptions)
            if let other = clean.failure {
                throw WriteError(message: "not saved as a regression: its schedule fails without \(mutant.rawValue) too (\(other.invariant)); replay it to see the bug")
            }
        }
        let named = world.name == World.defaultName ? nil : world.name
        let rerun = "baton sim run --seed \(seed) --events \(eventsPerSeed)" + (mutant.map { " --mutant \($0.rawValue)" } ?? "")
            + (named.map { " --world \($0)" } ?? "")
        let note = mutant == nil
            ? "Found by a campaign: fails until the bug is fixed, then guards the fix. The whole run: \(rerun)."
            : "Found by a campaign under \(mutant!.rawValue): passes, and fails under that mutant. The whole run: \(rerun)."
        let file = ReplayFile(seed: seed, invariant: violation.invariant, detail: violation.detail, guards: mutant,
                              note: note, world: named, disk: Simulation.swarm(for: seed, world: world).disk, writerBound: writerBound, store: store, events: events)
        return try file.write(into: path, name: Self.fileName(seed: seed, invariant: violation.invariant, mutant: mutant))
    }

    /// Replays every regression as written, under `mutant` when the campaign runs one (so a
    /// regression that guards it fails at once, as a persisted failure does in proptest).
    @MainActor
    /// A file naming a world other than the built-in ones replays in `world` when the names agree.
    package func replayAll(mutant: Mutant?, world: World? = nil) -> Campaign.RegressionReport {
        var report = Campaign.RegressionReport(folder: path)
        let files: [String]
        do {
            files = try self.files()
        } catch {
            report.failures.append(.init(path: path, violation: InvariantViolation(invariant: "regression-file", detail: error.message, eventIndex: -1)))
            return report
        }
        for file in files {
            report.replayed += 1
            if let violation = Self.replay(file, mutant: mutant, world: world) {
                report.failures.append(.init(path: file, violation: violation))
            }
        }
        return report
    }

    /// Replays one regression file; nil when it passes.
    @MainActor
    package static func replay(_ path: String, mutant: Mutant?, world given: World? = nil) -> InvariantViolation? {
        let file: ReplayFile
        let world: World
        do {
            guard let data = FileManager.default.contents(atPath: path) else {
                return InvariantViolation(invariant: "regression-file", detail: "cannot read \(path)", eventIndex: -1)
            }
            let text = String(decoding: data, as: UTF8.self)
            let named = try ReplayFile.parse(text, world: nil, checked: false).world
            let usable = given.flatMap { $0.name == named ? $0 : nil }
            file = try ReplayFile.parse(text, world: usable)
            world = try ReplayFile.resolveWorld(named: file.world, given: usable)
        } catch {
            return InvariantViolation(invariant: "regression-file", detail: "\(path): \(error.message)", eventIndex: -1)
        }
        var options = Simulation.Options(events: file.events.count, mutant: mutant ?? file.mutant, world: world)
        options.writerBound = file.writerBound
        options.store = file.store
        return Simulation.replay(file.events, seed: file.seed, disk: file.disk ?? DiskModel(), options: options).failure
    }
}
