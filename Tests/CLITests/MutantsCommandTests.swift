import BatonSim
import Testing

@testable import Baton
@testable import baton

#if BATON_MUTANTS
/// `baton sim mutants --check` and a mutant too rare for its seeds.
@MainActor
@Suite("Mutants' check: a scenario that guards a rare mutant catches it")
struct MutantsCommandTests {
    @Test("a mutant the seeds miss is caught by the repository's scenario that guards it; one without a scenario is not")
    func scenarioCatchesRareMutant() {
        let caught = SimMutantsCommand.caughtByScenario(.failedStructureReadDiscards, world: .standard)
        #expect(caught?.file == "structure-check-read-fault-keeps-file.json")
        #expect(caught?.invariant == "check-reads-rows")
        #expect(SimMutantsCommand.caughtByScenario(.readBackKeepsFirstSelection, world: .standard) == nil)
        // A scenario of the default world says nothing of another world.
        #expect(SimMutantsCommand.caughtByScenario(.failedStructureReadDiscards, world: World.builtIn("github")!) == nil)
    }
}
#endif
