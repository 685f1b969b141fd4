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
        }
    }

    static func cell(_ cell: Cell) -> OracleCell {
        OracleCell(value(cell.value), error: cell.error.map {
            OracleFieldError(message: OracleText($0.message), path: OracleText($0.path), extensions: $0.extensions.map { OracleText($0) })
        })
    }

    static func record(_ data: RecordData) -> OracleRecord {
        var cells: [OracleText: OracleCell] = [:]
        for (slot, cell) in data.cells { cells[OracleText(slot.name)] = Self.cell(cell) }
        return OracleRecord(typename: data.typename, cells: cells, deleted: data.deleted)
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
            generation: tables.generation)
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
                lines.append("\(key).__typename: provenance \(a?.typename ?? "no record") ≠ text \(b?.typename ?? "no record")")
            }
            let cellsA = a?.cells ?? [:], cellsB = b?.cells ?? [:]
            for slot in Set(cellsA.keys).union(cellsB.keys).sorted() where cellsA[slot] != cellsB[slot] {
                lines.append("\(key).\(slot): provenance \(OracleDifference.render(cellsA[slot])) ≠ text \(OracleDifference.render(cellsB[slot]))")
            }
        }
        if deletions != other.deletions { lines.append("deletions: provenance \(deletions) ≠ text \(other.deletions)") }
        if pages != other.pages { lines.append("pages: provenance \(pages) ≠ text \(other.pages)") }
        if unplacedErrors != other.unplacedErrors {
            lines.append("unplaced errors: provenance \(unplacedErrors.count) ≠ text \(other.unplacedErrors.count)")
        }
        return lines.prefix(8).joined(separator: "; ") + (lines.count > 8 ? "; and \(lines.count - 8) more" : "")
    }
}
