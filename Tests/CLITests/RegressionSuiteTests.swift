import Baton
import BatonSim
import Foundation
import Testing

/// Every failure kept in `Fixtures/regressions` replays by itself, so that a fixed failure cannot
/// come back unnoticed. A regression found under a mutant passes as written and fails under the
/// mutant it names in `guards`; one found without a mutant fails until its bug is fixed.
@MainActor
@Suite("Fixtures/regressions: every kept failure replays")
struct RegressionSuiteTests {
    nonisolated static let folder = RegressionFolder(path: BatonProcess.repository.appendingPathComponent("Fixtures/regressions").path)

    nonisolated static let files: [String] = (try? folder.files()) ?? []

    private func read(_ path: String) throws -> ReplayFile {
        try ReplayFile.parse(try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test("the folder holds regressions, each named for its seed, invariant and mutant")
    func named() throws {
        #expect(Self.files.count >= 1)
        for path in Self.files {
            let file = try read(path)
            let seed = try #require(file.seed, "\(path) names its seed")
            let invariant = try #require(file.invariant, "\(path) names its invariant")
            let name = RegressionFolder.fileName(seed: seed, invariant: invariant, mutant: file.guards ?? file.mutant)
            #expect((path as NSString).lastPathComponent == name)
        }
    }

    @Test("each passes as written", arguments: files)
    func passes(path: String) throws {
        let file = try read(path)
        #expect(file.mutant == nil, "a regression guards a mutant (guards), it does not switch one on")
        let outcome = Simulation.replay(file.events, seed: file.seed, disk: file.disk, options: Self.options(file, mutant: nil))
        #expect(outcome.failure == nil, "\(path): \(outcome.failure.map(String.init(describing:)) ?? "")")
    }

    /// The options a campaign replays `file` with: its writer's bound and store settings.
    static func options(_ file: ReplayFile, mutant: Mutant?) -> Simulation.Options {
        var options = Simulation.Options(events: file.events.count, mutant: mutant)
        options.writerBound = file.writerBound
        options.store = file.store
        return options
    }

    #if BATON_MUTANTS
    @Test("each found under a mutant fails under it, with the invariant it names", arguments: files)
    func failsUnderItsMutant(path: String) throws {
        let file = try read(path)
        guard let mutant = file.guards else { return }
        let outcome = Simulation.replay(file.events, seed: file.seed, disk: file.disk, options: Self.options(file, mutant: mutant))
        #expect(outcome.failure?.invariant == file.invariant, "\(path) under \(mutant.rawValue): \(outcome.failure.map(String.init(describing:)) ?? "passed")")
    }
    #endif
}
