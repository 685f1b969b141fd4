import Foundation
import Testing

@testable import Baton

/// The check's and the writer's ways through rows by slot (issue 10, phase C): the name table's
/// slot maps, the slot decoder, and the writer's encoding of a store's snapshots, each held to
/// the named way it stands in for.
@Suite("Image rows by slot")
struct ImageSlotRowTests {
    /// A name table holding exactly the names of `names`.
    private func nameTable(_ names: TestNames) -> NameTable {
        var table = NameTable()
        for (id, name) in names.byID.sorted(by: { $0.key < $1.key }) { table.insert(id: id, name: name, stamped: false) }
        return table
    }

    /// The named decoder's answer with its storage keys turned into slots.
    private func namedAsSlots(_ bytes: [UInt8], key: RecordKey, names: NameTable) -> SlotRow? {
        var sink = RowDecodeSink()
        guard let row = bytes.withUnsafeBytes({ RowDecoder.decodeRow($0, key: key.rawValue, names: names, sink: &sink) })
        else { return nil }
        var cells = CellTable()
        if !row.deleted {
            for named in row.cells { cells[SlotID.named(named.storageKey)] = named.cell }
        }
        return SlotRow(deleted: row.deleted, typename: row.typename, cells: cells)
    }

    private func slots(_ bytes: [UInt8], key: RecordKey, names: NameTable) -> (row: SlotRow?, nameIDs: [Int]) {
        var sink = RowDecodeSink()
        let row = bytes.withUnsafeBytes { RowDecoder.decodeSlots($0, key: key.rawValue, names: names, sink: &sink) }
        return (row, sink.nameIDs)
    }

