/// Entities met again: most objects of a large response are entities ingest has met before,
/// written byte for byte as before (a page of characters lists the same few characters under every
/// episode), and such an object would write every cell of its record again as it is.
extension Normalizer {
    /// The record of the object at the scanner when it is a leaf entity met again, written exactly
    /// as the text that last wrote its record, under a field of object type: the scanner moves
    /// past it. This is what ``normalizeObject(group:declaredType:entry:keySource:item:)`` ends in
    /// for such an object (``identify(_:shape:keySource:item:)`` finds the record by the id's
    /// bytes, ``skipRepeat(of:shape:from:)`` skips the rest), without its setting up: most
    /// objects of a large response are entities it has met before (a page of characters lists the
    /// same few characters under every episode).
    ///
    /// Only an object written `{"id":"` or `{"__typename":"Type","id":"` with a plain id, in its
    /// shape's order, takes this way (``Shape/idOpening``); for anything else (and under a
    /// mutant) nil, the scanner where it was.
    @inline(__always)
    mutating func repeatedLeafEntity(_ member: ShapeEntry) -> Int? {
        guard member.kind == .object, let shape = member.childShape, !shape.typenamedIDOpening.isEmpty, mutant == nil,
            let base = scanner.bytes.baseAddress
        else { return nil }
        let bytes = scanner.bytes
        let start = scanner.position
        let idStart: Int
        let plain = shape.idOpening.count
        if shape.idOpeningMask != 0, start + 8 <= bytes.count,
            (base + start).loadUnaligned(as: UInt64.self).littleEndian & shape.idOpeningMask == shape.idOpeningWord
        {
            idStart = start + plain
        } else if plain > 8, start + plain < bytes.count,
            shape.idOpening.withUnsafeBytes({ JSONScanner.sameBytes(base + start, $0.baseAddress!, count: plain) })
        {
            idStart = start + plain
        } else {
            let typed = shape.typenamedIDOpening.count
            guard start + typed < bytes.count,
                shape.typenamedIDOpening.withUnsafeBytes({ JSONScanner.sameBytes(base + start, $0.baseAddress!, count: typed) })
            else { return nil }
            idStart = start + typed
        }
        // Every opening ends with the id's opening quote.
        guard let id = scanner.shortPlainString(at: idStart - 1) else { return nil }
        let idText = TextSpan(id)
        let hash = RecordTable.hash(UnsafeRawBufferPointer(rebasing: bytes[id]), from: shape.keyPrefixHash)
        let typeID = shape.typeID
        // Only a record keyed from these bytes in place (`Type:` and the id) can have been last
        // written by this text; one keyed the general way (an escaped id) takes the long way.
        guard let index = find(hash, { records[$0].keyType == typeID && records[$0].keyID.sameBytes(as: idText, in: bytes) }),
            let last = records[index].lastText, last.shape == ObjectIdentifier(shape),
            scanner.sameText(at: start, as: last.text)
        else { return nil }
        scanner.reset(to: JSONScanner.Mark(position: start + Int(last.text.count), depth: scanner.depth))
        return index
    }

    /// Right after a leaf entity's id: when the object's whole text is the text that last wrote
    /// its record, with the same shape, and nothing has written the record since, the rest of
    /// the object would write every cell again as it is. Moves past the object and answers true.
    ///
    /// Equal bytes are as valid as the first text, and hold the same nulls (none) and members.
    mutating func skipRepeat(of index: Int, shape: Shape, from start: JSONScanner.Mark) -> Bool {
        guard let last = records[index].lastText, last.shape == ObjectIdentifier(shape),
            scanner.sameText(at: start.position, as: last.text)
        else { return false }
        scanner.reset(to: JSONScanner.Mark(position: start.position + Int(last.text.count), depth: start.depth))
        return true
    }
}
