/// Where a response's field errors land.
///
/// An error's path is followed through `data` as the response wrote it: each key a member of the
/// object met at that step (response keys, aliases included), each index an element of the list
/// there. The object reached before the last key is identified as ingest identified it (its `id`,
/// else its path), and the error goes on that record's merged cell of the field the last key
/// names. A record met at two paths merges both occurrences, and its links may differ between
/// them, so the merged records cannot answer which object the error's own occurrence held.
///
/// A path that steps through a `null` (a field's or a list element's) stops there: the error is
/// the reason for that null (the spec's null propagation keeps the path of the field that
/// failed, below it), so it goes on the cell of the field holding the null, with the indices of
/// the null element when the null is one of the field's list elements, and a read gives it back
/// at that element, or at the field for the field's own null.
///
/// This costs a response without errors nothing; each error re-reads the bytes along its path.
extension Normalizer {
    /// Puts `error` on the cell `path` names, or on the field holding a `null` the path steps
    /// through; false when the path names nothing the response holds (a missing or unselected
    /// field, a step into a leaf, past a list's end, `__typename`).
    ///
    /// Trailing list indices are dropped (an error on a list element lands on the list's field).
    /// The last field may be absent from its object and from the record: its cell is then made,
    /// null, to carry the error, and a `@connection` field gets the null page an explicit `null`
    /// would have brought (a read then meets the failed connection, not nothing).
    mutating func place(_ error: FieldError, path: [ResponsePathComponent], plan: Plan) -> Bool {
        var error = error
        if mutant.isOn(.errorsFollowMergedLinks) { return placeAlongMergedLinks(error, path: path, root: plan.rootKey) }
        var steps = path[...]
        while case .index? = steps.last { steps.removeLast() }
        guard case .key(let name)? = steps.last, let dataMark else { return false }
        let end = scanner.mark
        defer { scanner.reset(to: end) }
        scanner.reset(to: dataMark)
        let found: Occurrence?
        do throws(IngestError) {
            found = try occurrence(along: steps.dropLast(), plan: plan)
        } catch {
            // The bytes were read once already; an error here names nothing.
            return false
        }
        let key: RecordKey
        let member: ShapeEntry
        switch found {
        case .object(let object, let shape)?:
            guard let entry = shape.entry(named: name), !entry.isTypename else { return false }
            key = object
            member = entry
        case .null(let object, let field, let indices)?:
            if mutant.isOn(.errorsUnderNullUnplaced) { return false }
            key = object
            member = field
            if !mutant.isOn(.errorElementForgotten) { error.elementIndices = indices }
        case nil:
            return false
        }
        guard let index = record(key) else { return false }
        if let connection = member.connection, !mutant.isOn(.absentConnectionGetsNoPage),
            cells.position(of: member.slot, in: records[index]) == nil
        {
            appendPage(connection, of: member, parent: key, typename: member.namedType, serverRecord: nil)
        }
        cells.place(error, on: member.slot, in: &records[index], replacing: mutant.isOn(.fieldKeepsOneError))
        return true
    }

    /// Where a path's steps end: at an object, or at a `null` that a field holds (its own value,
    /// or an element of its list at some depth: the element's indices, one per level).
    private enum Occurrence {
        case object(RecordKey, Shape)
        case null(RecordKey, ShapeEntry, elementIndices: [Int])
    }

