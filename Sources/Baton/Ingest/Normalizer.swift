#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state of one normalize call: a scanner over the response and the change set being built.
///
/// Objects are normalized in one pass while their key is known: always for objects keyed by path,
/// and for entities once their `id` member has been read. Composite members met before the `id`
/// are skipped and their positions kept; the object's key is then known at its end, and the
/// scanner comes back for them, and for every member after the first of them, in response order.
/// Leaf values met before the key and before any such composite wait in `pending`.
struct Normalizer {
    var scanner: JSONScanner
    let cache: ShapeCache
    var records: [RecordBuilder] = []
    /// The records' cells, a block per record.
    var cells: CellPool
    /// Record keys → indices in `records`, hashed over UTF-8 (see ``RecordTable``).
    var table = RecordTable()
    var deletions: [RecordKey] = []
    var pages: [ConnectionPage] = []
    /// The slot of each page's field in its parent (by page): its errors are the page's.
    var pageFieldSlots: [SlotID] = []
    /// Leaf cells of objects whose key is not known yet (a stack shared by nested objects).
    var pending: [(SlotID, Value)] = []
    /// Composite members waiting for their object's key (a stack shared by nested objects).
    var deferred: [(ShapeEntry, JSONScanner.Mark)] = []
    /// The records of the lists of links being read, by index in `records` (-1: null), a stack
    /// shared by nested lists: indices are plain integers, so the stack costs no reference counting.
    var links: [Int] = []
    /// Nulls met in non-null positions, each skipped with the nullable value that holds it (see
    /// `NullPropagation.swift`); when any is met, this pass's change set is not the answer.
    var violations: [NullViolation] = []
    /// The response's `errors`, once read.
    var errors: [ResponseError] = []
    /// True in the pass that checks the values a propagated null replaces: a null in a non-null
    /// position reads as it stands, and everything around it is read and checked as usual.
    var readsMisplacedNulls = false
    /// Where `data`'s object starts, once met: errors are placed by walking it again.
    var dataMark: JSONScanner.Mark?
    /// A known bug switched back on (tests and the simulator only).
    let mutant: Mutant?

    init(scanner: JSONScanner, cache: ShapeCache, mutant: Mutant? = nil) {
        self.scanner = scanner
        self.cache = cache
        self.cells = CellPool(responseBytes: scanner.bytes.count)
        self.mutant = mutant
    }

    /// How an object gets its key when it has no usable `id`: an operation root's fixed key, or
    /// its path, `parent:storageKey`, with `:index` for an item of a list (the index is passed
    /// beside the source, so that the items of a list share one source: no reference counting
    /// per item).
    struct KeySource {
        /// An operation root's key, whatever the object holds (nil below the roots).
        let fixed: RecordKey?
        let parent: RecordKey
        let storageKey: String

        /// An operation root: `key`, whatever the object holds.
        static func fixed(_ key: RecordKey) -> KeySource {
            KeySource(fixed: key, parent: key, storageKey: "")
        }

        /// `parent:storageKey`, and `parent:storageKey:index` for the item `index` of a list.
        static func path(parent: RecordKey, storageKey: String) -> KeySource {
            KeySource(fixed: nil, parent: parent, storageKey: storageKey)
        }

        /// The key of the object at `item` of a list (nil: not in a list).
        func pathKey(item: Int?) -> RecordKey {
            fixed ?? RecordKey.path(parent: parent, storageKey: storageKey, index: item)
        }
    }

    // MARK: Records

    /// The index of `key`'s record, made on first sight (records stay in first-seen order).
    mutating func openRecord(_ key: RecordKey, typename: String, capacity: Int) -> Int {
        let hash = RecordTable.hash(key.rawValue)
        if let index = find(hash, { records[$0].key == key }) {
            if records[index].typename != typename { records[index].typename = typename }
            return index
        }
        return appendRecord(key, typename: typename, capacity: capacity, hash: hash)
    }

    /// The index of the record whose key hashes to `hash` and whose index satisfies `matches`
    /// (an index, not a copy of the record: the record is read in place).
    @inline(__always)
    func find(_ hash: UInt64, _ matches: (Int) -> Bool) -> Int? {
        var bucket = table.bucket(for: hash)
        let tag = RecordTable.tag(hash)
        while true {
            let entry = table.buckets[bucket]
            if entry == 0 { return nil }
            if entry & 0xFFFF_FFFF_0000_0000 == tag {
                let index = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                if matches(index) { return index }
            }
            bucket = (bucket + 1) & table.mask
        }
    }

    mutating func appendRecord(_ key: RecordKey, typename: String, capacity: Int, hash: UInt64) -> Int {
        let index = records.count
        records.append(RecordBuilder(key: key, typename: typename, block: cells.block(capacity: capacity), capacity: capacity))
        table.insert(hash)
        return index
    }