    @Test("The slot decoder reads every row as the named decoder does, and misses where it misses", arguments: [11, 12] as [UInt64])
    func slotDecoderAgrees(seed: UInt64) {
        var fuzz = CodecFuzz(seed: seed)
        var names = TestNames()
        var rows: [(Snapshot, [UInt8])] = []
        for _ in 0..<200 {
            let snapshot = fuzz.snapshot()
            rows.append((snapshot, encodeRow(snapshot, names: &names)))
        }
        let table = nameTable(names)
        for (index, (snapshot, bytes)) in rows.enumerated() {
            let expected = namedAsSlots(bytes, key: snapshot.key, names: table)
            let (row, nameIDs) = slots(bytes, key: snapshot.key, names: table)
            #expect(expected != nil, "seed \(seed) row \(index)")
            #expect(row?.deleted == expected?.deleted && row?.typename == expected?.typename && row?.cells == expected?.cells,
                    "seed \(seed) row \(index)")
            // The row's names are noted for stamping as the named decoder notes them.
            var namedSink = RowDecodeSink()
            _ = bytes.withUnsafeBytes { RowDecoder.decodeRow($0, key: snapshot.key.rawValue, names: table, sink: &namedSink) }
            #expect(nameIDs == namedSink.nameIDs, "seed \(seed) row \(index)")
            // Damage: every tenth bit flipped, and a truncation, miss in both.
            for bit in stride(from: index % 10, to: bytes.count * 8, by: 10) {
                var damaged = bytes
                damaged[bit / 8] ^= UInt8(1 << (bit % 8))
                #expect(slots(damaged, key: snapshot.key, names: table).row == nil, "seed \(seed) row \(index) bit \(bit)")
            }
            #expect(slots(Array(bytes.dropLast()), key: snapshot.key, names: table).row == nil)
        }
    }

    @Test("A row naming an id the table lacks is a miss for the slot decoder")
    func unknownNameIsAMiss() {
        var names = TestNames()
        let bytes = encodeRow(snapshot("A:1", "A", ["x": .int(1), "y": .string("b")]), names: &names)
        var partial = names
        partial.byID[names.byName["y"]!] = nil
        #expect(slots(bytes, key: RecordKey("A:1"), names: nameTable(partial)).row == nil)
        #expect(slots(bytes, key: RecordKey("A:1"), names: nameTable(names)).row != nil)
    }

    @Test("The names table keeps each name's slot both ways through renames, moves and far ids")
    func slotMaps() {
        var table = NameTable()
        table.insert(id: 1, name: "slotMaps.a", stamped: false)
        table.insert(id: 2, name: "slotMaps.b", stamped: false)
        let a = SlotID.named("slotMaps.a"), b = SlotID.named("slotMaps.b"), c = SlotID.named("slotMaps.c")
        #expect(table.slot(ofID: 1) == a && table.slot(ofID: 2) == b && table.slot(ofID: 3) == nil)
        #expect(table.id(ofSlot: a) == 1 && table.id(ofSlot: b) == 2 && table.id(ofSlot: c) == nil)
        // Id 1 now spells another name: the old name's slot leads nowhere.
        table.insert(id: 1, name: "slotMaps.c", stamped: false)
        #expect(table.slot(ofID: 1) == c && table.id(ofSlot: c) == 1 && table.id(ofSlot: a) == nil)
        // A name met again under a new id: its slot leads to the new id, as its text does.
        table.insert(id: 5, name: "slotMaps.b", stamped: false)
        #expect(table.id(ofSlot: b) == 5 && table.id(of: "slotMaps.b") == 5 && table.slot(ofID: 5) == b)
        // A far id (a damaged file's) resolves by id; past 32 bits its slot leads there by text only.
        table.insert(id: 1_000_000_000, name: "slotMaps.far", stamped: false)
        let far = SlotID.named("slotMaps.far")
        #expect(table.slot(ofID: 1_000_000_000) == far && table.id(ofSlot: far) == 1_000_000_000)
        table.insert(id: 1 << 40, name: "slotMaps.huge", stamped: false)
        #expect(table.slot(ofID: 1 << 40) == SlotID.named("slotMaps.huge"))
        #expect(table.id(ofSlot: SlotID.named("slotMaps.huge")) == nil && table.id(of: "slotMaps.huge") == 1 << 40)
        for id in [1, 2, 5, 1_000_000_000] {
            let slot = table.slot(ofID: id)!
            #expect(table.name(ofID: id) == slot.name)
        }
    }

    @Test("Slot ranks follow the UTF-8 order of storage keys")
    func ranks() {
        let keys = ["ranks.b", "ranks.a", "ranks.\u{E9}", "ranks.e\u{301}", "ranks.B", "ranks.a(x:1)", "ranks.ab"]
        let slots = keys.map(SlotID.named)
        let ranks = SlotTable.shared.utf8Ranks()
        for (i, x) in slots.enumerated() {
            for (j, y) in slots.enumerated() where i != j {
                #expect((ranks[Int(x.index)] < ranks[Int(y.index)]) == utf8Precedes(keys[i], keys[j]), "\(keys[i]) \(keys[j])")
            }
        }
    }

    @Test("Names placed a few or many at a time rank as one sort of them all ranks them")
    func ranksPlacedInBatches() {
        var state: UInt64 = 7
        /// A splitmix64 step, so the names are the same every run.
        func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var x = state
            x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
            x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((x ^ (x >> 31)) % UInt64(bound))
        }
        let pieces = ["a", "b", "B", "\u{E9}", "e\u{301}", ":", "("]
        var names: [String] = []
        var order = SlotOrder()
        // Batches small and large against the table's size: binary insertion and the merge.
        for batch in [1, 40, 2, 3, 1, 200, 5, 1, 1, 64] {
            for _ in 0..<batch {
                // Distinct names whose order is decided mostly by their first, random pieces.
                let length = next(7)
                names.append((0..<length).map { _ in pieces[next(pieces.count)] }.joined() + "#\(names.count)")
            }
            order.place(names)
            let sorted = names.indices.sorted { utf8Precedes(names[$0], names[$1]) }
            var expected = [Int32](repeating: 0, count: names.count)
            for (position, index) in sorted.enumerated() { expected[index] = Int32(position) }
            #expect(order.ranks() == expected)
        }
    }

    /// A store's snapshot of `data` and the same snapshot with its cells and link types spelled out.
    private func pair(_ key: String, _ data: RecordData, hydrated: Bool, types: RecordTypes) -> (Snapshot, Snapshot) {
        let record = Snapshot(key: RecordKey(key), record: data, hydrated: hydrated, types: types)
        let named = Snapshot(
            key: record.key, typename: record.typename, cells: record.cells, deleted: record.deleted,
            hydrated: hydrated, linkTypes: record.linkTypes)
        return (record, named)
    }

    /// The bytes of every row and name of the image at `path`.
    private func tables(_ path: String) throws -> [String] {
        try withRawDatabase(path) { connection in
            var rows: [String] = []
            for sql in ["SELECT key, hex(row) FROM records ORDER BY key", "SELECT id, name FROM names ORDER BY id"] {
                let statement = try connection.prepare(sql)
                while try statement.step() { rows.append(statement.text(0) + " " + statement.text(1)) }
            }
            return rows
        }
    }

    @Test("A store's snapshots are written byte for byte as the same snapshots spelled out, merges included", arguments: [21, 22] as [UInt64])
    func writerPathsAgree(seed: UInt64) throws {
        var fuzz = CodecFuzz(seed: seed)
        let directory = try ImageTestDirectory(inMemory: true)
        let bySlot = try openTestImage(directory.path("slots.image"))
        let byName = try openTestImage(directory.path("names.image"))
        defer {
            bySlot.close()
            byName.close()
        }
        var merges = 0
        for round in 0..<4 {
            // Records of a few types linking to each other; the commit's types know some of them.
            var writes: [SourceView.Write] = []
            for _ in 0..<40 {
                let key = fuzz.key()
                var cells = CellTable()
                for _ in 0..<fuzz.int(0...12) { cells[SlotID.named("field\(fuzz.int(0...20))(a:\(fuzz.int(0...2)))")] = fuzz.cell() }
                let typename = fuzz.chance(0.5) ? "Character" : (fuzz.chance(0.5) ? "Episode" : "Type\(round)")
                let data = RecordData(typename: typename, cells: cells, deleted: fuzz.chance(0.1))
                writes.append(SourceView.Write(key: key, data: data, holdsEarlierCells: false))
            }
            let types = RecordTypes(writes)
            var records: [Snapshot] = []
            var named: [Snapshot] = []
            for write in writes {
                // Later rounds merge over earlier rows (not hydrated), or replace them.
                let (record, spelled) = pair(write.key.rawValue, write.data, hydrated: fuzz.chance(0.3), types: types)
                records.append(record)
                named.append(spelled)
            }
            bySlot.enqueue(WriteBatch(snapshots: records))
            byName.enqueue(WriteBatch(snapshots: named))
            let slotSummary = try bySlot.drainCommitted()
            let nameSummary = try byName.drainCommitted()
            #expect(slotSummary.merged == nameSummary.merged && slotSummary.newNames == nameSummary.newNames)
            merges += slotSummary.merged
        }
        #expect(merges > 0, "seed \(seed): no snapshot merged over a row")
        let slotTables = try tables(directory.path("slots.image"))
        let nameTables = try tables(directory.path("names.image"))
        #expect(slotTables.count > 100)
        #expect(slotTables == nameTables, "seed \(seed)")
    }
}
