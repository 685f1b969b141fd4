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
        // The state the relaunch found holds the hidden rows (states keep them, as the file does),
        // or the model kept them aside at an earlier launch and no state since has held them.
        var waiting = OracleImage(generation: 0)
        dormantRecordChoices = Self.hiddenRows(
            hidden.keys(in: .records), \.records, found: image, kept: dormant, keptChoices: dormantRecordChoices,
            alsoPossible: alsoPossible, into: &waiting)
        dormantRootChoices = Self.hiddenRows(
            hidden.keys(in: .root), \.root, found: image, kept: dormant, keptChoices: dormantRootChoices,
            alsoPossible: alsoPossible, into: &waiting)
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
        let hiddenBefore = dormant
        // A record row the drain wrote may hold the snapshot's cells merged over the hidden
        // row's; a root cell written replaces what it held.
        var revived = revive(\.records, choices: \.dormantRecordChoices, seen: observed) { written, hidden in
            guard !written.deleted, !hidden.deleted else { return nil }
            var merged = written
            for (slot, cell) in hidden.cells where merged.cells[slot] == nil { merged.cells[slot] = cell }
            return merged
        }
        revived += revive(\.root, choices: \.dormantRootChoices, seen: observed) { _, _ in nil }
        if revived > 0 {
            states[states.count - 1] = image.adding(dormant)
            // The states before this drain still hold each revived row hidden, as the file did: a
            // power loss that undoes the drain hides it again, and the launch after it must find it
            // in the state it lands on (seed 99255790 of GitHub's world at 1,000 events: the model
            // forgot it, and refused the file's state).
            for index in states.indices.dropLast() {
                for (key, row) in hiddenBefore.records where dormant.records[key] == nil && states[index].records[key] == nil {
                    states[index].records[key] = row
                }
                for (key, cell) in hiddenBefore.root where dormant.root[key] == nil && states[index].root[key] == nil {
                    states[index].root[key] = cell
                }
            }
        }
        coverage.rowsRevived += revived
        return revived
    }

    /// The rows `keys` of one table as the state the relaunch `found` holds them (else as the
    /// model `kept` them aside, with the other contents it allowed them then), put in `waiting`;
    /// answers, by key, the other contents the states in `alsoPossible` hold for them.
    private static func hiddenRows<Row: Equatable>(
        _ keys: Set<OracleText>, _ table: WritableKeyPath<OracleImage, [OracleText: Row]>, found: OracleImage,
        kept: OracleImage, keptChoices: [OracleText: [Row]], alsoPossible: [OracleImage], into waiting: inout OracleImage
    ) -> [OracleText: [Row]] {
        var choices: [OracleText: [Row]] = [:]
        for key in keys {
            let held = found[keyPath: table][key] ?? kept[keyPath: table][key]
            waiting[keyPath: table][key] = held
            // The state holds the row as the model kept it aside (states hold what it keeps), so
            // the other contents it allowed then are still allowed (seed 158499921 of the
            // default world at 2,000 events: a second launch dropped them, and the content the
            // file held came back as none the model allowed).
            if found[keyPath: table][key] == nil || found[keyPath: table][key] == kept[keyPath: table][key],
                let earlier = keptChoices[key]
            {
                choices[key] = earlier
            }
            for state in alsoPossible {
                guard let row = state[keyPath: table][key], row != held, !(choices[key] ?? []).contains(row)
                else { continue }
                choices[key, default: []].append(row)
            }
        }
        return choices
    }

    /// Takes back the hidden rows of one table that `observed` holds again, and answers how many.
    /// A row the drain did not write must hold one of the contents it may hold; one it wrote
    /// stops waiting, and is taken as seen when that is `merged` of the written row and one of
    /// those contents (`nil`: no merge).
    private mutating func revive<Row: Equatable>(
        _ table: WritableKeyPath<OracleImage, [OracleText: Row]>, choices: WritableKeyPath<Oracle, [OracleText: [Row]]>,
        seen observed: OracleImage, merged: (Row, Row) -> Row?
    ) -> Int {
        var revived = 0
        for (key, hiddenRow) in dormant[keyPath: table] {
            guard let seen = observed[keyPath: table][key] else { continue }
            let contents = [hiddenRow] + (self[keyPath: choices][key] ?? [])
            if let written = image[keyPath: table][key] {
                dormant[keyPath: table][key] = nil
                self[keyPath: choices][key] = nil
                if seen != written, contents.contains(where: { merged(written, $0) == seen }) {
                    image[keyPath: table][key] = seen
                    revived += 1
                }
            } else if contents.contains(seen) {
                image[keyPath: table][key] = seen
                dormant[keyPath: table][key] = nil
                self[keyPath: choices][key] = nil
                // The state the relaunch chose guessed another of the contents it could not read.
                if seen != hiddenRow {
                    for index in states.indices where states[index][keyPath: table][key] == hiddenRow {
                        states[index][keyPath: table][key] = seen
                    }
                }
                revived += 1
            }
        }
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
