import Baton

/// One entity of the server: its type's number (in the world's sorted entity types) and its serial
/// within that type.
struct EntityRef: Hashable, Sendable {
    let type: Int
    let serial: Int
}

/// An item of a server list: an entity, or an object without id reached by path.
enum NodeRef: Hashable, Sendable {
    case entity(EntityRef)
    case path(type: String, identity: UInt64)
}

/// The entities of one type: their ids and whether they are still alive.
struct EntityTable: Sendable {
    let name: String
    let idKind: WorldTypes.IDKind
    /// The ids an enum id allows, in order (`nil`: ids are made up).
    let fixedIDs: [String]?
    /// Whether ids are integers (`id: Int!`): made up as plain decimals, never decorated.
    let integerIDs: Bool
    /// Per serial, the id (`nil`: this instance has a null id).
    private(set) var ids: [String?] = []
    /// Per serial, false once the entity is deleted.
    private(set) var alive: [Bool] = []
    /// How many are alive.
    private(set) var livingCount = 0
    /// Serials by id, bytes compared.
    private var index: [ExactString: Int] = [:]

    init(name: String, idKind: WorldTypes.IDKind, fixedIDs: [String]? = nil, integerIDs: Bool = false) {
        self.name = name
        self.idKind = idKind
        self.fixedIDs = fixedIDs
        self.integerIDs = integerIDs
    }

    var count: Int { ids.count }

    /// Whether every id an enum id allows is taken, so no entity of this type can be added.
    var isFull: Bool { fixedIDs.map { count >= $0.count } ?? false }

    /// Adds an entity with `id`; returns its serial.
    @discardableResult
    mutating func append(id: String?) -> Int {
        let serial = ids.count
        ids.append(id)
        alive.append(true)
        livingCount += 1
        if let id { index[ExactString(id)] = serial }
        return serial
    }

    /// Deletes the entity `serial` (nothing when it is deleted already).
    mutating func delete(_ serial: Int) {
        guard alive[serial] else { return }
        alive[serial] = false
        livingCount -= 1
    }

    /// Brings a deleted entity `serial` back (an undo, a restore from the trash): same id, its
    /// values where they were.
    mutating func restore(_ serial: Int) {
        guard !alive[serial] else { return }
        alive[serial] = true
        livingCount += 1
    }

    /// The serial of the `index`-th deleted entity.
    func deletedSerial(_ index: Int) -> Int {
        var remaining = index
        for serial in 0..<alive.count where !alive[serial] {
            if remaining == 0 { return serial }
            remaining -= 1
        }
        preconditionFailure("index \(index) of \(alive.count - livingCount) deleted entities")
    }

    /// The serial of the `index`-th living entity.
    func livingSerial(_ index: Int) -> Int {
        var remaining = index
        for serial in 0..<alive.count where alive[serial] {
            if remaining == 0 { return serial }
            remaining -= 1
        }
        preconditionFailure("index \(index) of \(livingCount) living entities")
    }

    /// A name for the entity `serial` in trace lines: `Character #2 (id "3")`.
    func label(_ serial: Int) -> String {
        "\(name) #\(serial) (id \(ids[serial].map(Legible.quoted) ?? "null"))"
    }

    /// The serial of the entity whose id is `id` byte for byte, alive or not.
    func serial(of id: String) -> Int? {
        index[ExactString(id)]
    }

}

/// A list the server keeps once it has answered it: a connection's nodes, or a field's list of
/// entities. Growth and membership edits change it; deleted entities drop out when it is read.
struct ServerList: Sendable {
    /// What it is, for trace lines (`Character 3 (id "3").notes`).
    let label: String
    let isConnection: Bool
    /// The named type of its items (it may be abstract).
    let itemType: String
    /// The items in order; `nil` is a null item.
    var items: [NodeRef?]
    /// Objects without id this list has made (numbers new ones).
    var madeObjects = 0
}

/// The cursors of the last page the server answered for one connection.
struct PageCursors: Sendable, Hashable {
    let start: String?
    let end: String?
}

/// An object without id the server has answered, kept so that drift can renew its fields.
struct PathObjectRecord: Sendable {
    let type: String
    let label: String
}

/// Everything the server's answers depend on besides the seed: entities, versions, values set by
/// mutations, the lists it keeps, and what it answered last.
///
/// Values themselves are not stored: a field's value is a hash of (object, field, arguments,
/// version), so only what changed takes memory.
struct ServerState: Sendable {
    /// One table per entity type, in the world's sorted order.
    var tables: [EntityTable] = []
    /// Per (object, field) slot, its version when not 0.
    var versions: [UInt64: Int] = [:]
    /// Per (object, field) slot, the value a mutation set, until the field's next renewal.
    var setValues: [UInt64: JSONValue] = [:]
    /// Lists by (object, field, arguments) key.
    var lists: [UInt64: ServerList] = [:]
    /// List keys in the order the lists were made (drift picks by position in it).
    var listOrder: [UInt64] = []
    /// Per connection list, the cursors of the last page answered that had nodes.
    var lastPages: [UInt64: PageCursors] = [:]
    /// Objects without id the server has answered, by identity, and their order.
    var pathObjects: [UInt64: PathObjectRecord] = [:]
    var pathOrder: [UInt64] = []
    /// Operations answered so far.
    var executions = 0

    /// The most objects without id kept for drift.
    static let pathObjectLimit = 256
}
