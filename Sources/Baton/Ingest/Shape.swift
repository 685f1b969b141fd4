/// The fields of one object under one response key, merged across the selections that name it,
/// with everything ingest needs resolved once per normalize call (slot, storage key, directives).
final class ShapeEntry {
    let responseKey: String
    let keyBytes: [UInt8]
    /// `keyBytes` when no byte needs escaping in JSON (always, for GraphQL names), else empty:
    /// only such a name can be matched in place, quote to quote.
    let plainKey: [UInt8]
    /// `plainKey` quoted, packed for a comparison by words.
    let keyPattern: JSONKeyPattern
    let name: String
    let type: FieldType
    let kind: FieldType.Kind
    let namedType: String
    let listDepth: Int
    /// The field's own value may be null (level 0 of its type is nullable).
    let isNullable: Bool
    /// ``FieldType/nonNullLevels`` of `type`, kept apart so the hot path reads one word.
    let nonNullLevels: UInt64
    let isTypename: Bool
    /// A leaf field named `id` (by name, not alias): the object's identity.
    let isID: Bool
    let isComposite: Bool
    /// A single string-like leaf (String, enum, ID): its text can be compared in place.
    let reusesStrings: Bool
    let slot: SlotID
    let storageKey: String
    /// The interned group of the sub-selections of every field under this key (-1 for leaves).
    let childGroup: Int
    let connection: Connection?
    let deleteRecord: DeleteRecordDirective?
    /// The child shape last used under this entry: objects under one field nearly always share a type.
    var childShape: Shape?

    /// True when the value at `level` of the field's type (0: the field's own value) may not be null.
    @inline(__always)
    func isNonNull(atLevel level: Int) -> Bool {
        level < 64 && nonNullLevels & (1 << UInt64(level)) != 0
    }

    /// A `@connection` field's page facts under the call's variables.
    struct Connection {
        let storageKey: String
        let slot: SlotID
        let mode: ConnectionPage.Mode
    }

    init(field: FieldSelection, childGroup: Int, deleteRecord: DeleteRecordDirective?, variables: Variables) {
        responseKey = field.responseKey
        keyBytes = Array(field.responseKey.utf8)
        let plain = keyBytes.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        plainKey = plain && !keyBytes.isEmpty ? keyBytes : []
        keyPattern = JSONKeyPattern(plainKey)
        name = field.name
        type = field.type
        isNullable = !field.type.isNonNull(atLevel: 0)
        nonNullLevels = field.type.nonNullLevels
        kind = field.type.kind
        namedType = field.type.namedType
        listDepth = field.type.listDepth
        isTypename = field.isTypename
        isComposite = field.type.isComposite
        isID = field.name == "id" && !field.type.isComposite
        reusesStrings = field.type.listDepth == 0 && [.string, .enumeration, .id].contains(field.type.kind)
        slot = field.slot(variables)
        storageKey = field.storageKey(variables)
        self.childGroup = childGroup
        self.deleteRecord = deleteRecord
        if let connectionKey = field.connectionStorageKey(variables) {
            let mode: ConnectionPage.Mode
            if case .string(let cursor)? = field.argument("after", variables) {
                mode = .append(after: cursor)
            } else if case .string(let cursor)? = field.argument("before", variables) {
                mode = .prepend(before: cursor)
            } else {
                mode = .replace
            }
            connection = Connection(storageKey: connectionKey, slot: SlotID.named(connectionKey), mode: mode)
        } else {
            connection = nil
        }
    }
}

/// The flattened fields that apply to objects of one type under one group of selection sets.
final class Shape {
    let typename: String
    let entries: [ShapeEntry]
    /// Some entry is an `id` field: the object is keyed by it when the response gives one.
    let hasID: Bool
    /// Keyed by `id`, with leaf entries only and no `@deleteRecord`: such an object writes its
    /// own record and nothing else, so the same text met again can be skipped when nothing
    /// wrote the record in between.
    let isLeafEntity: Bool

    /// `Type:`, the start of the keys of this type's entities, and the hash state after it.
    let keyPrefix: [UInt8]
    let keyPrefixHash: KeyHasher
    /// The type name's number in this normalize call (shapes of one type under other groups share it).
    let typeID: Int32
    /// The type is named `client`: its entity with id `root` is not keyed `client:root`
    /// (``RecordKey/entity(typename:id:)``).
    let isClientType: Bool
    /// For a leaf entity: how the text of such an object met again starts, up to its id's
    /// opening quote, when the id is its first member, `{"id":"` (the id's response key), and when
    /// its type name comes first, `{"__typename":"Type","id":"` (as Apollo's clients order every
    /// selection), whether the selection names `__typename` there or not
    /// (``Normalizer/repeatedLeafEntity(_:)``). Empty when the selection's order gives neither.
    let idOpening: [UInt8]
    let typenamedIDOpening: [UInt8]
    /// `idOpening` as one little-endian word and the mask of its bytes, when it fits in eight
    /// (`{"id":"` does): compared with one load.
    let idOpeningWord: UInt64
    let idOpeningMask: UInt64
    /// No variable can change the shape: its group's selection sets put no condition on one, and
    /// no argument of its fields names one. A cache for other variables may start with it
    /// (``ShapeCache/carryingOver(to:)``).
    var isVariableFree = false

