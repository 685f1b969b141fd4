import Baton
import BatonSim
import Testing

/// Runs seeds 0…11 of `world`, 150 events each, records an issue for every seed that fails (its
/// seed and failure), and returns the results for the coverage a test reads from them.
@MainActor @discardableResult
func expectCleanSeeds(_ world: SimulationWorld) -> [SimulationResult] {
    let results = Simulator.campaign(seeds: 0...11, in: world, events: 150)
    for (seed, result) in results.enumerated() {
        #expect(result.failure == nil, "seed \(seed): \(result.failure.map(String.init(describing:)) ?? "")")
    }
    return results
}