    /// Reads an object's `id` member and finds or makes its record, writing the id's cell.
    ///
    /// A plain string id is looked up by the hash of `Type:` and its bytes, and compared by bytes
    /// with the id a record of the same type was made from, so an entity met again costs no string
    /// at all; other ids (escaped, integer, null) take the general way. The value is returned only
    /// when `member` deletes records (the caller's only use of it).
    mutating func identify(
        _ member: ShapeEntry, shape: Shape, keySource: KeySource, item: Int?
    ) throws(IngestError) -> (index: Int, value: Value?) {
        // `shape.typename` is read in place where it is needed (a local copy would cost its
        // reference counting on every entity met again).
        let value: Value
        if member.reusesStrings, try peek() == .string {
            let span: JSONStringSpan
            if let plain = scanner.readShortPlainString() {
                // Most ids are a few plain ASCII bytes: read without the general scan.
                span = JSONStringSpan(range: plain, hasEscapes: false, isASCII: true)
            } else {
                do { span = try scanner.readStringSpan() } catch { throw .json(error) }
            }
            // A `:` in the id is escaped in its key (a raw `\` is always a JSON escape), and a
            // `client` whose id is `root` is not keyed as the query root: such ids take the
            // general way.
            if !span.hasEscapes && span.isASCII && !Self.holdsColon(scanner.bytes, span.range)
                && !(shape.isClientType && Self.isRoot(scanner.bytes, span.range))
                && !mutant.isOn(.entityIDsNotEscaped)
            {
                let bytes = scanner.bytes
                let idText = span.text
                let id = UnsafeRawBufferPointer(rebasing: bytes[span.range])
                let hash = RecordTable.hash(id, from: shape.keyPrefixHash)
                let prefix = shape.keyPrefix
                let typeID = shape.typeID
                let found = find(hash) { index in
                    let keyType = records[index].keyType
                    if keyType == typeID { return records[index].keyID.sameBytes(as: idText, in: bytes) }
                    // Type names hold no `:`: a key made from another type's prefix is another key.
                    if keyType >= 0 { return false }
                    return RecordTable.key(records[index].key.rawValue, is: prefix, id)
                }
                let wantsValue = member.deleteRecord != nil
                if let index = found {
                    if records[index].typename != shape.typename { records[index].typename = shape.typename }
                    if records[index].keyType == typeID && records[index].keySlot == member.slot.index {
                        // Found by these bytes, and the id's cell still holds them.
                        return (index, wantsValue ? .string(try string(span)) : nil)
                    }
                    if let position = cells.position(of: member.slot, start: records[index].start, count: records[index].count),
                        cells.fields[position].span.sameBytes(as: idText, in: bytes)
                    {
                        return (index, wantsValue ? cells.fields[position].value : nil)
                    }
                    let value = Value.string(try string(span))
                    cells.write(member.slot, value, span: idText, into: &records[index])
                    return (index, value)
                }
                let text = try string(span)
                // `Type:` and the id's bytes, made in one piece.
                let key = RecordKey(String(unsafeUninitializedCapacity: prefix.count + id.count) { buffer in
                    _ = buffer.initialize(from: prefix)
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[prefix.count...])
                        .copyMemory(from: id)
                    return prefix.count + id.count
                })
                let index = appendRecord(key, typename: shape.typename, capacity: shape.entries.count, hash: hash)
                records[index].keyType = typeID
                records[index].keyID = idText
                cells.write(member.slot, .string(text), span: idText, into: &records[index])
                records[index].keySlot = member.slot.index
                return (index, wantsValue ? .string(text) : nil)
            }
            value = .string(try string(span))
        } else {
            value = try leafValue(member)
        }
        let key = try identity(value, typename: shape.typename, keySource: keySource, item: item)
        let index = openRecord(key, typename: shape.typename, capacity: shape.entries.count)
        cells.write(member.slot, value, into: &records[index])
        return (index, value)
    }

    // MARK: Objects

    /// Normalizes the object at the scanner (already peeked) and returns its record's index;
    /// `item` is its index when it is an item of a list.
    ///
    /// `declaredType` is the root's type; below the root (`nil`) the type comes from `entry`: the
    /// schema's type for object types, the object's `__typename` for interfaces and unions.
    mutating func normalizeObject(
        group: Int, declaredType: String?, entry: ShapeEntry?, keySource: KeySource, item: Int?
    ) throws(IngestError) -> Int {
        let start = scanner.position
        let startDepth = scanner.depth
        let violationsBase = violations.count
        let shape: Shape
        if let entry, entry.kind == .object, let memo = entry.childShape {
            // The objects under a field of object type all take one shape. (The type name is
            // read from the shape below: no copy of it per object.)
            shape = memo
        } else {
            let typename: String
            if let declaredType {
                typename = declaredType
            } else if let entry, entry.kind == .object {
                typename = entry.namedType
            } else {
                typename = try findTypename(group: group, abstractType: entry?.namedType ?? "?")
            }
            if let memo = entry?.childShape, memo.typename == typename {
                shape = memo
            } else {
                shape = cache.shape(group: group, typename: typename)
                entry?.childShape = shape
            }
        }

        // The object's record once its key is known (-1 before).
        var index = -1
        if let fixed = keySource.fixed {
            index = openRecord(fixed, typename: shape.typename, capacity: shape.entries.count)
        } else if !shape.hasID {
            index = openRecord(keySource.pathKey(item: item), typename: shape.typename, capacity: shape.entries.count)
        }
        let pendingBase = pending.count
        let deferredBase = deferred.count

        var hint = 0
        // The entries met so far, by index: duplicate members are an error (a response is a map).
        var seen: UInt64 = 0
        // Beyond 64 entries, and members the selection does not name past the first: made only
        // when met (an empty collection still costs a release per object).
        var seenBeyond: Set<Int>?
        // Members the selection does not name: the first kept apart, so that the usual case
        // (one such member, often `__typename`) allocates nothing.
        var firstUnselected: JSONStringSpan?
        var moreUnselected: [JSONStringSpan]?
        if try openObject() {
            repeat {
                // Members usually come in selection order: try the next entry's name in place.
                let entryIndex: Int
                if hint < shape.entries.count, scanner.readKey(ifEqualTo: shape.entries[hint].plainKey, shape.entries[hint].keyPattern) {
                    entryIndex = hint
                    hint += 1
                } else {
                    let span = try readKey()
                    let found: Int?
                    if span.hasEscapes {
                        found = shape.index(named: try string(span), byBytes: !mutant.isOn(.escapedNamesFoldEquivalent))
                    } else {
                        found = shape.match(UnsafeRawBufferPointer(rebasing: scanner.bytes[span.range]), hint: &hint)
                    }
                    guard let found else {
                        if let first = firstUnselected {
                            var repeated = try sameName(first, span)
                            for other in moreUnselected ?? [] where !repeated { repeated = try sameName(other, span) }
                            if repeated {
                                let name = try string(span)
                                throw IngestError(.duplicateMember(name), offset: span.range.lowerBound - 1).inside(.key(name))
                            }
                            if moreUnselected == nil { moreUnselected = [span] } else { moreUnselected!.append(span) }
                        } else {
                            firstUnselected = span
                        }
                        do throws(IngestError) {
                            // A `__typename` the selection does not name still speaks for the
                            // object's type (a network layer adds it everywhere): it must agree.
                            if try isTypenameKey(span), !mutant.isOn(.unselectedTypenameUnchecked) {
                                try checkTypename(shape)
                            } else {
                                try skipValue()
                            }
                        } catch {
                            throw error.inside(.key(try string(span)))
                        }
                        continue
                    }
                    entryIndex = found
                }
                let member = shape.entries[entryIndex]
                if entryIndex < 64 {
                    let bit: UInt64 = 1 << UInt64(entryIndex)
                    if seen & bit != 0 { throw duplicate(member) }
                    seen |= bit
                } else if seenBeyond == nil {
                    seenBeyond = [entryIndex]
                } else if !seenBeyond!.insert(entryIndex).inserted {
                    throw duplicate(member)
                }
                let valueMark = scanner.mark
                do throws(IngestError) {
                    if member.isTypename {
                        try checkTypename(shape)
                    } else if member.isComposite {
                        if index >= 0, deferred.count == deferredBase {
                            try writeComposite(member, into: index)
                        } else {
                            // The key is not known yet (or earlier members wait): come back later,
                            // keeping members in response order.
                            deferred.append((member, valueMark))
                            try skipValueToRevisit()
                        }
                    } else if index < 0 && member.isID {
                        let found = try identify(member, shape: shape, keySource: keySource, item: item)
                        index = found.index
                        if shape.isLeafEntity, pending.count == pendingBase,
                            skipRepeat(of: index, shape: shape, from: JSONScanner.Mark(position: start, depth: startDepth))
                        {
                            return index
                        }
                        if pending.count > pendingBase {
                            for (slot, value) in pending[pendingBase...] { cells.write(slot, value, into: &records[index]) }
                            pending.removeSubrange(pendingBase...)
                        }
                        if let directive = member.deleteRecord, let value = found.value { appendDeletions(value, directive) }
                    } else if deferred.count > deferredBase, !mutant.isOn(.lateIDLeavesJumpAhead) {
                        // A composite member before this one waits for the object's key: this
                        // leaf waits behind it, so that a record met in both is written in
                        // response order (the later value wins, wherever the id stands).
                        deferred.append((member, valueMark))
                        try skipValueToRevisit()
                    } else {
                        if index >= 0, member.reusesStrings, member.deleteRecord == nil, try writeString(member, into: index) {
                            continue
                        }
                        let value = try leafValue(member)
                        if index >= 0 {
                            cells.write(member.slot, value, into: &records[index])
                        } else {
                            pending.append((member.slot, value))
                        }
                        if let directive = member.deleteRecord { appendDeletions(value, directive) }
                    }
                } catch {
                    if member.isNullable, try recover(error, at: valueMark) { continue }
                    dropStacks(pending: pendingBase, deferred: deferredBase)
                    throw error.inside(.key(member.responseKey))
                }
            } while try nextMember()
        }

        guard index >= 0 else { throw IngestError(.missingID, offset: start) }
        let deferredEnd = deferred.count
        if deferredEnd > deferredBase {
            let after = scanner.mark
            for i in deferredBase..<deferredEnd {
                let (member, mark) = deferred[i]
                scanner.reset(to: mark)
                do throws(IngestError) {
                    if member.isComposite {
                        try writeComposite(member, into: index)
                    } else {
                        let value = try leafValue(member)
                        cells.write(member.slot, value, into: &records[index])
                        if let directive = member.deleteRecord { appendDeletions(value, directive) }
                    }
                } catch {
                    if member.isNullable, try recover(error, at: mark) { continue }
                    dropStacks(pending: pendingBase, deferred: deferredBase)
                    throw error.inside(.key(member.responseKey))
                }
            }
            deferred.removeSubrange(deferredBase..<deferredEnd)
            scanner.reset(to: after)
        }
        if shape.isLeafEntity, violations.count == violationsBase {
            records[index].lastText = LastText(text: TextSpan(start..<scanner.position), shape: ObjectIdentifier(shape))
        }
        return index
    }

    /// True when two member names are the same text: the same bytes, once escapes are decoded
    /// when either has some.
    func sameName(_ a: JSONStringSpan, _ b: JSONStringSpan) throws(IngestError) -> Bool {
        if !a.hasEscapes && !b.hasEscapes {
            return UnsafeRawBufferPointer(rebasing: scanner.bytes[a.range])
                .elementsEqual(UnsafeRawBufferPointer(rebasing: scanner.bytes[b.range]))
        }
        if mutant.isOn(.unselectedTwinsCollide) { return try string(a) == string(b) }
        // By the decoded bytes, as JSON compares names: Swift's `==` would take `é` precomposed
        // and decomposed for one name and refuse the response.
        return ExactText.bytesEqual(try string(a), try string(b))
    }

    /// Whether a member's name is `__typename`, however it is escaped.
    func isTypenameKey(_ span: JSONStringSpan) throws(IngestError) -> Bool {
        if !span.hasEscapes { return Shape.equal(Normalizer.typenameKey, UnsafeRawBufferPointer(rebasing: scanner.bytes[span.range])) }
        return ExactText.bytesEqual(try string(span), "__typename")
    }

    /// `__typename`'s bytes, for comparing member names in place.
    static let typenameKey = Array("__typename".utf8)

    /// A member met twice in one object.
    func duplicate(_ member: ShapeEntry) -> IngestError {
        IngestError(.duplicateMember(member.responseKey), offset: scanner.position).inside(.key(member.responseKey))
    }

    /// Drops what an object pushed on the shared stacks, when an error leaves it for a recovery
    /// further up.
    mutating func dropStacks(pending pendingBase: Int, deferred deferredBase: Int) {
        if pending.count > pendingBase { pending.removeSubrange(pendingBase...) }
        if deferred.count > deferredBase { deferred.removeSubrange(deferredBase...) }
    }

    /// The key an `id` value gives: `Type:id` for a string or an integer, the path key for null.
    func identity(_ value: Value, typename: String, keySource: KeySource, item: Int?) throws(IngestError) -> RecordKey {
        switch value {
        case .string(let id): return entityKey(typename: typename, id: id)
        case .int(let id): return .entity(typename: typename, id: String(id))
        case .null: return keySource.pathKey(item: item)
        default:
            throw IngestError(.wrongType(expected: "an id (a string or an integer)", found: "another value"), offset: scanner.position)
        }
    }

    /// Reads a `__typename` member and checks it names the object's type.
    mutating func checkTypename(_ shape: Shape) throws(IngestError) {
        let typename = shape.typename
        let kind = try peek()
        guard kind == .string else { throw wrongType("a type name", kind) }
        let offset = scanner.position
        // The usual case, the type's name as it is: compared in place, no string made.
        let start = scanner.mark
        let plain: JSONStringSpan
        do { plain = try scanner.readStringSpanForComparison() } catch { throw .json(error) }
        if !plain.hasEscapes, shape.namesType(UnsafeRawBufferPointer(rebasing: scanner.bytes[plain.range])) { return }
        scanner.reset(to: start)
        let found = try readString()
        // By bytes: Swift's `==` takes `\u212Aind` (a Kelvin sign) for `Kind`.
        let same = mutant.isOn(.typenamesFoldEquivalent) ? found == typename : ExactText.bytesEqual(found, typename)
        if !same {
            throw IngestError(.typenameMismatch(expected: typename, found: found), offset: offset)
        }
    }

    /// Looks ahead through the object at the scanner for its type name, then comes back.
    mutating func findTypename(group: Int, abstractType: String) throws(IngestError) -> String {
        let start = scanner.mark
        let keys = cache.typenameKeys(group: group)
        var found: String?
        if try openObject() {
            repeat {
                let span = try readKey()
                let name = UnsafeRawBufferPointer(rebasing: scanner.bytes[span.range])
                let isTypename: Bool
                if span.hasEscapes {
                    let decoded = Array(try string(span).utf8)
                    isTypename = keys.contains(decoded)
                } else {
                    isTypename = keys.contains { Shape.equal($0, name) }
                }
                if isTypename {
                    let kind = try peek()
                    guard kind == .string else {
                        throw wrongType("a type name", kind).inside(.key(String(decoding: name, as: UTF8.self)))
                    }
                    let offset = scanner.position
                    let typename = try readString()
                    // A type's name is ASCII; any other text names no type of any server, and
                    // as a dictionary key it could pass for one (a Kelvin sign for a `K`).
                    if !Lexer.isName(typename), !mutant.isOn(.typenamesFoldEquivalent) {
                        throw IngestError(.typenameNotAName(typename), offset: offset)
                    }
                    found = typename
                    break
                }
                // The object is read from its start once its type is known; its strings are checked then.
                try skipValueToRevisit()
            } while try nextMember()
        }
        guard let found else { throw IngestError(.missingTypename(abstractType: abstractType), offset: start.position) }
        scanner.reset(to: start)
        return found
    }

    // MARK: Composite values

    /// Normalizes a composite member's value and writes its slot (plus its connection page).
    mutating func writeComposite(_ member: ShapeEntry, into index: Int) throws(IngestError) {
        let parent = records[index].key
        let value = try compositeValue(member, parent: parent, storageKey: member.storageKey, depth: member.listDepth)
        cells.write(member.slot, value, into: &records[index])
        if let connection = member.connection {
            var serverRecord: RecordKey?
            var typename = member.namedType
            if case .link(let key) = value {
                serverRecord = key
                if let child = record(key) { typename = records[child].typename }
            }
            appendPage(connection, of: member, parent: parent, typename: typename, serverRecord: serverRecord)
        }
    }

    /// The page a `@connection` member's value brings (`serverRecord` nil: the value is null).
    mutating func appendPage(
        _ connection: ShapeEntry.Connection, of member: ShapeEntry, parent: RecordKey, typename: String, serverRecord: RecordKey?
    ) {
        pages.append(ConnectionPage(
            parent: parent,
            connectionSlot: connection.slot,
            connectionRecord: ConnectionPage.clientRecordKey(parent: parent, connectionStorageKey: connection.storageKey),
            typename: typename,
            serverRecord: serverRecord,
            mode: connection.mode))
        pageFieldSlots.append(member.slot)
    }

    /// The value of a composite field at list depth `depth`: `.link`, `.links` for a list of
    /// objects, `.list` of those for deeper lists, `.null` at any level. Objects without an id are
    /// keyed `parent:storageKey`, with one `:index` per list level.
    mutating func compositeValue(
        _ member: ShapeEntry, parent: RecordKey, storageKey: String, depth: Int
    ) throws(IngestError) -> Value {
        let kind = try peek()
        if kind == .null {
            try readNull(member, level: member.listDepth - depth)
            return .null
        }
        if depth == 0 {
            guard kind == .object else { throw wrongType("an object", kind) }
            let child = try childObject(member, .path(parent: parent, storageKey: storageKey), item: nil)
            return .link(records[child].key)
        }
        guard kind == .array else { throw wrongType("a list", kind) }
        let itemLevel = member.listDepth - depth + 1
        let itemsNullable = !member.isNonNull(atLevel: itemLevel)
        var position = 0
        if depth == 1 {
            // The keys gather on a stack shared by nested lists, and the list is made once, at its size.
            let base = links.count
            let source = KeySource.path(parent: parent, storageKey: storageKey)
            if try openArray() {
                repeat {
                    let itemMark = scanner.mark
                    do throws(IngestError) {
                        let element = try peek()
                        if element == .null {
                            try readNull(member, level: itemLevel)
                            links.append(-1)
                        } else if element == .object {
                            links.append(try childObject(member, source, item: position))
                        } else {
                            throw wrongType("an object", element)
                        }
                    } catch {
                        // Whatever nested lists left on the stack goes with the item.
                        links.removeSubrange((base + position)...)
                        guard itemsNullable, try recover(error, at: itemMark) else {
                            links.removeSubrange(base...)
                            throw error.inside(.index(position))
                        }
                        links.append(-1)
                    }
                    position += 1
                } while try nextElement()
            }
            var keys: [RecordKey?] = []
            keys.reserveCapacity(links.count - base)
            for child in links[base...] { keys.append(child < 0 ? nil : records[child].key) }
            links.removeSubrange(base...)
            return .links(keys)
        }
        var items: [Value] = []
        if try openArray() {
            repeat {
                let itemMark = scanner.mark
                do throws(IngestError) {
                    let inner = mutant.isOn(.nestedListItemsShareKeys) ? storageKey : storageKey + ":" + String(position)
                    items.append(try compositeValue(member, parent: parent, storageKey: inner, depth: depth - 1))
                } catch {
                    guard itemsNullable, try recover(error, at: itemMark) else { throw error.inside(.index(position)) }
                    items.append(.null)
                }
                position += 1
            } while try nextElement()
        }
        return .list(items)
    }

    /// Normalizes one object of a composite member and returns its record's index.
    @inline(__always)
    mutating func childObject(_ member: ShapeEntry, _ keySource: KeySource, item: Int?) throws(IngestError) -> Int {
        if let index = repeatedLeafEntity(member) { return index }
        return try normalizeObject(
            group: member.childGroup,
            declaredType: nil,
            entry: member,
            keySource: keySource,
            item: item)
    }

    // MARK: Leaf values

    /// The value of a leaf field: a scalar, or (nested) lists of them.
    mutating func leafValue(_ member: ShapeEntry) throws(IngestError) -> Value {
        if member.listDepth == 0 {
            guard let value = try scalarValue(member.kind, nonNull: !member.isNullable) else {
                return try nullIn(member, level: 0)
            }
            return value
        }
        return try leafList(member, depth: member.listDepth)
    }

    /// For a string-like leaf of a known record, when the response holds a string there: writes
    /// it and answers true. When the record holds the same text already (entities repeat often in
    /// a response) the cell is kept as it is and no string is made. Anything but a string: false,
    /// the scanner where it was.
    mutating func writeString(_ member: ShapeEntry, into index: Int) throws(IngestError) -> Bool {
        guard try peek() == .string else { return false }
        if let position = cells.position(of: member.slot, start: records[index].start, count: records[index].count) {
            let known = cells.fields[position].span
            if !known.isNone {
                // The stored text's bytes, then a quote: the same string, found without scanning.
                if scanner.skipString(sameAs: Int(known.start), count: Int(known.count)) { return true }
            } else if case .string(let old) = cells.fields[position].value {
                let start = scanner.mark
                let span: JSONStringSpan
                // Equal bytes are as valid as the stored text: the UTF-8 check waits for a difference.
                do { span = try scanner.readStringSpanForComparison() } catch { throw .json(error) }
                if !span.hasEscapes, Normalizer.equal(old, UnsafeRawBufferPointer(rebasing: scanner.bytes[span.range])) {
                    return true
                }
                scanner.reset(to: start)
            }
        }
        let span: JSONStringSpan
        do { span = try scanner.readStringSpan() } catch { throw .json(error) }
        cells.write(member.slot, .string(try string(span)), span: span.text, into: &records[index])
        return true
    }

    /// True when `text`'s UTF-8 is exactly `bytes`.
    static func equal(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == bytes.count else { return false }
        return utf8.withContiguousStorageIfAvailable { stored in
            var i = 0
            let count = stored.count
            while i + 8 <= count {
                let a = UnsafeRawBufferPointer(stored).loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if a != bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
                i += 8
            }
            while i < count {
                if stored[i] != bytes[i] { return false }
                i += 1
            }
            return true
        } ?? utf8.elementsEqual(bytes)
    }

    mutating func leafList(_ member: ShapeEntry, depth: Int) throws(IngestError) -> Value {
        let kind = try peek()
        if kind == .null {
            try readNull(member, level: member.listDepth - depth)
            return .null
        }
        guard kind == .array else { throw wrongType("a list", kind) }
        let itemLevel = member.listDepth - depth + 1
        let itemsNullable = !member.isNonNull(atLevel: itemLevel)
        var items: [Value] = []
        var position = 0
        if try openArray() {
            repeat {
                let itemMark = scanner.mark
                do throws(IngestError) {
                    if depth > 1 {
                        items.append(try leafList(member, depth: depth - 1))
                    } else {
                        if let value = try scalarValue(member.kind, nonNull: !itemsNullable) {
                            items.append(value)
                        } else {
                            // Throws, but in the checking pass, which reads the null and goes on.
                            items.append(try nullIn(member, level: itemLevel))
                        }
                    }
                } catch {
                    guard itemsNullable, try recover(error, at: itemMark) else { throw error.inside(.index(position)) }
                    items.append(.null)
                }
                position += 1
            } while try nextElement()
        }
        return .list(items)
    }

    /// One scalar of type `type`, checked: Int takes whole numbers in 32 bits (`1.0` is one), Float
    /// numbers, String and enums strings (an enum value the schema does not list yet is kept: a
    /// schema grows), ID strings or integers (kept as strings, digits as written), Boolean
    /// booleans, custom scalars anything. `nil` for a null the position does not allow
    /// (`nonNull`); the caller says where.
    mutating func scalarValue(_ type: FieldType.Kind, nonNull: Bool = false) throws(IngestError) -> Value? {
        let kind = try peek()
        switch kind {
        case .null:
            if nonNull { return nil }
            try readNull()
            return .null
        case .string:
            switch type {
            case .string, .enumeration, .id, .customScalar: return .string(try readString())
            default: throw wrongType(Normalizer.describe(type), kind)
            }
        case .number:
            let offset = scanner.position
            switch type {
            case .int:
                let (value, text) = try readInteger()
                guard let value, Int32(exactly: value) != nil else {
                    throw IngestError(.wrongType(expected: Normalizer.describe(type), found: numberText(text)), offset: offset)
                }
                return .int(value)
            case .id:
                let (isInteger, text) = try scanNumber()
                guard isInteger else {
                    throw IngestError(.wrongType(expected: Normalizer.describe(type), found: numberText(text)), offset: offset)
                }
                // Past 64 bits an id keeps its digits, all of them (they were once cut to 40 and an
                // ellipsis, the cut of an error message, so two long ids alike in 40 digits were one).
                if let value = scanner.integerValue(text) { return .string(String(value)) }
                if mutant.isOn(.longIntegerIDsCut) { return .string(numberText(text)) }
                return .string(String(decoding: UnsafeRawBufferPointer(rebasing: scanner.bytes[text]), as: UTF8.self))
            case .float:
                let start = scanner.position
                switch try readNumber() {
                case .int(let value):
                    // `-0` is negative zero, as every reader that takes JSON numbers as doubles
                    // reads it (JavaScript's among them): the integer reading loses its sign.
                    if value == 0, !mutant.isOn(.negativeZeroReadAsZero),
                       scanner.bytes[start..<scanner.position].contains(UInt8(ascii: "-")) {
                        return .double(-0.0)
                    }
                    return .double(Double(value))
                case .double(let value): return .double(value)
                case .decimal(let text): return .double(Double(text) ?? .nan)
                }
            case .customScalar:
                // A custom scalar's number keeps its value: the canonical text of one no double
                // holds exactly (`123456789012345678901234567890`), never the nearest double.
                let start = scanner.position
                switch try readExactNumber() {
                case .int(let value):
                    if mutant.isOn(.wholeExactNumbersAsText), value.magnitude > 1 << 53,
                       scanner.bytes[start..<scanner.position].contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
                        return .decimal(String(value))
                    }
                    return .int(value)
                case .double(let value): return .double(value)
                case .decimal(let text): return mutant.isOn(.exactNumbersRounded) ? .double(Double(text) ?? .nan) : .decimal(text)
                }
            default:
                throw wrongType(Normalizer.describe(type), kind)
            }
        case .bool:
            guard type == .boolean || type == .customScalar else { throw wrongType(Normalizer.describe(type), kind) }
            return .bool(try readBool())
        case .object, .array:
            guard type == .customScalar else { throw wrongType(Normalizer.describe(type), kind) }
            return try customValue()
        }
    }

    /// The text of the number at `range`, cut to 40 bytes, for a message.
    func numberText(_ range: Range<Int>) -> String {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: scanner.bytes[range]), as: UTF8.self)
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// Any JSON as a custom scalar's value: objects as canonical JSON text, arrays as `.list`.
    mutating func customValue() throws(IngestError) -> Value {
        switch try peek() {
        case .object:
            return .object(try canonicalText())
        case .array:
            var items: [Value] = []
            if try openArray() {
                repeat {
                    items.append(try customValue())
                } while try nextElement()
            }
            return .list(items)
        default:
            return try scalarValue(.customScalar) ?? .null
        }
    }

    /// True when the bytes at `range` hold a `:` (an id whose key escapes it).
    @inline(__always)
    static func holdsColon(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard let base = bytes.baseAddress, !range.isEmpty else { return false }
        return memchr(base + range.lowerBound, Int32(UInt8(ascii: ":")), range.count) != nil
    }

    /// True when the bytes at `range` are `root` (with the type `client`, the query root's key).
    static func isRoot(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        range.count == 4 && bytes[range.lowerBound] == UInt8(ascii: "r") && bytes[range.lowerBound + 1] == UInt8(ascii: "o")
            && bytes[range.lowerBound + 2] == UInt8(ascii: "o") && bytes[range.lowerBound + 3] == UInt8(ascii: "t")
    }

    /// `Type:id` as ``RecordKey/entity(typename:id:)`` makes it; under the `entityIDsNotEscaped`
    /// mutant the id's `:` and `\` are kept as they are.
    func entityKey(typename: String, id: String) -> RecordKey {
        mutant.isOn(.entityIDsNotEscaped) ? RecordKey(typename + ":" + id) : .entity(typename: typename, id: id)
    }

    // MARK: Deletions

    /// Appends the records a `@deleteRecord` field's value names (an id or lists of them).
    mutating func appendDeletions(_ value: Value, _ directive: DeleteRecordDirective) {
        switch value {
        case .string(let id):
            deletions.append(directive.typename.map { entityKey(typename: $0, id: id) } ?? RecordKey(id))
        case .int(let id):
            appendDeletions(.string(String(id)), directive)
        case .list(let items):
            for item in mutant.isOn(.deleteRecordFirstOnly) ? Array(items.prefix(1)) : items { appendDeletions(item, directive) }
        default:
            break
        }
    }

    // MARK: Errors

    func wrongType(_ expected: String, _ found: JSONKind) -> IngestError {
        IngestError(.wrongType(expected: expected, found: Normalizer.describe(found)), offset: scanner.position)
    }

    static func describe(_ kind: JSONKind) -> String {
        switch kind {
        case .object: "an object"
        case .array: "a list"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    static func describe(_ type: FieldType.Kind) -> String {
        switch type {
        case .int: "an Int (a whole number in 32 bits)"
        case .float: "a Float (a number)"
        case .string: "a String"
        case .boolean: "a Boolean"
        case .id: "an ID (a string or an integer)"
        case .customScalar: "a custom scalar"
        case .enumeration: "an enum value (a string)"
        case .object, .abstract: "an object"
        }
    }
}

extension IngestError {
    /// The error with `component` put in front of its path (as an error leaves a member or element).
    func inside(_ component: ResponsePathComponent) -> IngestError {
        var copy = self
        copy.path.insert(component, at: 0)
        return copy
    }

    /// A JSON error as an ingest error.
    static func json(_ error: JSONError) -> IngestError {
        IngestError(.malformedJSON(error), offset: error.offset)
    }
}

// MARK: Scanner calls, with their errors as ingest errors

extension Normalizer {
    @inline(__always) mutating func peek() throws(IngestError) -> JSONKind {
        do { return try scanner.peekKind() } catch { throw .json(error) }
    }
    @inline(__always) mutating func readNull() throws(IngestError) {
        do { try scanner.readNull() } catch { throw .json(error) }
    }
    @inline(__always) mutating func readBool() throws(IngestError) -> Bool {
        do { return try scanner.readBool() } catch { throw .json(error) }
    }
    @inline(__always) mutating func readNumber() throws(IngestError) -> JSONNumber {
        do { return try scanner.readNumber() } catch { throw .json(error) }
    }
    @inline(__always) mutating func readExactNumber() throws(IngestError) -> JSONNumber {
        do { return try scanner.readExactNumber() } catch { throw .json(error) }
    }
    @inline(__always) mutating func readInteger() throws(IngestError) -> (value: Int?, text: Range<Int>) {
        do { return try scanner.readInteger() } catch { throw .json(error) }
    }
    /// Moves past a number: whether it is written as an integer, and where its text is.
    @inline(__always) mutating func scanNumber() throws(IngestError) -> (isInteger: Bool, text: Range<Int>) {
        scanner.skipWhitespace()
        let start = scanner.position
        do {
            let isInteger = try scanner.scanNumber()
            return (isInteger, start..<scanner.position)
        } catch {
            throw .json(error)
        }
    }
    @inline(__always) mutating func readString() throws(IngestError) -> String {
        do { return try scanner.readString() } catch { throw .json(error) }
    }
    @inline(__always) func string(_ span: JSONStringSpan) throws(IngestError) -> String {
        do { return try scanner.string(span) } catch { throw .json(error) }
    }
    @inline(__always) mutating func readValue() throws(IngestError) -> JSONValue {
        do { return try scanner.readValue() } catch { throw .json(error) }
    }
    @inline(__always) mutating func canonicalText() throws(IngestError) -> String {
        if mutant.isOn(.equivalentNamesCollide) { return try canonicalTextFoldingNames() }
        do { return try scanner.readCanonicalText() } catch { throw .json(error) }
    }
    /// The mutant `equivalentNamesCollide`: the value read as the store read it until
    /// 2026-12-05, names compared as Swift strings, so two that differ only in their Unicode
    /// normalization are one name given twice and the response is refused.
    private mutating func canonicalTextFoldingNames() throws(IngestError) -> String {
        let start = scanner.position
        let value = try readValue()
        if let name = Self.nameGivenTwiceAsSwiftStrings(in: value) { throw .json(scanner.error(.duplicateKey(name), at: start)) }
        return CanonicalJSON.render(value)
    }

    private static func nameGivenTwiceAsSwiftStrings(in value: JSONValue) -> String? {
        switch value {
        case .array(let items):
            return items.lazy.compactMap(nameGivenTwiceAsSwiftStrings).first
        case .object(let members):
            var seen = Set<String>()
            for member in members {
                if !seen.insert(member.key).inserted { return member.key }
                if let name = nameGivenTwiceAsSwiftStrings(in: member.value) { return name }
            }
            return nil
        default:
            return nil
        }
    }

    @inline(__always) mutating func openObject() throws(IngestError) -> Bool {
        do { return try scanner.openObject() } catch { throw .json(error) }
    }
    @inline(__always) mutating func readKey() throws(IngestError) -> JSONStringSpan {
        do { return try scanner.readKey() } catch { throw .json(error) }
    }
    @inline(__always) mutating func nextMember() throws(IngestError) -> Bool {
        do { return try scanner.nextMember() } catch { throw .json(error) }
    }
    @inline(__always) mutating func openArray() throws(IngestError) -> Bool {
        do { return try scanner.openArray() } catch { throw .json(error) }
    }
    @inline(__always) mutating func nextElement() throws(IngestError) -> Bool {
        do { return try scanner.nextElement() } catch { throw .json(error) }
    }
    @inline(__always) mutating func skipValue() throws(IngestError) {
        do { try scanner.skipValue() } catch { throw .json(error) }
    }
    @inline(__always) mutating func skipValueToRevisit() throws(IngestError) {
        do { try scanner.skipValueToRevisit() } catch { throw .json(error) }
    }
    @inline(__always) mutating func finish() throws(IngestError) {
        do { try scanner.finish() } catch { throw .json(error) }
    }
}
