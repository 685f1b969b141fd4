/// The image's names (type names and storage keys) and their ids, as loaded into memory.
///
/// Ids are assigned by the image (the `names` table's `INTEGER PRIMARY KEY`) and are the only
/// numbers rows hold; a process's slot numbers never reach the disk. The table holds the names a
/// read may resolve: those whose `used` is not older than the previous launch. A value type: a
/// drain works on a copy and the image keeps it only when the drain commits.
package struct NameTable: RowNames, Sendable {
    private var idsByName: [String: Int] = [:]
    private var namesByID: [Int: String] = [:]
    /// Ids whose `used` is this launch's generation in the committed image.
    private(set) var stamped: Set<Int> = []

    package init() {}

    package func name(ofID id: Int) -> String? {
        namesByID[id]
    }

    /// The id of `name`, when the image holds it.
    package func id(of name: String) -> Int? {
        idsByName[name]
    }

    /// How many names the table holds.
    package var count: Int { namesByID.count }

    /// True when `id` needs no stamp in this launch.
    func isStamped(_ id: Int) -> Bool {
        stamped.contains(id)
    }

    /// Adds a name read from or written to the image.
    mutating func insert(id: Int, name: String, stamped isStamped: Bool) {
        if let old = namesByID[id], old != name { idsByName[old] = nil }
        idsByName[name] = id
        namesByID[id] = name
        if isStamped { stamped.insert(id) }
    }

    /// Notes ids stamped with this launch's generation.
    mutating func noteStamped(_ ids: some Sequence<Int>) {
        stamped.formUnion(ids)
    }

    /// Loads the names whose `used` is at least `visibleFrom` (`nil`: all of them).
    static func load(from connection: Connection, visibleFrom: Int?, generation: Int) throws(SQLiteError) -> NameTable {
        var table = NameTable()
        let statement = try connection.prepare(ImageSchema.SQL.selectNames)
        defer { statement.reset() }
        while try statement.step() {
            let used = statement.int(2)
            if let visibleFrom, used < visibleFrom { continue }
            table.insert(id: statement.int(0), name: statement.text(1), stamped: used == generation)
        }
        return table
    }
}
