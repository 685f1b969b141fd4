import Baton

/// The store's values in the reference model's terms, for comparing the two. The model never
/// sees the store's types; the runner converts what it observes.
enum OracleBridge {
    static func value(_ value: Value) -> OracleValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        case .string(let s): .string(OracleText(s))
        case .link(let key): .link(OracleText(key.rawValue))
        case .links(let keys): .links(keys.map { $0.map { OracleText($0.rawValue) } })
        case .list(let items): .list(items.map(Self.value))
        case .object(let text): .object(OracleText(text))
        case .decimal(let text): .number(OracleText(text))
        }
    }

    static func cell(_ cell: Cell) -> OracleCell {
        OracleCell(value(cell.value), errors: cell.errors.map {
            OracleFieldError(
                message: OracleText($0.message), path: OracleText($0.path), extensions: $0.extensions.map { OracleText($0) },
                otherMembers: $0.otherMembers.map { OracleText($0) }, elementIndices: $0.elementIndices)
        })
    }

    static func record(_ data: RecordData) -> OracleRecord {
        var cells: [OracleText: OracleCell] = [:]
        for (slot, cell) in data.cells { cells[OracleText(slot.name)] = Self.cell(cell) }
        return OracleRecord(typename: data.typename, cells: cells, deleted: data.deleted)
    }

    /// True when the store's `data` is the model's `record`: the same as comparing
    /// ``record(_:)`` with it, without building the model's form (the runner compares all of
    /// memory after every event). `slotText` names a slot as the model does.
    static func matches(_ data: RecordData, _ record: OracleRecord, slotText: (SlotID) -> OracleText) -> Bool {
        guard data.deleted == record.deleted, data.typename == record.typename, data.cells.count == record.cells.count else {
            return false
        }
        for (slot, cell) in data.cells {
            guard let expected = record.cells[slotText(slot)], matches(cell, expected) else { return false }
        }
        return true
    }

    /// True when `cell(cell) == expected`, without building the model's cell.
    static func matches(_ cell: Cell, _ expected: OracleCell) -> Bool {
        guard matches(cell.value, expected.value) else { return false }
        guard cell.errors.count == expected.errors.count else { return false }
        for (error, other) in zip(cell.errors, expected.errors) {
            guard same(error.message, other.message), same(error.path, other.path),
                (error.extensions == nil) == (other.extensions == nil), same(error.extensions ?? "", other.extensions ?? ""),
                (error.otherMembers == nil) == (other.otherMembers == nil), same(error.otherMembers ?? "", other.otherMembers ?? ""),
                error.elementIndices == other.elementIndices
            else { return false }
        }
        return true
    }

    /// True when `value(value) == expected` (strings and keys by their bytes, doubles by their bits).
    static func matches(_ value: Value, _ expected: OracleValue) -> Bool {
        switch (value, expected) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): return same(a, b)
        case (.link(let a), .link(let b)): return same(a.rawValue, b)
        case (.links(let a), .links(let b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) {
                switch (x, y) {
                case (nil, nil): continue
                case (let x?, let y?) where same(x.rawValue, y): continue
                default: return false
                }
            }
            return true
        case (.list(let a), .list(let b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where !matches(x, y) { return false }
            return true
        case (.object(let a), .object(let b)): return same(a, b)
        case (.decimal(let a), .number(let b)): return same(a, b)
        default: return false
        }
    }

    private static func same(_ text: String, _ model: OracleText) -> Bool {
        OracleText(text) == model
    }

    /// A lookup of the store's check as the model names it.
    static func read(_ lookup: ImageLookupRecord) -> OracleRead {
        switch lookup {
        case .record(let key, let answer):
            let found: OracleRead.Found
            switch answer {
            case .found(.deleted): found = .deleted
            case .found(.present): found = .present
            case .absent: found = .absent
            case .unreadable: found = .unreadable
            }
            return .record(OracleText(key.rawValue), found)
        case .rootField(let field, let found): return .rootField(OracleText(field), found)
        case .fetch(let operation, let found): return .fetch(OracleText(operation.rawValue), found)
        }
    }

    /// The image's tables as the model's reader takes them.
    static func raw(_ tables: ImageRawTables) -> RawImage {
        RawImage(
            records: tables.records.map { RawImage.Record(key: $0.key, used: $0.used, row: $0.row) },
            root: tables.root.map { RawImage.RootField(field: $0.field, used: $0.used, cell: $0.cell) },
            fetches: tables.fetches.map { RawImage.Fetch(operation: $0.operation, used: $0.used, time: $0.time, crc: $0.crc) },
            names: tables.names.map { RawImage.Name(id: $0.id, name: $0.name, used: $0.used, crc: $0.crc) },
            generation: tables.generation, appVersion: tables.appVersion)
    }
}

extension ModelResponse {
    /// How this response (read from the server's provenance) differs from `other` (read from the
    /// text): records, cells, deletions, pages and unplaced errors, a few lines of each.
    func difference(from other: ModelResponse) -> String {
        var lines: [String] = []
        if hasData != other.hasData { lines.append("data: provenance \(hasData) ≠ text \(other.hasData)") }
        for key in Set(records.keys).union(other.records.keys).sorted() {
            let a = records[key], b = other.records[key]
            if a == b { continue }
            if a?.typename != b?.typename {
                lines.append("\(Legible.text(key)).__typename: provenance \(a?.typename ?? "no record") ≠ text \(b?.typename ?? "no record")")
            }
            let cellsA = a?.cells ?? [:], cellsB = b?.cells ?? [:]
            for slot in Set(cellsA.keys).union(cellsB.keys).sorted() where cellsA[slot] != cellsB[slot] {
                lines.append("\(Legible.text(key)).\(Legible.text(slot)): provenance \(OracleDifference.render(cellsA[slot])) ≠ text \(OracleDifference.render(cellsB[slot]))")
            }
        }
        if deletions != other.deletions { lines.append("deletions: provenance \(deletions) ≠ text \(other.deletions)") }
        if pages != other.pages { lines.append("pages: provenance \(pages) ≠ text \(other.pages)") }
        if unplacedErrors != other.unplacedErrors {
            let render = { (errors: [OracleFieldError]) in OracleDifference.render(OracleCell(.null, errors: errors)) }
            lines.append("unplaced errors: provenance \(render(unplacedErrors)) ≠ text \(render(other.unplacedErrors))")
        }
        return lines.prefix(8).joined(separator: "; ") + (lines.count > 8 ? "; and \(lines.count - 8) more" : "")
    }
}
