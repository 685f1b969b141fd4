import Baton

extension World {
    /// Why this world cannot show `mutant`'s bug at all, or `nil` when it can. A planted bug in a
    /// feature the world's operations never use survives every seed of it, and says nothing of
    /// the simulator: `baton sim mutants --check` reports it as not applicable there.
    package func cannotShow(_ mutant: Mutant) -> String? {
        switch mutant {
        case .deleteRecordFirstOnly:
            let bulkDeletes = analysis.mutations.values.contains { edits in edits.values.contains { $0.many && $0.deletes } }
            return bulkDeletes ? nil : "no mutation deletes by a list of ids (`ids: [ID!]!` with a @deleteRecord list)"
        default:
            return nil
        }
    }
}
