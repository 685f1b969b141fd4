/// What a read of one record's row found, the cells keyed by slot (see ``SlotRow``).
package typealias SlotRowLookup = RowRead<SlotRow>

/// What a read of one row found: the row, its absence (none, aged out or damaged), or a failed
/// read that leaves the row unknown.
package enum RowRead<Row> {
    case found(Row)
    case absent
    case unreadable
}

/// A read transaction that hands the check a record's cells keyed by slot, as memory keeps them:
/// the image's own session does, from its name-id → slot table, and so does a wrapper that
/// forwards to it (BatonSim's recording transaction: the simulator must drive this path, which
/// is production's). A transaction that is not one (a test's) is read through
/// ``ImageReadTransaction/record(_:)`` and its cells named.
package protocol SlotRowSource: AnyObject {
    /// The row of `key`, its cells by slot.
    func slotRecord(_ key: RecordKey) -> SlotRowLookup
}

extension SlotRow {
    /// A row as ``ImageReadTransaction/record(_:)`` answers it, its cells turned into slots.
    package static func lookup(from answer: ImageRowLookup) -> SlotRowLookup {
        switch answer {
        case .unreadable:
            return .unreadable
        case .absent:
            return .absent
        case .found(.deleted(let typename)):
            return .found(SlotRow(deleted: true, typename: typename, cells: [:]))
        case .found(.present(let typename, let cells)):
            let slots = SlotTable.shared.slots(cells.lazy.map(\.storageKey))
            var bySlot = CellTable(minimumCapacity: cells.count)
            for (slot, named) in zip(slots, cells) { bySlot[slot] = named.cell }
            return .found(SlotRow(deleted: false, typename: typename, cells: bySlot))
        }
    }
}

/// The check's reader of records: the transaction's slot rows when it has them, else its
/// named rows with their storage keys turned into slots.
///
/// A class: the walk hands it to every hydration, and a struct of two existentials was copied
/// (and destroyed) per record.
final class HydrationReader {
    let transaction: any ImageReadTransaction
    private let slotSource: (any SlotRowSource)?

    init(_ transaction: any ImageReadTransaction) {
        self.transaction = transaction
        self.slotSource = transaction as? any SlotRowSource
    }

    /// The row of `key`, its cells by slot.
    func record(_ key: RecordKey) -> SlotRowLookup {
        if let slotSource { return slotSource.slotRecord(key) }
        return SlotRow.lookup(from: transaction.record(key))
    }
}