    init(typename: String, entries: [ShapeEntry], typeID: Int32) {
        self.typename = typename
        self.entries = entries
        self.typeID = typeID
        self.hasID = entries.contains { $0.isID }
        isLeafEntity = hasID && entries.allSatisfy { !$0.isComposite && $0.deleteRecord == nil }
        keyPrefix = Array((typename + ":").utf8)
        var prefixHasher = KeyHasher()
        keyPrefix.withUnsafeBytes { prefixHasher.combine($0) }
        keyPrefixHash = prefixHasher
        isClientType = typename == "client"
        // The id entry, and the type name's response key before it: `__typename` when the id
        // is the selection's first entry (the member then is not selected, and is read past).
        var id: ShapeEntry?
        var typenameKey = Array("__typename".utf8)
        if isLeafEntity, let first = entries.first {
            if first.isID {
                id = first
            } else if first.isTypename, !first.plainKey.isEmpty, entries.count > 1, entries[1].isID {
                id = entries[1]
                typenameKey = first.plainKey
            }
        }
        if let id, id.reusesStrings, !id.plainKey.isEmpty {
            let idKey = Array("\"".utf8) + id.plainKey + Array("\":\"".utf8)
            idOpening = entries[0] === id ? Array("{".utf8) + idKey : []
            typenamedIDOpening = Array("{\"".utf8) + typenameKey + Array("\":\"".utf8) + Array(typename.utf8) + Array("\",".utf8) + idKey
        } else {
            idOpening = []
            typenamedIDOpening = []
        }
        var word: UInt64 = 0
        var mask: UInt64 = 0
        if !idOpening.isEmpty, idOpening.count <= 8 {
            for (i, byte) in idOpening.enumerated() {
                word |= UInt64(byte) << UInt64(8 * i)
                mask |= 0xFF << UInt64(8 * i)
            }
        }
        idOpeningWord = word
        idOpeningMask = mask
    }

    /// The index of the entry whose response key is the body of `span` (unescaped), trying `hint`
    /// first: responses usually list members in selection order, so the next entry is the likely one.
    @inline(__always)
    func match(_ body: UnsafeRawBufferPointer, hint: inout Int) -> Int? {
        let count = entries.count
        var i = hint < count ? hint : 0
        for _ in 0..<count {
            if Shape.equal(entries[i].keyBytes, body) {
                hint = i + 1
                return i
            }
            i += 1
            if i == count { i = 0 }
        }
        return nil
    }

    /// The index of the entry under `responseKey` (for escaped keys), compared by its bytes as
    /// JSON compares names: Swift's `==` would take `\u212Aind` (a Kelvin sign) for `Kind`, and
    /// read a member the selection does not name as one it does (`byBytes` false: that bug, for
    /// its mutant).
    func index(named responseKey: String, byBytes: Bool = true) -> Int? {
        guard byBytes else { return entries.firstIndex { $0.responseKey == responseKey } }
        return entries.firstIndex { ExactText.bytesEqual($0.responseKey, responseKey) }
    }

    /// The entry under `responseKey` (for error paths).
    func entry(named responseKey: String) -> ShapeEntry? {
        index(named: responseKey).map { entries[$0] }
    }

    /// Whether `body` spells this shape's type name (the bytes of ``keyPrefix`` but its colon).
    @inline(__always)
    func namesType(_ body: UnsafeRawBufferPointer) -> Bool {
        guard body.count == keyPrefix.count - 1 else { return false }
        return keyPrefix.withUnsafeBytes { prefix in
            for i in 0..<body.count where prefix[i] != body[i] { return false }
            return true
        }
    }

    @inline(__always)
    static func equal(_ key: [UInt8], _ body: UnsafeRawBufferPointer) -> Bool {
        guard key.count == body.count else { return false }
        return key.withUnsafeBufferPointer { key in
            for i in 0..<key.count where key[i] != body[i] { return false }
            return true
        }
    }
}

