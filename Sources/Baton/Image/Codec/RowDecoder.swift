/// Resolves the name ids a row holds to their text; `nil` for an id the image does not know.
package protocol RowNames {
    func name(ofID id: Int) -> String?
}

/// What a decode collects besides the row: the name ids it met (so a read can stamp them as
/// used) and, when asked, the type recorded with each link.
package struct RowDecodeSink {
    /// Every name id the row used: its type, its storage keys, its links' types (0 excluded).
    package var nameIDs: [Int] = []
    /// Whether to fill ``linkTypes``.
    package var collectsLinkTypes: Bool
    /// Link target key → the type name id recorded with the link (0: unknown).
    package var linkTypes: [RecordKey: Int] = [:]
    /// Lists nested deeper than this are damage (``RowFormat/maxDepth``; the mutant
    /// `deepListsReadAsDamage` lowers it to the old limit).
    var listDepthLimit = RowFormat.maxDepth
    /// The mutant `slotRowsDropErrors`: slot rows keep a cell's value without its field errors.
    var slotRowsDropErrors = false

    package init(collectsLinkTypes: Bool = false) {
        self.collectsLinkTypes = collectsLinkTypes
    }
}

/// A record's row, decoded.
package struct DecodedRow: Hashable, Sendable {
    package var deleted: Bool
    package var entity: Bool
    package var typeID: Int
    package var typename: String
    /// The cells in row order; a deleted row written by the image has none.
    package var cells: [NamedCell]

    /// The row as the check sees it.
    package var record: ImageRecord {
        deleted ? .deleted(typename: typename) : .present(typename: typename, cells: cells)
    }
}

/// One cell of a row located without being kept: its storage key's id and its bytes.
package struct RowCellSpan: Hashable, Sendable {
    package var nameID: Int
    /// The cell's bytes (name id and value) within the row.
    package var range: Range<Int>
}

