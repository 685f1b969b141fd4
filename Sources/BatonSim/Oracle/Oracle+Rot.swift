/// Bit rot: rows whose bytes the runner flipped at rest, and names whose checksums it flipped.
///
/// The model allows exactly one thing of a rotted row: to be missing. Its checksum must catch the
/// flip, so the row reads as a miss (a check finds it absent, hydration leaves memory as it was,
/// the writer's merge finds no old row and the snapshot stands alone) and is never served as other
/// data. A rotted row whose flip did not survive (the page came back whole from the WAL) must read
/// exactly as the model's. A row hidden by a damaged name misses the same way, until a drain
/// writes the name again; then it reads as it was.
extension Oracle {
    /// Notes the record rows, root cells and fetch times the runner flipped a bit in.
    package mutating func noteRot(_ flipped: ImageDamage) {
        rotted.formUnion(flipped)
    }

    /// A relaunch found `damaged` rows failing their checksums: the model's image (and every state
    /// a later crash may return to) loses them, and only they stay rotted.
    ///
    /// `hidden` are those that verify but use a name whose checksum fails: the model keeps what
    /// they hold (``dormant``), since the writer sets a name's checksum right when it writes the
    /// name again, and they read again from then on (docs/design.md, "Checksums").
    ///
    /// `alsoPossible` are the other states the relaunch could have found: they hold the same
    /// rows it could read, so a hidden row may hold what any of them holds for it.
    package mutating func forgetDamaged(_ damaged: ImageDamage, hidden: ImageDamage = ImageDamage(), alsoPossible: [OracleImage] = []) {
        coverage.rottedRowsMissed += damaged.count - damaged.keys(in: .names).count
        // The state the relaunch found holds the hidden rows (states keep them, as the file does).
        var waiting = OracleImage(generation: 0)
        dormantRecordChoices = [:]
        dormantRootChoices = [:]
        for key in hidden.keys(in: .records) {
            waiting.records[key] = image.records[key]
            for state in alsoPossible {
                guard let row = state.records[key], row != image.records[key], !(dormantRecordChoices[key] ?? []).contains(row) else { continue }
                dormantRecordChoices[key, default: []].append(row)
            }
        }
        for key in hidden.keys(in: .root) {
            waiting.root[key] = image.root[key]
            for state in alsoPossible {
                guard let row = state.root[key], row != image.root[key], !(dormantRootChoices[key] ?? []).contains(row) else { continue }
                dormantRootChoices[key, default: []].append(row)
            }
        }
        dormant = waiting
        image = image.removing(damaged)
        states = states.map { $0.removing(damaged.without(hidden)) }
        rotted = damaged
    }

    /// After a drain committed: the rows a damaged name hid that the image holds again (`observed`,
    /// read by the model's reader), because the drain wrote the name and so set its checksum
    /// right. Each must hold exactly what it held when hidden; a row the drain wrote itself holds
    /// the snapshot's cells, or, when the name was set right before the snapshot was merged, the
    /// snapshot's cells merged over the hidden row's (the writer's order decides, and either is
    /// allowed). The model takes the rows in, and answers how many came back.
    package mutating func reviveDormant(seen observed: OracleImage) -> Int {
        guard !dormant.records.isEmpty || !dormant.root.isEmpty else { return 0 }
        var revived = 0
        for (key, hiddenRow) in dormant.records {
            guard let seen = observed.records[key] else { continue }
            let choices = [hiddenRow] + (dormantRecordChoices[key] ?? [])
            if let written = image.records[key] {
                dormant.records[key] = nil
                dormantRecordChoices[key] = nil
                let merges = choices.filter { !$0.deleted }.map { choice in
                    var merged = written
                    for (slot, cell) in choice.cells where merged.cells[slot] == nil { merged.cells[slot] = cell }
                    return merged
                }
                if seen != written, !written.deleted, merges.contains(seen) {
                    image.records[key] = seen
                    revived += 1
                }
            } else if choices.contains(seen) {
                image.records[key] = seen
                dormant.records[key] = nil
                dormantRecordChoices[key] = nil
                // The state the relaunch chose guessed another of the contents it could not read.
                if seen != hiddenRow {
                    for index in states.indices where states[index].records[key] == hiddenRow { states[index].records[key] = seen }
                }
                revived += 1
            }
        }
        for (key, hiddenRow) in dormant.root {
            guard let seen = observed.root[key] else { continue }
            let choices = [hiddenRow] + (dormantRootChoices[key] ?? [])
            if image.root[key] != nil {
                dormant.root[key] = nil
                dormantRootChoices[key] = nil
            } else if choices.contains(seen) {
                image.root[key] = seen
                dormant.root[key] = nil
                dormantRootChoices[key] = nil
                if seen != hiddenRow {
                    for index in states.indices where states[index].root[key] == hiddenRow { states[index].root[key] = seen }
                }
                revived += 1
            }
        }
        if revived > 0 { states[states.count - 1] = image.adding(dormant) }
        coverage.rowsRevived += revived
        return revived
    }

    /// The hidden rows after the next drain: the launch's eviction and an overflow's wipe reach
    /// them as they reach the rest.
    func dormantAfterDrain() -> OracleImage {
        if writerMustWipe { return OracleImage(generation: 0) }
        guard !evictionDone else { return dormant }
        let oldest = image.generation - 1
        var aged = dormant
        aged.records = aged.records.filter { $0.value.used >= oldest }
        aged.root = aged.root.filter { $0.value.used >= oldest }
        return aged
    }
}

/// Rows of an image that failed (or may fail) their checksums: record rows, root cells, fetch
/// times and names, by table and key.
package struct ImageDamage: Sendable, Equatable {
    /// The image's tables that rows can be damaged in, by the names the model's reader reports.
    package enum Table: String, Sendable, CaseIterable {
        /// `names` holds names whose checksum fails, by `#id`: every row that uses one misses.
        case records, root, fetches, names
    }

    private var keys: [Table: Set<OracleText>] = [:]

    package init(records: Set<OracleText> = [], root: Set<OracleText> = [], fetches: Set<OracleText> = []) {
        keys = [.records: records, .root: root, .fetches: fetches]
    }

    /// The damage the model's reader reported.
    package init(_ problems: [ImageDecodeProblem.Entry]) {
        for problem in problems {
            guard let table = Table(rawValue: problem.table) else { continue }
            insert(OracleText(problem.key), in: table)
        }
    }

    package func keys(in table: Table) -> Set<OracleText> { keys[table] ?? [] }
    package func contains(_ key: OracleText, in table: Table) -> Bool { keys[table]?.contains(key) ?? false }
    package mutating func insert(_ key: OracleText, in table: Table) { keys[table, default: []].insert(key) }
    /// This damage without the entries of `other`.
    package func without(_ other: ImageDamage) -> ImageDamage {
        var rest = self
        for table in Table.allCases { rest.keys[table] = keys(in: table).subtracting(other.keys(in: table)) }
        return rest
    }
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
        case .names: OracleText("name " + key.string)
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
            case .names: break
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
        case .names: break
        }
        return image
    }

    package var hasRows: Bool { !records.isEmpty || !root.isEmpty || !fetches.isEmpty }

    /// The image with `other`'s record rows and root cells added where it has none.
    package func adding(_ other: OracleImage) -> OracleImage {
        guard !other.records.isEmpty || !other.root.isEmpty else { return self }
        var image = self
        image.records.merge(other.records) { mine, _ in mine }
        image.root.merge(other.root) { mine, _ in mine }
        return image
    }
}
