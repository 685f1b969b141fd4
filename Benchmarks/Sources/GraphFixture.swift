import Baton

/// A generated store of any size for the scaling tables: the query root lists items, each item
/// links to its own owner, and one operation selects all of it, so a check or a collection pass
/// from that one root reaches every record.
///
/// `records` counts what the root reaches: half items, half owners (the root itself not counted).
@MainActor
struct GraphFixture {
    static let schema = """
    type Query { items: [Item] }
    type Item { id: ID, name: String, rank: Int, owner: Owner }
    type Owner { id: ID, name: String, since: String }
    """
    static let document = "query Graph { items { id name rank owner { id name since } } }"

    let plan: Plan
    let variables: Variables
    let changeSet: ChangeSet

    var recordCount: Int { changeSet.records.count - 1 }

    init(records: Int) throws {
        plan = try Plan.build(document: Self.document, schema: try Schema.parse(Self.schema))
        variables = try! plan.variables()
        let items = max(1, records / 2)
        let id = SlotID.named("id"), name = SlotID.named("name"), rank = SlotID.named("rank")
        let owner = SlotID.named("owner"), since = SlotID.named("since"), list = SlotID.named("items")
        var changes: [RecordChange] = []
        changes.reserveCapacity(items * 2 + 1)
        var itemKeys: [RecordKey?] = []
        itemKeys.reserveCapacity(items)
        for index in 0..<items {
            let itemKey = RecordKey.entity(typename: "Item", id: String(index))
            let ownerKey = RecordKey.entity(typename: "Owner", id: String(index))
            itemKeys.append(itemKey)
            changes.append(RecordChange(key: itemKey, typename: "Item", cells: [
                id: Cell(.string(String(index))), name: Cell(.string("Item \(index)")),
                rank: Cell(.int(index % 97)), owner: Cell(.link(ownerKey)),
            ]))
            changes.append(RecordChange(key: ownerKey, typename: "Owner", cells: [
                id: Cell(.string(String(index))), name: Cell(.string("Owner \(index)")),
                since: Cell(.string("2017-11-04T18:48:46.\(index % 1000)Z")),
            ]))
        }
        changes.insert(RecordChange(key: .queryRoot, typename: "Query", cells: [list: Cell(.links(itemKeys))]), at: 0)
        changeSet = ChangeSet(operation: plan.identity(variables), records: changes)
    }

    /// The same graph as integer ids: what a mark over dense ids and flat edges costs.
    func integerGraph() -> IntegerGraph {
        var ids: [RecordKey: Int] = [:]
        for (index, change) in changeSet.records.enumerated() { ids[change.key] = index }
        var starts: [Int] = [0]
        var edges: [Int] = []
        for change in changeSet.records {
            for slot in change.cells.keys.sorted(by: { $0.index < $1.index }) {
                change.cells[slot]?.value.forEachLink { if let target = ids[$0] { edges.append(target) } }
            }
            starts.append(edges.count)
        }
        return IntegerGraph(starts: starts, edges: edges)
    }
}

/// A graph as compressed rows of integer edges, and a mark from node 0.
struct IntegerGraph {
    let starts: [Int]
    let edges: [Int]

    /// Marks every node reachable from node 0; returns how many.
    func mark() -> Int {
        let count = starts.count - 1
        var marked = [UInt64](repeating: 0, count: (count + 63) / 64)
        var stack: [Int] = [0]
        marked[0] = 1
        var reached = 1
        while let node = stack.popLast() {
            for edge in starts[node]..<starts[node + 1] {
                let target = edges[edge]
                let bit: UInt64 = 1 << UInt64(target & 63)
                if marked[target >> 6] & bit == 0 {
                    marked[target >> 6] |= bit
                    reached += 1
                    stack.append(target)
                }
            }
        }
        return reached
    }
}
