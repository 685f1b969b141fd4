/// The image's names (type names and storage keys) and their ids, as loaded into memory.
///
/// Ids are assigned by the image (the `names` table's `INTEGER PRIMARY KEY`) and are the only
/// numbers rows hold; a process's slot numbers never reach the disk. The table holds the names a
/// read may resolve: those whose `used` is not older than the previous launch. A value type: a
/// drain works on a copy and the image keeps it only when the drain commits.
///
/// Ids are dense (SQLite assigns the largest id plus one), so names by id live in an array; an
/// id far beyond the table's size (only a damaged or hand-edited file has one) goes to a dictionary.
package struct NameTable: RowNames, Sendable {
    private var idsByName: [ExactText: Int] = [:]
    /// Slot `id` holds the name with that id, or `nil`.
    private var dense: [String?] = []
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
        if let old = self.name(ofID: id), !ExactText.bytesEqual(old, name) { idsByName[ExactText(old)] = nil }
        idsByName[ExactText(name)] = id
        if id >= 0 && id < 4 * idsByName.count + 1024 {
            if id >= dense.count {
                dense.append(contentsOf: repeatElement(nil, count: id + 1 - dense.count))
                denseStamped.append(contentsOf: repeatElement(false, count: id + 1 - denseStamped.count))
            }
            dense[id] = name
            if isStamped { denseStamped[id] = true }
        } else {
            sparse[id] = name
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
            let used = statement.int(2)
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
