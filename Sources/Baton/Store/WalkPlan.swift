/// An operation's selections as one walk (a check or a collection's mark) uses them.
///
/// Each selection set becomes a node, a small integer. For each node and record type the walk
/// meets, the fields that apply are resolved once into steps: the slot the store reads under the
/// walk's variables and the node of the field's sub-selections. The walk then reads slots and
/// follows ids without hashing a key, a type name or a selection set per record, and keeps per
/// node the records it has reached through it (``reached``), so a record met again through the
/// same set is not walked twice.
struct WalkPlan {
    let variables: Variables
    /// The ids memory had handed out when the walk began (sizes each node's marks).
    private let capacity: Int
    private var nodes: [ObjectIdentifier: Int] = [:]
    private var sets: [SelectionSet] = []
    /// Per node, per type id: where the node's steps for that type lie in ``steps``, as
    /// `(first + 1) << 32 | count << 16 | linked`, 0 while not resolved: `count` steps in
    /// document order, then again the `linked` ones among them that have sub-selections.
    private var resolved: [[UInt64]] = []
    /// Per node, the records this walk has reached through it.
    var reached: [IDSet] = []
    /// Every resolved step, each node and type's steps side by side.
    private(set) var steps: [WalkStep] = []

    init(variables: Variables, capacity: Int) {
        self.variables = variables
        self.capacity = capacity
    }

    /// The node of `set`: one per selection set and walk, so fields sharing a set share marks.
    mutating func node(for set: SelectionSet) -> Int {
        let identity = ObjectIdentifier(set)
        if let node = nodes[identity] { return node }
        let node = sets.count
        nodes[identity] = node
        sets.append(set)
        resolved.append([])
        reached.append(IDSet(capacity: capacity))
        return node
    }

    /// The steps of `node` for records of type id `type`, in document order, `nil` until
    /// ``resolve(_:type:typename:)``.
    @inline(__always)
    func steps(_ node: Int, type: Int) -> Range<Int>? {
        guard let entry = entry(node, type) else { return nil }
        let first = Int(entry >> 32) - 1
        return first..<(first + Int(entry >> 16 & 0xFFFF))
    }

    /// The steps of `node` for type id `type` that have sub-selections, `nil` until resolved.
    @inline(__always)
    func linkedSteps(_ node: Int, type: Int) -> Range<Int>? {
        guard let entry = entry(node, type) else { return nil }
        let first = Int(entry >> 32) - 1 + Int(entry >> 16 & 0xFFFF)
        return first..<(first + Int(entry & 0xFFFF))
    }

    @inline(__always)
    private func entry(_ node: Int, _ type: Int) -> UInt64? {
        guard type < resolved[node].count else { return nil }
        let entry = resolved[node][type]
        return entry == 0 ? nil : entry
    }

    /// Resolves the fields of `node`'s set that apply to `typename` (type id `type`) into steps
    /// (`__typename` left out: it reads no slot); returns them in document order.
    @discardableResult
    mutating func resolve(_ node: Int, type: Int, typename: String) -> Range<Int> {
        let first = steps.count
        for field in sets[node].fields(for: typename, variables: variables) where !field.isTypename {
            var child: Int32 = -1
            if let selections = field.selections { child = Int32(self.node(for: selections)) }
            steps.append(WalkStep(slot: field.readSlot(variables), child: child))
        }
        let count = steps.count - first
        for index in first..<(first + count) where steps[index].child >= 0 { steps.append(steps[index]) }
        let linked = steps.count - first - count
        if type >= resolved[node].count {
            resolved[node].append(contentsOf: repeatElement(0, count: type + 1 - resolved[node].count))
        }
        resolved[node][type] = UInt64(first + 1) << 32 | UInt64(count) << 16 | UInt64(linked)
        return first..<(first + count)
    }
}

/// One field of a resolved node: the slot the store reads, and the node of its sub-selections
/// (-1 for a leaf).
struct WalkStep {
    let slot: SlotID
    let child: Int32
}
