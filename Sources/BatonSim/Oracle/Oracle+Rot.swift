/// Bit rot: rows whose bytes the runner flipped at rest.
///
/// The model allows exactly one thing of a rotted row: to be missing. Its checksum must catch the
/// flip, so the row reads as a miss (a check finds it absent, hydration leaves memory as it was,
/// the writer's merge finds no old row and the snapshot stands alone) and is never served as other
/// data. A rotted row whose flip did not survive (the page came back whole from the WAL) must read
/// exactly as the model's.
extension Oracle {
    /// Notes the record rows, root cells and fetch times the runner flipped a bit in.
    package mutating func noteRot(records: [OracleText], root: [OracleText] = [], fetches: [OracleText] = []) {
        rotted.formUnion(records)
        rottedRoot.formUnion(root)
        rottedFetches.formUnion(fetches)
    }

    /// A relaunch found `damaged` rows failing their checksums: the model's image (and every state
    /// a later crash may return to) loses them, and only they stay rotted.
    package mutating func forgetDamaged(_ damaged: ImageDamage) {
        coverage.rottedRowsMissed += damaged.count
        image = image.removing(damaged)
        states = states.map { $0.removing(damaged) }
        rotted = damaged.records
        rottedRoot = damaged.root
        rottedFetches = damaged.fetches
    }
}

/// The rows of an image that failed their checksums: record rows, root cells and fetch times,
/// by key.
package struct ImageDamage: Sendable, Equatable {
    package var records: Set<OracleText> = []
    package var root: Set<OracleText> = []
    package var fetches: Set<OracleText> = []

    package init(records: Set<OracleText> = [], root: Set<OracleText> = [], fetches: Set<OracleText> = []) {
        self.records = records
        self.root = root
        self.fetches = fetches
    }

    package var isEmpty: Bool { records.isEmpty && root.isEmpty && fetches.isEmpty }
    package var count: Int { records.count + root.count + fetches.count }
    /// Every damaged row, root cells named `root <field>` and fetch times `fetch <operation>`.
    package var names: [OracleText] {
        records.sorted() + root.sorted().map { OracleText("root " + $0.string) } + fetches.sorted().map { OracleText("fetch " + $0.string) }
    }
}

extension OracleImage {
    /// The image without the rows `damage` names.
    package func removing(_ damage: ImageDamage) -> OracleImage {
        guard !damage.isEmpty else { return self }
        var image = self
        for key in damage.records { image.records[key] = nil }
        for key in damage.root { image.root[key] = nil }
        for key in damage.fetches { image.fetches[key] = nil }
        return image
    }
}
