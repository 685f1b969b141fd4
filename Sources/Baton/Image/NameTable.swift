/// The image's names (type names and storage keys) and their ids, as loaded into memory.
///
/// Ids are assigned by the image (the `names` table's `INTEGER PRIMARY KEY`) and are the only
/// numbers rows hold; a process's slot numbers never reach the disk. The table holds the names a
/// read may resolve: those whose `used` is not older than the previous launch. A value type: a
/// drain works on a copy and the image keeps it only when the drain commits.
///
/// Ids are dense (SQLite assigns the largest id plus one), so names by id live in an array; an
/// id far beyond the table's size (only a damaged or hand-edited file has one) goes to a dictionary.
///
/// Beside each name the table keeps the process's slot for it (``SlotTable``), both ways: the
/// check's reader turns a cell's name id into a slot with an array read, and the writer turns a
/// slot into a name id the same way, so neither hashes a storage key's text per cell.
package struct NameTable: RowNames, Sendable {
    private var idsByName: [ExactText: Int] = [:]
    /// Slot `id` holds the name with that id, or `nil`.
    private var dense: [String?] = []
    /// Slot `id` holds the slot index of the name with that id (``noSlot`` for none).
    private var denseSlots: [UInt32] = []
    private var sparseSlots: [Int: SlotID] = [:]
    /// The name id of each slot index the table has met (-1 for none).
    private var idsBySlot: [Int32] = []
    /// Whether the name in slot `id` is stamped with this launch's generation.
    private var denseStamped: [Bool] = []
    private var sparse: [Int: String] = [:]
    private var sparseStamped: Set<Int> = []
    /// How many rows ``load(from:visibleFrom:generation:)`` left out because their checksum failed.
    private(set) var damaged = 0

    package init() {}

    @inline(__always)
    package func name(ofID id: Int) -> String? {
        if id >= 0 && id < dense.count { return dense[id] }
        return sparse.isEmpty ? nil : sparse[id]
    }

    /// The id of `name`, when the image holds it.
    package func id(of name: String) -> Int? {
        idsByName[ExactText(name)]
    }

    private static let noSlot = UInt32.max

    /// The slot of the name with id `id`, when the table holds that id.
    @inline(__always)
    package func slot(ofID id: Int) -> SlotID? {
        if id >= 0 && id < denseSlots.count {
            let index = denseSlots[id]
            return index == Self.noSlot ? nil : SlotID(index: index)
        }
        return sparseSlots.isEmpty ? nil : sparseSlots[id]
    }

    /// The id of the name of `slot`, when the image holds that name: ``id(of:)`` without hashing.
    @inline(__always)
    package func id(ofSlot slot: SlotID) -> Int? {
        let index = Int(slot.index)
        guard index < idsBySlot.count else { return nil }
        let id = idsBySlot[index]
        return id < 0 ? nil : Int(id)
    }

    /// How many names the table holds.
    package var count: Int { idsByName.count }

    /// True when `id` needs no stamp in this launch.
    @inline(__always)
    func isStamped(_ id: Int) -> Bool {
        if id >= 0 && id < denseStamped.count { return denseStamped[id] }
        return sparseStamped.contains(id)
    }

    /// Adds a name read from or written to the image.
    mutating func insert(id: Int, name: String, stamped isStamped: Bool) {
        if let old = self.name(ofID: id), !ExactText.bytesEqual(old, name) {
            idsByName[ExactText(old)] = nil
            // The old name's slot no longer leads here.
            if let oldSlot = slot(ofID: id), self.id(ofSlot: oldSlot) == id { idsBySlot[Int(oldSlot.index)] = -1 }
        }
        idsByName[ExactText(name)] = id
        let slot = SlotTable.shared.slot(name)
        if Int(slot.index) >= idsBySlot.count {
            idsBySlot.append(contentsOf: repeatElement(-1, count: Int(slot.index) + 1 - idsBySlot.count))
        }
        // The latest id of a name wins, as in `idsByName`; an id past 32 bits (a damaged file's)
        // is found by the name's text instead.
        idsBySlot[Int(slot.index)] = id >= 0 && id <= Int(Int32.max) ? Int32(id) : -1
        if id >= 0 && id < 4 * idsByName.count + 1024 {
            if id >= dense.count {
                dense.append(contentsOf: repeatElement(nil, count: id + 1 - dense.count))
                denseSlots.append(contentsOf: repeatElement(Self.noSlot, count: id + 1 - denseSlots.count))
                denseStamped.append(contentsOf: repeatElement(false, count: id + 1 - denseStamped.count))
            }
            dense[id] = name
            denseSlots[id] = slot.index
            if isStamped { denseStamped[id] = true }
        } else {
            sparse[id] = name
            sparseSlots[id] = slot
            if isStamped { sparseStamped.insert(id) }
        }
    }

    /// Notes ids stamped with this launch's generation.
    mutating func noteStamped(_ ids: some Sequence<Int>) {
        for id in ids {
            if id >= 0 && id < denseStamped.count {
                denseStamped[id] = true
            } else {
                sparseStamped.insert(id)
            }
        }
    }

    /// Loads the names whose `used` is at least `visibleFrom` (`nil`: all of them) and whose
    /// checksum verifies: a damaged name is never loaded, so every row that uses it is a miss.
    static func load(from connection: Connection, visibleFrom: Int?, generation: Int) throws(SQLiteError) -> NameTable {
        var table = NameTable()
        let statement = try connection.prepare(ImageSchema.SQL.selectNames)
        defer { statement.reset() }
        while try statement.step() {
            let used = ImageSchema.launch(ofStamp: statement.int(2))
            if let visibleFrom, used < visibleFrom { continue }
            guard let (id, name) = verifiedName(statement) else {
                table.damaged += 1
                continue
            }
            table.insert(id: id, name: name, stamped: used == generation)
        }
        return table
    }

    /// The id and text of the `names` row `statement` stands on (columns id, name, used, crc),
    /// when its checksum verifies over the text's bytes as stored.
    static func verifiedName(_ statement: Statement) -> (id: Int, name: String)? {
        let id = statement.int(0)
        let stored = statement.int(3)
        return statement.withText(1) { bytes -> (Int, String)? in
            guard stored == TableChecksum.stored(TableChecksum.name(id: id, utf8: bytes)),
                  let name = ByteReader.validUTF8(bytes)
            else { return nil }
            return (id, name)
        }
    }
}
