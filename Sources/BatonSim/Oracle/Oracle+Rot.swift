/// Bit rot: rows whose bytes the runner flipped at rest.
///
/// The model allows exactly one thing of a rotted row: to be missing. Its checksum must catch the
/// flip, so the row reads as a miss (a check finds it absent, hydration leaves memory as it was,
/// the writer's merge finds no old row and the snapshot stands alone) and is never served as other
/// data. A rotted row whose flip did not survive (the page came back whole from the WAL) must read
/// exactly as the model's.
extension Oracle {
    /// Notes the record rows the runner flipped a bit in.
    package mutating func noteRot(_ keys: [OracleText]) {
        rotted.formUnion(keys)
    }

    /// A relaunch found `damaged` rows failing their checksums: the model's image (and every state
    /// a later crash may return to) loses them, and only they stay rotted.
    package mutating func forgetDamaged(_ damaged: Set<OracleText>) {
        coverage.rottedRowsMissed += damaged.count
        for key in damaged { image.records[key] = nil }
        states = states.map { state in
            var state = state
            for key in damaged { state.records[key] = nil }
            return state
        }
        rotted = damaged
    }
}

extension OracleImage {
    /// The image without the record rows of `keys`.
    package func removingRecords(_ keys: Set<OracleText>) -> OracleImage {
        guard !keys.isEmpty else { return self }
        var image = self
        for key in keys { image.records[key] = nil }
        return image
    }
}
