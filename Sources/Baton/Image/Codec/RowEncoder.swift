/// Encodes rows and root cells in the image's row format (see ``RowFormat``).
///
/// One encoder is reused for every row of a drain: its buffer keeps its storage between rows,
/// and a row can be read where it lies (``sealRow(key:)``, ``row``) until the next row begins.
/// Not copyable: it owns its buffer. Name ids are the caller's business: the encoder writes the
/// ids it is given.
package struct RowEncoder: ~Copyable {
    /// The type recorded with a link: its name id (0 when unknown) and, when known, its name, so
    /// a key that reads `Type:id` for it is written as the id alone (row format 3).
    package struct LinkType {
        package var id: Int
        package var name: String?

        package init(id: Int, name: String?) {
            self.id = id
            self.name = id == 0 ? nil : name
        }

        package static let unknown = LinkType(id: 0, name: nil)
    }

    private var writer = RowBuffer(capacity: 1024)
    /// Writes `-0.0` as `0.0` (the mutant `negativeZeroNormalized`; never set otherwise).
    private let normalizesNegativeZero: Bool

    package init(normalizesNegativeZero: Bool = false) {
        self.normalizesNegativeZero = normalizesNegativeZero
    }

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
    /// `linkType` gives the type of a link's target (``LinkType/unknown`` when unknown).
    @inline(__always)
    package mutating func cell(nameID: Int, _ cell: Cell, linkType: (RecordKey) -> LinkType) {
        writer.varint(nameID)
        cellValue(cell, linkType: linkType)
    }

    /// Appends a cell already encoded (name id and value), as a merge keeps it from an old row.
    package mutating func rawCell(_ bytes: UnsafeRawBufferPointer) {
        writer.raw(bytes)
    }

    /// Ends the row with the checksum of `key` and the row's bytes; returns the row.
    package mutating func finish(key: String) -> [UInt8] {
        sealRow(key: key)
        return writer.array()
    }

    /// Ends the row with the checksum of `key` and the row's bytes, leaving it in ``row``.
    package mutating func sealRow(key: String) {
        let body = writer.bytes
        writer.uint32(CRC32C.finalize(CRC32C.update(CRC32C.update(CRC32C.initial, with: key), with: body)))
    }

    /// The row (or root cell) last sealed, where it lies: valid until the next row begins.
    package var row: UnsafeRawBufferPointer {
        writer.bytes
    }

    // MARK: Root cells

    /// Encodes a query-root field's row: the cell value and the checksum of `field` and the value.
    package mutating func rootCell(field: String, _ cell: Cell, linkType: (RecordKey) -> LinkType) -> [UInt8] {
        sealRootCell(field: field, cell, linkType: linkType)
        return writer.array()
    }

    /// Encodes a query-root field's row like ``rootCell(field:_:linkType:)``, leaving it in ``row``.
    package mutating func sealRootCell(field: String, _ cell: Cell, linkType: (RecordKey) -> LinkType) {
        writer.removeAll()
        cellValue(cell, linkType: linkType)
        sealRow(key: field)
    }

    // MARK: Values

    @inline(__always)
    private mutating func cellValue(_ cell: Cell, linkType: (RecordKey) -> LinkType) {
        let errors = cell.errors
        guard !errors.isEmpty else {
            value(cell.value, errorBit: 0, linkType: linkType)
            return
        }
        var errorBits = errors.count == 1 ? RowFormat.errorBit : RowFormat.errorBit | RowFormat.moreErrorsBit
        let spellsElements = errors.contains { $0.elementIndices != FieldError.trailingIndices(of: $0.path) }
        if spellsElements { errorBits |= RowFormat.elementsBit }
        let spellsMembers = errors.contains { $0.otherMembers != nil }
        if spellsMembers { errorBits |= RowFormat.membersBit }
        value(cell.value, errorBit: errorBits, linkType: linkType)
        fieldError(errors[0], spellsElements: spellsElements, spellsMembers: spellsMembers)
        guard errors.count > 1 else { return }
        writer.varint(errors.count - 1)
        for error in errors.dropFirst() { fieldError(error, spellsElements: spellsElements, spellsMembers: spellsMembers) }
    }

    private mutating func fieldError(_ error: FieldError, spellsElements: Bool, spellsMembers: Bool) {
        writer.string(error.message)
        writer.string(error.path)
        optionalText(error.extensions)
        if spellsMembers { optionalText(error.otherMembers) }
        guard spellsElements else { return }
        writer.varint(error.elementIndices.count)
        for index in error.elementIndices { writer.varint(index) }
    }

    /// A varint that is 0 for none, else the text's UTF-8 length plus one, then that UTF-8.
    private mutating func optionalText(_ text: String?) {
        if let text {
            writer.varint(text.utf8.count + 1)
            writer.utf8(text)
        } else {
            writer.varint(0)
        }
    }

    private mutating func value(_ value: Value, errorBit: UInt8, linkType: (RecordKey) -> LinkType) {
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
            writer.double(normalizesNegativeZero && number == 0 ? 0 : number)
        case .string(let text):
            writer.byte(RowFormat.Tag.string.rawValue | errorBit)
            writer.string(text)
        case .link(let key):
            let type = linkType(key)
            let prefix = RowFormat.entityPrefixCount(key: key.rawValue, typename: type.name)
            writer.byte((prefix > 0 ? RowFormat.Tag.entityLink : RowFormat.Tag.link).rawValue | errorBit)
            writer.varint(type.id)
            writer.string(key.rawValue, dropping: prefix)
        case .links(let keys):
            writer.byte(RowFormat.Tag.entityLinks.rawValue | errorBit)
            writer.varint(keys.count)
            for key in keys {
                if let key {
                    let type = linkType(key)
                    let prefix = RowFormat.entityPrefixCount(key: key.rawValue, typename: type.name)
                    writer.varint(2 * type.id + (prefix > 0 ? 1 : 0) + 1)
                    writer.string(key.rawValue, dropping: prefix)
                } else {
                    writer.varint(0)
                }
            }
        case .list(let items):
            writer.byte(RowFormat.Tag.list.rawValue | errorBit)
            writer.varint(items.count)
            for item in items {
                self.value(item, errorBit: 0, linkType: linkType)
            }
        case .object(let json):
            writer.byte(RowFormat.Tag.object.rawValue | errorBit)
            writer.string(json)
        case .decimal(let text):
            writer.byte(RowFormat.Tag.decimal.rawValue | errorBit)
            writer.string(text)
        }
    }
}
