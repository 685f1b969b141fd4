/// A record's row decoded for the check: its cells keyed by this process's slots, as memory
/// keeps them.
package struct SlotRow: Sendable {
    package var deleted: Bool
    package var typename: String
    /// The cells by slot; empty for a deleted row.
    package var cells: CellTable
}

extension RowDecoder {
    /// Decodes a record's row stored under `key` as ``decodeRow(_:key:names:sink:)`` does (the
    /// same checks, the same misses), but writes each cell under the slot `names` keeps for its
    /// name id, with no storage key text made or hashed. Of two cells under one name, the later
    /// wins.
    package static func decodeSlots(
        _ bytes: UnsafeRawBufferPointer, key: String, names: NameTable, sink: inout RowDecodeSink
    ) -> SlotRow? {
        guard var reader = verifiedBody(bytes, key: key), let header = header(&reader),
              let typename = names.name(ofID: header.typeID)
        else { return nil }
        sink.nameIDs.append(header.typeID)
        let deleted = header.flags & RowFormat.deletedFlag != 0
        var cells: CellTable = deleted ? CellTable() : CellTable(minimumCapacity: header.cellCount)
        for _ in 0..<header.cellCount {
            guard let nameID = reader.count(), let slot = names.slot(ofID: nameID), let tag = reader.byte(),
                  let value = value(tag & ~RowFormat.errorBits, &reader, depth: 0, names: names, sink: &sink)
            else { return nil }
            sink.nameIDs.append(nameID)
            // The cell is made where the dictionary keeps it (a `Cell` returned from a helper
            // was copied and destroyed once more per cell).
            if tag & RowFormat.errorBits == 0 {
                if !deleted { cells[slot] = Cell(consume value) }
            } else {
                guard let errors = fieldErrors(tag: tag, &reader) else { return nil }
                if !deleted { cells[slot] = sink.slotRowsDropErrors ? Cell(consume value) : Cell(consume value, errors: errors) }
            }
        }
        guard reader.isAtEnd else { return nil }
        return SlotRow(deleted: deleted, typename: typename, cells: cells)
    }
}