    /// Follows `steps` from `data`'s object (at the scanner) and answers the key and shape of the
    /// object they reach, or the record and field of the first `null` they step through; nil when
    /// they step through a missing member, a leaf, or past a list's end.
    private mutating func occurrence(
        along steps: ArraySlice<ResponsePathComponent>, plan: Plan
    ) throws(IngestError) -> Occurrence? {
        var steps = steps
        var group = 0
        var declaredType: String? = plan.rootTypename
        var abstractType = "?"
        var keySource = KeySource.fixed(plan.rootKey)
        var item: Int?
        while true {
            let typename: String
            if let declaredType {
                typename = declaredType
            } else {
                typename = try findTypename(group: group, abstractType: abstractType)
            }
            let shape = cache.shape(group: group, typename: typename)
            var next: ShapeEntry?
            if let step = steps.first {
                guard case .key(let name) = step, let entry = shape.entry(named: name), entry.isComposite else { return nil }
                next = entry
            }
            guard let (key, target) = try identifyObject(shape: shape, keySource: keySource, item: item, finding: next) else { return nil }
            guard let next else { return .object(key, shape) }
            guard let target else { return nil }
            steps.removeFirst()
            scanner.reset(to: target)
            // One index per list level; the path key gets one `:index` per level, as ingest made it.
            var storageKey = next.storageKey
            var index: Int?
            var indices: [Int] = []
            for level in 0..<next.listDepth {
                if try peek() == .null { return .null(key, next, elementIndices: indices) }
                guard case .index(let position)? = steps.first, try peek() == .array, try element(position) else { return nil }
                steps.removeFirst()
                indices.append(position)
                if level + 1 < next.listDepth {
                    storageKey += ":" + String(position)
                } else {
                    index = position
                }
            }
            let kind = try peek()
            if kind == .null { return .null(key, next, elementIndices: indices) }
            guard kind == .object else { return nil }
            group = next.childGroup
            declaredType = next.kind == .object ? next.namedType : nil
            abstractType = next.namedType
            keySource = .path(parent: key, storageKey: storageKey)
            item = index
        }
    }

    /// Reads the object at the scanner: its record key (by its first `id` member, else
    /// `keySource`), and where `member`'s value starts when the object holds it. Nil when the
    /// object's key cannot be told (an entity without its `id`).
    private mutating func identifyObject(
        shape: Shape, keySource: KeySource, item: Int?, finding member: ShapeEntry?
    ) throws(IngestError) -> (key: RecordKey, target: JSONScanner.Mark?)? {
        var key: RecordKey?
        if let fixed = keySource.fixed {
            key = fixed
        } else if !shape.hasID {
            key = keySource.pathKey(item: item)
        }
        var target: JSONScanner.Mark?
        if try openObject() {
            repeat {
                let name = try string(try readKey())
                guard let entry = shape.entry(named: name) else {
                    try skipValue()
                    continue
                }
                if entry === member {
                    target = scanner.mark
                    try skipValue()
                } else if key == nil && entry.isID {
                    key = try identity(try leafValue(entry), typename: shape.typename, keySource: keySource, item: item)
                } else {
                    try skipValue()
                }
            } while try nextMember()
        }
        return key.map { ($0, target) }
    }

    /// Opens the list at the scanner and moves to its element `position`; false past its end.
    private mutating func element(_ position: Int) throws(IngestError) -> Bool {
        guard try openArray() else { return false }
        for _ in 0..<position {
            try skipValue()
            guard try nextElement() else { return false }
        }
        return true
    }

    /// The walk before issue 8's fix, kept for the `errorsFollowMergedLinks` mutant: follows the
    /// merged records' links from the root, so a record met at two paths can send an error through
    /// the other occurrence's link.
    private mutating func placeAlongMergedLinks(_ error: FieldError, path: [ResponsePathComponent], root: RecordKey) -> Bool {
        var path = path[...]
        while case .index? = path.last { path.removeLast() }
        guard !path.isEmpty, var index = record(root) else { return false }
        var group = 0
        while true {
            guard case .key(let key)? = path.first else { return false }
            path.removeFirst()
            let shape = cache.shape(group: group, typename: records[index].typename)
            guard let member = shape.entry(named: key), !member.isTypename else { return false }
            if path.isEmpty {
                cells.place(error, on: member.slot, in: &records[index])
                return true
            }
            guard member.isComposite, let position = cells.position(of: member.slot, start: records[index].start, count: records[index].count) else { return false }
            var value = cells.fields[position].value
            while case .index(let position)? = path.first {
                path.removeFirst()
                switch value {
                case .links(let keys) where position < keys.count:
                    guard let key = keys[position] else { return false }
                    value = .link(key)
                case .list(let items) where position < items.count:
                    value = items[position]
                default:
                    return false
                }
            }
            guard case .link(let child) = value, let next = record(child) else { return false }
            index = next
            group = member.childGroup
        }
    }
}
