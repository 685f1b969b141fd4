import Baton

/// A record as the reference model keeps it: storage-key text → cell, no slot numbers.
package struct ModelRecord: Hashable, Sendable {
    package var typename: String
    package var cells: [String: Cell]
    package var deleted: Bool

    package init(typename: String, cells: [String: Cell] = [:], deleted: Bool = false) {
        self.typename = typename
        self.cells = cells
        self.deleted = deleted
    }

    /// The model record of a store record.
    package init(_ data: RecordData) {
        var cells: [String: Cell] = [:]
        for (slot, cell) in data.cells { cells[slot.name] = cell }
        self.init(typename: data.typename, cells: cells, deleted: data.deleted)
    }

    /// The model record of an image row.
    package init(_ record: ImageRecord) {
        switch record {
        case .deleted(let typename):
            self.init(typename: typename, deleted: true)
        case .present(let typename, let named):
            var cells: [String: Cell] = [:]
            for cell in named { cells[cell.storageKey] = cell.cell }
            self.init(typename: typename, cells: cells)
        }
    }
}

/// A row of the model's image: the record and the launch that last used it.
package struct ModelRow: Hashable, Sendable {
    package var record: ModelRecord
    package var used: Int
}

/// A query-root field's row in the model's image.
package struct ModelRootRow: Hashable, Sendable {
    package var cell: Cell
    package var used: Int
}

/// An operation's fetch-time row in the model's image.
package struct ModelFetchRow: Hashable, Sendable {
    package var time: Double
    package var used: Int
}

/// What the image holds after one writer commit: the model's unit of crash consistency.
package struct ImageState: Hashable, Sendable {
    package var generation: Int
    package var records: [RecordKey: ModelRow] = [:]
    package var root: [String: ModelRootRow] = [:]
    package var fetches: [OperationIdentity: ModelFetchRow] = [:]

    package init(generation: Int) {
        self.generation = generation
    }

    /// The first difference from `other`, described, or nil when equal.
    package func difference(from other: ImageState, ignoringGeneration: Bool = false) -> String? {
        if !ignoringGeneration && generation != other.generation {
            return "generation \(generation) ≠ \(other.generation)"
        }
        for key in Set(records.keys).union(other.records.keys).sorted() where records[key] != other.records[key] {
            return "row \(key): \(describe(records[key])) ≠ \(describe(other.records[key]))"
        }
        for field in Set(root.keys).union(other.root.keys).sorted(by: CanonicalJSON.utf8Less) where root[field] != other.root[field] {
            return "root field \(field): \(describe(root[field])) ≠ \(describe(other.root[field]))"
        }
        for op in Set(fetches.keys).union(other.fetches.keys).sorted() where fetches[op] != other.fetches[op] {
            return "fetch \(op.rawValue): \(fetches[op].map { "\($0.time)@\($0.used)" } ?? "absent") ≠ \(other.fetches[op].map { "\($0.time)@\($0.used)" } ?? "absent")"
        }
        return nil
    }

    private func describe(_ row: ModelRow?) -> String {
        guard let row else { return "absent" }
        return "used \(row.used) " + ModelPrinter.record(row.record)
    }

    private func describe(_ row: ModelRootRow?) -> String {
        guard let row else { return "absent" }
        var out = ""
        RecordSourcePrinter.writeValue(row.cell.value, into: &out)
        return "used \(row.used) \(out)" + (row.cell.error == nil ? "" : " with error")
    }
}

/// Prints model records for failure messages.
package enum ModelPrinter {
    package static func record(_ record: ModelRecord?) -> String {
        guard let record else { return "absent" }
        var data = RecordData(typename: record.typename, deleted: record.deleted)
        for (name, cell) in record.cells { data.cells[SlotID.named(name)] = cell }
        var out = ""
        RecordSourcePrinter.writeRecord(data, into: &out)
        return out
    }
}
