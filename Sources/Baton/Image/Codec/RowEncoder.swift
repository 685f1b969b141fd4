/// Encodes rows and root cells in the image's row format (see ``RowFormat``).
///
/// One encoder is reused for every row of a drain: its buffer keeps its storage between rows.
/// Name ids are the caller's business: the encoder writes the ids it is given.
package struct RowEncoder {
    private var writer = ByteWriter(capacity: 1024)

    package init() {}

    // MARK: Records

    /// Starts a record's row: flags, type and cell count. Exactly `cellCount` cells must follow.
    package mutating func beginRow(deleted: Bool, entity: Bool, typeID: Int, cellCount: Int) {
        writer.removeAll()
        var flags: UInt8 = 0
        if deleted { flags |= RowFormat.deletedFlag }
        if entity { flags |= RowFormat.entityFlag }
        writer.byte(flags)
        writer.varint(typeID)
        writer.varint(cellCount)
    }

    /// Appends a cell: its storage key's name id, then its value.
    ///
    /// `linkTypeID` gives the name id of a link target's type (0 when unknown).
    package mutating func cell(nameID: Int, _ cell: Cell, linkTypeID: (RecordKey) -> Int) {
        writer.varint(nameID)
        cellValue(cell, linkTypeID: linkTypeID)
    }

    /// Appends a cell already encoded (name id and value), as a merge keeps it from an old row.
    package mutating func rawCell(_ bytes: UnsafeRawBufferPointer) {
        writer.raw(bytes)
    }

    /// Ends the row with the checksum of `key` and the row's bytes; returns the row.
    package mutating func finish(key: String) -> [UInt8] {
        let crc = writer.bytes.withUnsafeBytes { body in
            CRC32C.finalize(CRC32C.update(CRC32C.update(CRC32C.initial, with: key), with: body))
        }
        writer.uint32(crc)
        return writer.bytes
    }

    // MARK: Root cells

    /// Encodes a query-root field's row: the cell value and the checksum of `field` and the value.
    package mutating func rootCell(field: String, _ cell: Cell, linkTypeID: (RecordKey) -> Int) -> [UInt8] {
        writer.removeAll()
        cellValue(cell, linkTypeID: linkTypeID)
        return finish(key: field)
    }

    // MARK: Values

    private mutating func cellValue(_ cell: Cell, linkTypeID: (RecordKey) -> Int) {
        let errorBit: UInt8 = cell.error == nil ? 0 : RowFormat.errorBit
        value(cell.value, errorBit: errorBit, linkTypeID: linkTypeID)
        if let error = cell.error {
            writer.string(error.message)
            writer.string(error.path)
            if let extensions = error.extensions {
                writer.varint(extensions.utf8.count + 1)
                writer.bytes.append(contentsOf: extensions.utf8)
            } else {
                writer.varint(0)
            }
        }
    }

    private mutating func value(_ value: Value, errorBit: UInt8, linkTypeID: (RecordKey) -> Int) {
        switch value {
        case .null:
            writer.byte(RowFormat.Tag.null.rawValue | errorBit)
        case .bool(let flag):
            writer.byte((flag ? RowFormat.Tag.true : RowFormat.Tag.false).rawValue | errorBit)
        case .int(let number):
            writer.byte(RowFormat.Tag.int.rawValue | errorBit)
            writer.zigzag(number)
        case .double(let number):
            writer.byte(RowFormat.Tag.double.rawValue | errorBit)
            writer.double(number)
        case .string(let text):
            writer.byte(RowFormat.Tag.string.rawValue | errorBit)
            writer.string(text)
        case .link(let key):
            writer.byte(RowFormat.Tag.link.rawValue | errorBit)
            writer.varint(linkTypeID(key))
            writer.string(key.rawValue)
        case .links(let keys):
            writer.byte(RowFormat.Tag.links.rawValue | errorBit)
            writer.varint(keys.count)
            for key in keys {
                if let key {
                    writer.varint(linkTypeID(key) + 1)
                    writer.string(key.rawValue)
                } else {
                    writer.varint(0)
                }
            }
        case .list(let items):
            writer.byte(RowFormat.Tag.list.rawValue | errorBit)
            writer.varint(items.count)
            for item in items {
                self.value(item, errorBit: 0, linkTypeID: linkTypeID)
            }
        case .object(let json):
            writer.byte(RowFormat.Tag.object.rawValue | errorBit)
            writer.string(json)
        }
    }
}