/// The shapes met during one normalize call, keyed by (group of selection sets, type name).
///
/// A group is the list of selection sets that apply to one child object: usually the one
/// sub-selection of its field, several when fields sharing a response key each select on it.
final class ShapeCache {
    let variables: Variables
    /// Takes `__typename` alone for an object's type name (the mutant `typenameAliasIgnored`).
    private let ignoresTypenameAliases: Bool
    private var groups: [[SelectionSet]] = []
    private var groupIDs: [[ObjectIdentifier]: Int] = [:]
    private var shapes: [ShapeKey: Shape] = [:]
    private var typenameKeys: [Int: [[UInt8]]] = [:]
    private var typeIDs: [String: Int32] = [:]

    private struct ShapeKey: Hashable {
        let group: Int
        let typename: String
    }

    /// A cache whose group 0 is `root`; `ignoresTypenameAliases` only under the mutant
    /// `typenameAliasIgnored`.
    init(variables: Variables, root: SelectionSet, ignoresTypenameAliases: Bool = false) {
        self.variables = variables
        self.ignoresTypenameAliases = ignoresTypenameAliases
        _ = group(for: [root])
    }

    private init(variables: Variables, groups: [[SelectionSet]], groupIDs: [[ObjectIdentifier]: Int], typeIDs: [String: Int32], ignoresTypenameAliases: Bool) {
        self.variables = variables
        self.ignoresTypenameAliases = ignoresTypenameAliases
        self.groups = groups
        self.groupIDs = groupIDs
        self.typeIDs = typeIDs
    }

    /// A cache for `variables` that starts with this one's groups and type numbers and with the
    /// shapes no variable can change, so that the next page of a list, asked for under other
    /// variables, builds only the shapes its variables reach (usually the root's). The carried
    /// shapes forget a child shape they remember that variables can change. This cache must not
    /// be used again.
    func carryingOver(to variables: Variables) -> ShapeCache {
        let next = ShapeCache(variables: variables, groups: groups, groupIDs: groupIDs, typeIDs: typeIDs, ignoresTypenameAliases: ignoresTypenameAliases)
        for (key, shape) in shapes where shape.isVariableFree {
            for entry in shape.entries where entry.childShape?.isVariableFree == false {
                entry.childShape = nil
            }
            next.shapes[key] = shape
        }
        return next
    }

    /// The interned id of a list of selection sets.
    func group(for sets: [SelectionSet]) -> Int {
        let ids = sets.map(ObjectIdentifier.init)
        if let id = groupIDs[ids] { return id }
        let id = groups.count
        groups.append(sets)
        groupIDs[ids] = id
        return id
    }

    /// The shape of objects of type `typename` under `group`.
    func shape(group: Int, typename: String) -> Shape {
        let key = ShapeKey(group: group, typename: typename)
        if let shape = shapes[key] { return shape }
        let shape = build(group: group, typename: typename)
        shapes[key] = shape
        return shape
    }

    private func build(group: Int, typename: String) -> Shape {
        // Merge fields by response key, in first-seen order.
        var fields: [FieldSelection] = []
        var children: [[SelectionSet]] = []
        var deleteRecords: [DeleteRecordDirective?] = []
        var position: [String: Int] = [:]
        for set in groups[group] {
            for field in set.fields(for: typename, variables: variables) {
                if let i = position[field.responseKey] {
                    if let sub = field.selections, !children[i].contains(where: { $0 === sub }) {
                        children[i].append(sub)
                    }
                    if deleteRecords[i] == nil { deleteRecords[i] = field.deleteRecord }
                    continue
                }
                position[field.responseKey] = fields.count
                fields.append(field)
                children.append(field.selections.map { [$0] } ?? [])
                deleteRecords.append(field.deleteRecord)
            }
        }
        var entries: [ShapeEntry] = []
        entries.reserveCapacity(fields.count)
        for (i, field) in fields.enumerated() {
            let child = field.type.isComposite ? self.group(for: children[i]) : -1
            entries.append(ShapeEntry(field: field, childGroup: child, deleteRecord: deleteRecords[i], variables: variables))
        }
        let typeID = typeIDs[typename] ?? Int32(typeIDs.count)
        typeIDs[typename] = typeID
        let shape = Shape(typename: typename, entries: entries, typeID: typeID)
        shape.isVariableFree = groups[group].allSatisfy(\.isCacheable) && fields.allSatisfy { $0.staticStorageKey != nil }
        return shape
    }

    /// The member names that may carry an object's type name before its type is known: the
    /// response keys of `__typename` fields that apply to any type, and `__typename` itself.
    func typenameKeys(group: Int) -> [[UInt8]] {
        if let keys = typenameKeys[group] { return keys }
        var keys: [[UInt8]] = [Array("__typename".utf8)]
        for set in groups[group] where !ignoresTypenameAliases {
            for field in set.fields(for: nil, variables: variables) where field.isTypename {
                let key = Array(field.responseKey.utf8)
                if !keys.contains(key) { keys.append(key) }
            }
        }
        typenameKeys[group] = keys
        return keys
    }
}