/// Decodes rows and root cells; every failure (checksum, truncation, bad tag, unknown name id,
/// varint overflow, bad UTF-8, trailing bytes) answers `nil`: a miss, never a trap or wrong data.
package enum RowDecoder {
    /// The row with its checksum verified, as a reader over the bytes before the checksum.
    static func verifiedBody(_ bytes: UnsafeRawBufferPointer, key: String) -> ByteReader? {
        guard bytes.count >= 5 else { return nil }
        let bodyCount = bytes.count - 4
        var tail = ByteReader(bytes, from: bodyCount)
        guard let stored = tail.uint32() else { return nil }
        let computed = CRC32C.finalize(
            CRC32C.update(CRC32C.update(CRC32C.initial, with: key), with: UnsafeRawBufferPointer(rebasing: bytes[0..<bodyCount])))
        guard stored == computed else { return nil }
        return ByteReader(bytes, from: 0, to: bodyCount)
    }

    /// Reads the flags, type id and cell count.
    static func header(_ reader: inout ByteReader) -> (flags: UInt8, typeID: Int, cellCount: Int)? {
        guard let flags = reader.byte(), flags & ~RowFormat.knownFlags == 0,
              let typeID = reader.count(), let cellCount = reader.count(),
              cellCount <= reader.remaining / 2  // a cell takes at least two bytes
        else { return nil }
        return (flags, typeID, cellCount)
    }

    /// Decodes a record's row stored under `key`.
    package static func decodeRow<N: RowNames>(
        _ bytes: UnsafeRawBufferPointer, key: String, names: N, sink: inout RowDecodeSink
    ) -> DecodedRow? {
        guard var reader = verifiedBody(bytes, key: key), let header = header(&reader),
              let typename = names.name(ofID: header.typeID)
        else { return nil }
        sink.nameIDs.append(header.typeID)
        var cells: [NamedCell] = []
        cells.reserveCapacity(header.cellCount)
        for _ in 0..<header.cellCount {
            guard let nameID = reader.count(), let storageKey = names.name(ofID: nameID),
                  let cell = cellValue(&reader, names: names, sink: &sink)
            else { return nil }
            sink.nameIDs.append(nameID)
            cells.append(NamedCell(storageKey: storageKey, cell: cell))
        }
        guard reader.isAtEnd else { return nil }
        return DecodedRow(
            deleted: header.flags & RowFormat.deletedFlag != 0,
            entity: header.flags & RowFormat.entityFlag != 0,
            typeID: header.typeID, typename: typename, cells: cells)
    }

    /// Validates a record's row like ``decodeRow(_:key:names:sink:)`` and locates its cells
    /// (into `spans`, emptied first) instead of keeping them, for a merge that copies cells as they
    /// are; the row's name ids go to `sink`.
    package static func locateCells<N: RowNames>(
        _ bytes: UnsafeRawBufferPointer, key: String, names: N, spans: inout [RowCellSpan], sink: inout RowDecodeSink
    ) -> (deleted: Bool, typeID: Int)? {
        spans.removeAll(keepingCapacity: true)
        guard var reader = verifiedBody(bytes, key: key), let header = header(&reader),
              names.name(ofID: header.typeID) != nil
        else { return nil }
        sink.nameIDs.append(header.typeID)
        for _ in 0..<header.cellCount {
            let start = reader.offset
            guard let nameID = reader.count(), names.name(ofID: nameID) != nil,
                  cellValue(&reader, names: names, sink: &sink) != nil
            else { return nil }
            sink.nameIDs.append(nameID)
            spans.append(RowCellSpan(nameID: nameID, range: start..<reader.offset))
        }
        guard reader.isAtEnd else { return nil }
        return (header.flags & RowFormat.deletedFlag != 0, header.typeID)
    }

    /// Decodes a query-root field's row stored under `field`.
    package static func decodeRootCell<N: RowNames>(
        _ bytes: UnsafeRawBufferPointer, field: String, names: N, sink: inout RowDecodeSink
    ) -> Cell? {
        guard var reader = verifiedBody(bytes, key: field),
              let cell = cellValue(&reader, names: names, sink: &sink), reader.isAtEnd
        else { return nil }
        return cell
    }

    // MARK: Values

    /// A cell value: tag, payload, and the field error when the tag says so.
    static func cellValue<N: RowNames>(_ reader: inout ByteReader, names: N, sink: inout RowDecodeSink) -> Cell? {
        guard let tag = reader.byte(),
              let value = value(tag & ~RowFormat.errorBits, &reader, depth: 0, names: names, sink: &sink)
        else { return nil }
        guard tag & RowFormat.errorBits != 0 else { return Cell(value) }
        guard let errors = fieldErrors(tag: tag, &reader) else { return nil }
        return Cell(value, errors: errors)
    }

    /// The field errors that follow a value whose tag carries an error bit: one, or with bit 6 a
    /// count of further ones after it. Nil for damage (bit 6 alone, a count of 0, a bad error).
    static func fieldErrors(tag: UInt8, _ reader: inout ByteReader) -> [FieldError]? {
        let spellsElements = tag & RowFormat.elementsBit != 0
        let spellsMembers = tag & RowFormat.membersBit != 0
        guard tag & RowFormat.errorBit != 0,
              let first = fieldError(&reader, spellsElements: spellsElements, spellsMembers: spellsMembers)
        else { return nil }
        guard tag & RowFormat.moreErrorsBit != 0 else { return [first] }
        // Each further error takes at least three bytes (two empty strings and a marker).
        guard let more = reader.count(), more > 0, more <= reader.remaining / 3 else { return nil }
        var errors = [first]
        errors.reserveCapacity(more + 1)
        for _ in 0..<more {
            guard let error = fieldError(&reader, spellsElements: spellsElements, spellsMembers: spellsMembers) else { return nil }
            errors.append(error)
        }
        return errors
    }

    /// The field error that follows a value whose tag carries the error bit, with its other
    /// members when the tag's bit 4 says so, followed by its element indices when bit 5 does.
    static func fieldError(_ reader: inout ByteReader, spellsElements: Bool, spellsMembers: Bool) -> FieldError? {
        guard var error = fieldError(&reader) else { return nil }
        if spellsMembers {
            guard let members = optionalText(&reader) else { return nil }
            error.otherMembers = members.text
        }
        guard spellsElements else { return error }
        // Each index takes at least a byte.
        guard let count = reader.count(), count <= reader.remaining else { return nil }
        var indices: [Int] = []
        indices.reserveCapacity(count)
        for _ in 0..<count {
            guard let index = reader.count() else { return nil }
            indices.append(index)
        }
        error.elementIndices = indices
        return error
    }

    /// The field error that follows a value whose tag carries the error bit (its message, path
    /// and extensions).
    private static func fieldError(_ reader: inout ByteReader) -> FieldError? {
        guard let message = reader.string(), let path = reader.string(), let extensions = optionalText(&reader) else {
            return nil
        }
        return FieldError(message: message, path: path, extensions: extensions.text)
    }

    /// A varint that is 0 for no text, else the text's UTF-8 length plus one, then the text; nil
    /// for damage (a truncated varint, a length past the end, invalid UTF-8).
    private static func optionalText(_ reader: inout ByteReader) -> (text: String?, Void)? {
        guard let marker = reader.count() else { return nil }
        guard marker > 0 else { return (nil, ()) }
        let length = marker - 1
        guard length <= reader.remaining else { return nil }
        let start = reader.offset
        _ = reader.skip(length)
        guard let text = ByteReader.validUTF8(UnsafeRawBufferPointer(rebasing: reader.base[start..<start + length])) else {
            return nil
        }
        return (text, ())
    }

    /// A value whose tag byte (error bit cleared) has been read.
    static func value<N: RowNames>(
        _ tag: UInt8, _ reader: inout ByteReader, depth: Int, names: N, sink: inout RowDecodeSink
    ) -> Value? {
        guard let kind = RowFormat.Tag(rawValue: tag) else { return nil }
        switch kind {
        case .null:
            return .null
        case .false:
            return .bool(false)
        case .true:
            return .bool(true)
        case .int:
            return reader.zigzag().map(Value.int)
        case .double:
            return reader.double().map(Value.double)
        case .string:
            return reader.string().map(Value.string)
        case .object:
            return reader.string().map(Value.object)
        case .decimal:
            guard let text = reader.string() else { return nil }
            // Before 2026-12-06 a whole number that fits an `Int` but no double (9007199254740993)
            // was kept here as its digits; it is that integer, as ingest now reads it, so an old
            // row and a fresh response answer the same kind.
            if let whole = Int(text) { return .int(whole) }
            return .decimal(text)
        case .link:
            guard let typeID = reader.count(), let key = reader.string() else { return nil }
            guard note(linkType: typeID, key: key, names: names, sink: &sink) else { return nil }
            return .link(RecordKey(key))
        case .entityLink:
            guard let typeID = reader.count(), typeID != 0, let key = entityKey(typeID, &reader, names: names),
                  note(linkType: typeID, key: key, names: names, sink: &sink)
            else { return nil }
            return .link(RecordKey(key))
        case .links, .entityLinks:
            let entities = kind == .entityLinks
            guard let count = reader.count(), count <= reader.remaining else { return nil }
            var keys: [RecordKey?] = []
            keys.reserveCapacity(count)
            for _ in 0..<count {
                guard let marker = reader.count() else { return nil }
                if marker == 0 {
                    keys.append(nil)
                    continue
                }
                // Format 3's lists: marker − 1 is twice the type id, plus one for an id alone.
                let typeID = entities ? (marker - 1) >> 1 : marker - 1
                let key: String?
                if entities && (marker - 1) & 1 == 1 {
                    key = typeID == 0 ? nil : entityKey(typeID, &reader, names: names)
                } else {
                    key = reader.string()
                }
                guard let key, note(linkType: typeID, key: key, names: names, sink: &sink) else { return nil }
                keys.append(RecordKey(key))
            }
            return .links(keys)
        case .list:
            guard depth < sink.listDepthLimit, let count = reader.count(), count <= reader.remaining else {
                return nil
            }
            var items: [Value] = []
            items.reserveCapacity(count)
            for _ in 0..<count {
                guard let tag = reader.byte(), tag & RowFormat.errorBit == 0,
                      let item = value(tag, &reader, depth: depth + 1, names: names, sink: &sink)
                else { return nil }
                items.append(item)
            }
            return .list(items)
        }
    }

    /// An entity link's key: the name of `typeID`, a colon, then the string the reader holds,
    /// made as one string (no string of the id alone, no appending).
    private static func entityKey<N: RowNames>(_ typeID: Int, _ reader: inout ByteReader, names: N) -> String? {
        guard let typename = names.name(ofID: typeID), let id = reader.span() else { return nil }
        return ByteReader.joined(typename, separator: UInt8(ascii: ":"), id)
    }

    /// Checks a link's type id (0: unknown) and notes it in the sink.
    private static func note<N: RowNames>(linkType typeID: Int, key: String, names: N, sink: inout RowDecodeSink) -> Bool {
        if typeID != 0 {
            guard names.name(ofID: typeID) != nil else { return false }
            // A list's links mostly share one type: note it once in a row.
            if sink.nameIDs.last != typeID { sink.nameIDs.append(typeID) }
        }
        if sink.collectsLinkTypes { sink.linkTypes[RecordKey(key)] = typeID }
        return true
    }
}
