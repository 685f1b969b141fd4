/// Bit rot: rows whose bytes the runner flipped at rest.
///
/// The model allows exactly one thing of a rotted row: to be missing. Its checksum must catch the
/// flip, so the row reads as a miss (a check finds it absent, hydration leaves memory as it was,
/// the writer's merge finds no old row and the snapshot stands alone) and is never served as other
/// data. A rotted row whose flip did not survive (the page came back whole from the WAL) must read
/// exactly as the model's.
extension Oracle {
    /// Notes the record rows, root cells and fetch times the runner flipped a bit in.
    package mutating func noteRot(_ flipped: ImageDamage) {
        rotted.formUnion(flipped)
    }

    /// A relaunch found `damaged` rows failing their checksums: the model's image (and every state
    /// a later crash may return to) loses them, and only they stay rotted.
    package mutating func forgetDamaged(_ damaged: ImageDamage) {
        coverage.rottedRowsMissed += damaged.count
        image = image.removing(damaged)
        states = states.map { $0.removing(damaged) }
        rotted = damaged
    }
}

/// Rows of an image that failed (or may fail) their checksums: record rows, root cells and fetch
/// times, by table and key.
package struct ImageDamage: Sendable, Equatable {
    /// The image's tables that rows can be damaged in, by the names the model's reader reports.
    package enum Table: String, Sendable, CaseIterable {
        case records, root, fetches
    }

    private var keys: [Table: Set<OracleText>] = [:]

    package init(records: Set<OracleText> = [], root: Set<OracleText> = [], fetches: Set<OracleText> = []) {
        keys = [.records: records, .root: root, .fetches: fetches]
    }

    /// The damage the model's reader reported (its other tables ignored).
    package init(_ problems: [ImageDecodeProblem.Entry]) {
        for problem in problems {
            guard let table = Table(rawValue: problem.table) else { continue }
            insert(OracleText(problem.key), in: table)
        }
    }

    package func keys(in table: Table) -> Set<OracleText> { keys[table] ?? [] }
    package func contains(_ key: OracleText, in table: Table) -> Bool { keys[table]?.contains(key) ?? false }
    package mutating func insert(_ key: OracleText, in table: Table) { keys[table, default: []].insert(key) }
    package mutating func formUnion(_ other: ImageDamage) {
        for table in Table.allCases { keys[table, default: []].formUnion(other.keys(in: table)) }
    }

    package var isEmpty: Bool { count == 0 }
    package var count: Int { keys.values.reduce(0) { $0 + $1.count } }
    /// Every entry, table by table, each in key order.
    package var entries: [(table: Table, key: OracleText)] {
        Table.allCases.flatMap { table in keys(in: table).sorted().map { (table, $0) } }
    }
    /// Every entry as the trace names it (a record's key, `root <field>`, `fetch <operation>`),
    /// in UTF-8 order.
    package var names: [OracleText] { entries.map { Self.name($0.table, $0.key) }.sorted() }

    package static func name(_ table: Table, _ key: OracleText) -> OracleText {
        switch table {
        case .records: key
        case .root: OracleText("root " + key.string)
        case .fetches: OracleText("fetch " + key.string)
        }
    }
}

extension OracleImage {
    /// The image without the rows `damage` names.
    package func removing(_ damage: ImageDamage) -> OracleImage {
        guard !damage.isEmpty else { return self }
        var image = self
        for (table, key) in damage.entries {
            switch table {
            case .records: image.records[key] = nil
            case .root: image.root[key] = nil
            case .fetches: image.fetches[key] = nil
            }
        }
        return image
    }

    /// The image's one row of `key` in `table` alone, at `generation` (empty when it has none).
    package func only(_ key: OracleText, in table: ImageDamage.Table, generation: Int) -> OracleImage {
        var image = OracleImage(generation: generation)
        switch table {
        case .records: image.records[key] = records[key]
        case .root: image.root[key] = root[key]
        case .fetches: image.fetches[key] = fetches[key]
        }
        return image
    }

    package var hasRows: Bool { !records.isEmpty || !root.isEmpty || !fetches.isEmpty }
}
