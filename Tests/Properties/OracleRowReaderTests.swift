import Baton
import BatonSim
import Testing

/// Writes rows exactly as docs/design.md ("The image's rows, byte by byte") describes them, so the
/// oracle's reader is tested against the description and not against the store's encoder.
struct TestRowWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        repeat {
            let low = UInt8(value & 0x7F)
            value >>= 7
            bytes.append(value == 0 ? low : low | 0x80)
        } while value != 0
    }

    mutating func string(_ text: String) {
        varint(UInt64(text.utf8.count))
        bytes += Array(text.utf8)
    }

    mutating func tag(_ kind: UInt8, error: Bool = false) {
        bytes.append(kind | (error ? 0x80 : 0))
    }

    mutating func int(_ value: Int) {
        tag(3)
        let n = Int64(value)
        varint(UInt64(bitPattern: (n << 1) ^ (n >> 63)))
    }

    mutating func double(_ value: Double) {
        tag(4)
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt64(i)))) }
    }

    mutating func text(_ value: String) {
        tag(5)
        string(value)
    }

    mutating func error(message: String, path: String, extensions: String?) {
        string(message)
        string(path)
        if let extensions {
            varint(UInt64(extensions.utf8.count + 1))
            bytes += Array(extensions.utf8)
        } else {
            varint(0)
        }
    }

    static func checksum(key: String, _ body: [UInt8]) -> [UInt8] {
        let crc = OracleCRC32C.checksum(Array(key.utf8), body)
        return (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) }
    }

    /// A `records` row: flags, type id, cell count, cells (name id then value bytes), checksum.
    static func row(key: String, flags: UInt8, type: UInt64, cells: [(UInt64, [UInt8])]) -> [UInt8] {
        var w = TestRowWriter()
        w.bytes.append(flags)
        w.varint(type)
        w.varint(UInt64(cells.count))
        for (name, value) in cells {
            w.varint(name)
            w.bytes += value
        }
        return w.bytes + checksum(key: key, w.bytes)
    }

    static func value(_ build: (inout TestRowWriter) -> Void) -> [UInt8] {
        var w = TestRowWriter()
        build(&w)
        return w.bytes
    }

    /// The `used` column's value for `launch` (row format 7: the launch plus 128).
    static func stamp(_ launch: Int) -> Int {
        launch + 128
    }

    static func name(_ id: Int, _ name: String, used: Int = 1) -> RawImage.Name {
        var w = TestRowWriter()
        w.varint(UInt64(id))
        let crc = OracleCRC32C.checksum(w.bytes, Array(name.utf8))
        return RawImage.Name(id: id, name: name, used: stamp(used), crc: Int64(crc))
    }
}

@Suite("Oracle: its own reader of the image's rows")
struct OracleRowReaderTests {
    typealias W = TestRowWriter

    /// Names 1…8, and 300 (a two-byte varint).
    static let names: [RawImage.Name] = [
        W.name(1, "Character"), W.name(2, "id"), W.name(3, "name"), W.name(4, "friends"), W.name(5, "grid"),
        W.name(6, "height"), W.name(7, "meta"), W.name(8, "status"), W.name(300, "zeta"),
    ]

    static func image(records: [RawImage.Record] = [], root: [RawImage.RootField] = [], fetches: [RawImage.Fetch] = [], names: [RawImage.Name] = names) -> RawImage {
        RawImage(records: records, root: root, fetches: fetches, names: names, generation: 3)
    }

    static func decoded(_ raw: RawImage) throws -> OracleImage {
        try Oracle.decode(raw).get()
    }

    static func problems(_ raw: RawImage) -> [String] {
        guard case .failure(let problem) = Oracle.decode(raw) else { return [] }
        return problem.entries.map { "\($0.table) \($0.key): \($0.reason)" }
    }

    /// A row of Character:1 with one cell of every kind, cells sorted by their names' bytes.
    static let everyKind: [UInt8] = {
        let cells: [(UInt64, [UInt8])] = [
            (4, W.value { w in  // friends: links of a known type, null, an unknown type
                w.tag(7); w.varint(3); w.varint(2); w.string("Character:2"); w.varint(0); w.varint(1); w.string("client:root:x")
            }),
            (5, W.value { w in  // grid: a list holding a list of links and null
                w.tag(8); w.varint(2); w.tag(7); w.varint(1); w.varint(1); w.string("a:0:0"); w.tag(0)
            }),
            (6, W.value { w in w.double(-1.5) }),
            (2, W.value { w in w.text("1") }),
            (7, W.value { w in w.tag(9); w.string(#"{"a":[1,true]}"#) }),
            (3, W.value { w in w.tag(5, error: true); w.string("Rick é😀"); w.error(message: "late", path: "character.name", extensions: #"{"code":1}"#) }),
            (8, W.value { w in w.tag(0, error: true); w.error(message: "no status", path: "character.status", extensions: nil) }),
            (300, W.value { w in w.tag(8); w.varint(4); w.int(-300); w.tag(1); w.tag(2); w.tag(6); w.varint(0); w.string("b") }),
        ]
        return W.row(key: "Character:1", flags: 0x02, type: 1, cells: cells.sorted { OracleText(nameText($0.0)) < OracleText(nameText($1.0)) })
    }()

    static func nameText(_ id: UInt64) -> String {
        names.first { $0.id == Int(id) }!.name
    }

    static func sealed(_ key: String, _ body: [UInt8]) -> [UInt8] {
        body + W.checksum(key: key, body)
    }

    @Test("a row with every kind of value decodes to the cells the description says")
    func everyKindDecodes() throws {
        let image = try Self.decoded(Self.image(records: [RawImage.Record(key: "Character:1", used: TestRowWriter.stamp(2), row: Self.everyKind)]))
        let row = try #require(image.records["Character:1"])
        #expect(row.used == 2 && row.typename == "Character" && !row.deleted)
        #expect(row.cells["friends"]?.value == .links(["Character:2", nil, "client:root:x"]))
        #expect(row.cells["grid"]?.value == .list([.links(["a:0:0"]), .null]))
        #expect(row.cells["height"]?.value == .double(-1.5))
        #expect(row.cells["id"]?.value == .string("1"))
        #expect(row.cells["meta"]?.value == .object(#"{"a":[1,true]}"#))
        #expect(row.cells["name"] == OracleCell(.string("Rick é😀"), errors: [OracleFieldError(message: "late", path: "character.name", extensions: #"{"code":1}"#)]))
        #expect(row.cells["status"] == OracleCell(.null, errors: [OracleFieldError(message: "no status", path: "character.status")]))
        #expect(row.cells["zeta"]?.value == .list([.int(-300), .bool(false), .bool(true), .link("b")]))
        #expect(image.generation == 3)
    }

    @Test("format 3's entity links read as the type's name, a colon and the id; full keys beside them")
    func entityLinks() throws {
        let cells: [(UInt64, [UInt8])] = [
            (4, W.value { w in  // friends: Character:2 as its id, null, a full key of an unknown type, a full key of a known type
                w.tag(11); w.varint(4); w.varint(2 * 1 + 1 + 1); w.string("2"); w.varint(0); w.varint(1); w.string("client:root:x")
                w.varint(2 * 1 + 0 + 1); w.string("Character:3")
            }),
            (3, W.value { w in w.tag(10); w.varint(1); w.string("é1") }),  // name: a link to Character:é1
            (5, W.value { w in w.tag(8); w.varint(1); w.tag(10); w.varint(1); w.string("") }),  // grid: [Character:]
        ]
        let row = W.row(key: "Character:1", flags: 0x02, type: 1, cells: cells.sorted { OracleText(Self.nameText($0.0)) < OracleText(Self.nameText($1.0)) })
        let image = try Self.decoded(Self.image(records: [RawImage.Record(key: "Character:1", used: TestRowWriter.stamp(2), row: row)]))
        let decoded = try #require(image.records["Character:1"])
        #expect(decoded.cells["friends"]?.value == .links(["Character:2", nil, "client:root:x", "Character:3"]))
        #expect(decoded.cells["name"]?.value == .link("Character:é1"))
        #expect(decoded.cells["grid"]?.value == .list([.link("Character:")]))
    }

    @Test("format 4's further errors read in order beside the first")
    func severalErrors() throws {
        let cells: [(UInt64, [UInt8])] = [
            (4, W.value { w in  // friends: [null, null] with the errors of items 0 and 1, then a third
                w.bytes.append(0xC7); w.varint(2); w.varint(0); w.varint(0)
                w.error(message: "first", path: "c.friends.0", extensions: nil)
                w.varint(2)
                w.error(message: "second", path: "c.friends.1", extensions: #"{"code":"X"}"#)
                w.error(message: "first", path: "c.friends.0", extensions: nil)
            }),
        ]
        let row = W.row(key: "Character:1", flags: 0x02, type: 1, cells: cells)
        let image = try Self.decoded(Self.image(records: [RawImage.Record(key: "Character:1", used: TestRowWriter.stamp(2), row: row)]))
        let decoded = try #require(image.records["Character:1"])
        #expect(decoded.cells["friends"] == OracleCell(.links([nil, nil]), errors: [
            OracleFieldError(message: "first", path: "c.friends.0"),
            OracleFieldError(message: "second", path: "c.friends.1", extensions: #"{"code":"X"}"#),
            OracleFieldError(message: "first", path: "c.friends.0"),
        ]))
    }

    @Test("format 5's element indices follow each error when bit 5 says so; without it they are the path's trailing numbers")
    func elementIndices() throws {
        let cells: [(UInt64, [UInt8])] = [
            (4, W.value { w in  // friends: [null, null]; an error that nulled item 1 from its name, and item 0's own
                w.bytes.append(0xE7); w.varint(2); w.varint(0); w.varint(0)
                w.error(message: "deep", path: "c.friends.1.name", extensions: nil)
                w.varint(1); w.varint(1)
                w.varint(1)
                w.error(message: "own", path: "c.friends.0", extensions: nil)
                w.varint(1); w.varint(0)
            }),
            (3, W.value { w in  // name: null, a format 4 error about no element
                w.bytes.append(0x80)
                w.error(message: "gone", path: "c.name", extensions: nil)
            }),
        ]
        let row = W.row(key: "Character:1", flags: 0x02, type: 1, cells: cells)
        let image = try Self.decoded(Self.image(records: [RawImage.Record(key: "Character:1", used: TestRowWriter.stamp(2), row: row)]))
        let decoded = try #require(image.records["Character:1"])
        #expect(decoded.cells["friends"]?.errors.map(\.elementIndices) == [[1], [0]])
        #expect(decoded.cells["name"]?.errors.map(\.elementIndices) == [[]])
        // Bit 5 with no error bit is refused.
        let stray = W.row(key: "Character:1", flags: 0x02, type: 1, cells: [(5, [0x20])])
        #expect(Self.problems(Self.image(records: [RawImage.Record(key: "Character:1", used: TestRowWriter.stamp(2), row: stray)])).count == 1)
    }

    @Test("deleted rows, root cells and fetch times decode")
    func otherTables() throws {
        let deleted = W.row(key: "Character:9", flags: 0x03, type: 1, cells: [])
        var cell = W.value { w in w.tag(6); w.varint(1); w.string("Character:1") }
        cell += W.checksum(key: #"character(id:"1")"#, cell)
        let time = 1_700_000_123.25
        let fetch = RawImage.Fetch(operation: #"Q{"id":"1"}"#, used: TestRowWriter.stamp(3), time: time, crc: Int64(OracleCRC32C.checksum(Array(#"Q{"id":"1"}"#.utf8), OracleCRC32C.littleEndian(time))))
        let image = try Self.decoded(Self.image(
            records: [RawImage.Record(key: "Character:9", used: TestRowWriter.stamp(1), row: deleted)],
            root: [RawImage.RootField(field: #"character(id:"1")"#, used: TestRowWriter.stamp(3), cell: cell)], fetches: [fetch]))
        #expect(image.records["Character:9"] == OracleRow(used: 1, typename: "Character", deleted: true))
        #expect(image.root[#"character(id:"1")"#] == OracleRootRow(used: 3, cell: OracleCell(.link("Character:1"))))
        #expect(image.fetches[#"Q{"id":"1"}"#] == OracleFetchRow(used: 3, time: time))
    }

    @Test("every flipped bit of a row is refused, never read as other data")
    func flippedBits() {
        let row = Self.everyKind
        for index in row.indices {
            for bit in 0..<8 {
                var damaged = row
                damaged[index] ^= UInt8(1 << bit)
                let problems = Self.problems(Self.image(records: [RawImage.Record(key: "Character:1", used: TestRowWriter.stamp(1), row: damaged)]))
                #expect(problems.count == 1, "byte \(index) bit \(bit) was not refused")
            }
        }
    }

    @Test("a row under another key fails its checksum")
    func movedRow() {
        #expect(Self.problems(Self.image(records: [RawImage.Record(key: "Character:2", used: TestRowWriter.stamp(1), row: Self.everyKind)]))
            == ["records Character:2: the checksum does not verify"])
    }

    @Test("unknown name ids and names whose checksum fails are refused with the rows that use them")
    func names() {
        let row = W.row(key: "Character:1", flags: 0x02, type: 1, cells: [(99, W.value { $0.text("x") })])
        #expect(Self.problems(Self.image(records: [RawImage.Record(key: "Character:1", used: TestRowWriter.stamp(1), row: row)]))
            == ["records Character:1: uses name #99, which the names table lacks"])
        var names = Self.names
        names[0].name = "Charactev"  // a flipped bit in a type name
        let good = W.row(key: "Character:1", flags: 0x02, type: 1, cells: [(2, W.value { $0.text("1") })])
        #expect(Self.problems(Self.image(records: [RawImage.Record(key: "Character:1", used: TestRowWriter.stamp(1), row: good)], names: names))
            == ["names #1: the name's checksum does not verify", "records Character:1: uses name #1, whose checksum fails"])
    }

    @Test("a fetch time whose checksum fails is refused")
    func badFetch() {
        let fetch = RawImage.Fetch(operation: "Q{}", used: TestRowWriter.stamp(1), time: 2, crc: Int64(OracleCRC32C.fetchChecksum(operation: "Q{}", time: 3)))
        #expect(Self.problems(Self.image(fetches: [fetch])) == ["fetches Q{}: the fetch time's checksum does not verify"])
        let negative = RawImage.Fetch(operation: "Q{}", used: TestRowWriter.stamp(1), time: 2, crc: -1)
        #expect(Self.problems(Self.image(fetches: [negative])).count == 1)
    }

    @Test("rows that do not parse are refused, even with a good checksum", arguments: [
        ("cells out of order", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(3, W.value { $0.text("b") }), (2, W.value { $0.text("a") })])),
        ("a repeated cell", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, W.value { $0.text("b") }), (2, W.value { $0.text("a") })])),
        ("an unknown tag", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x0C])])),
        ("an entity link without a type", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x0A, 0x00, 0x01, 0x31])])),
        ("an entity list item without a type", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x0B, 0x01, 0x02, 0x01, 0x31])])),
        ("reserved tag bits", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x10])])),
        ("an unknown flag", "Character:1", W.row(key: "Character:1", flags: 0x06, type: 1, cells: [])),
        ("a wrong entity flag", "Character:1", W.row(key: "Character:1", flags: 0, type: 1, cells: [])),
        ("an entity flag on a client key", "client:root:x", W.row(key: "client:root:x", flags: 2, type: 1, cells: [])),
        ("a string past the end", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x05, 0x09, 0x41])])),
        ("invalid UTF-8", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x05, 0x02, 0xC3, 0x28])])),
        ("an error bit inside a list", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x08, 0x01, 0x80])])),
        ("further errors without a first", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x40])])),
        ("further errors counted 0", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0xC0, 0x01, 0x6D, 0x00, 0x00, 0x00])])),
        ("further errors bit inside a list", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x08, 0x01, 0x40])])),
        ("a varint past 64 bits", "Character:1", W.row(key: "Character:1", flags: 2, type: 1, cells: [(2, [0x03] + [UInt8](repeating: 0xFF, count: 9) + [0x02])])),
        ("fewer cells than counted", "Character:1", sealed("Character:1", [0x02, 0x01, 0x01])),
        ("shorter than a checksum", "Character:1", [0x02, 0x01]),
    ] as [(String, String, [UInt8])])
    func malformed(what: String, key: String, row: [UInt8]) {
        #expect(Self.problems(Self.image(records: [RawImage.Record(key: key, used: TestRowWriter.stamp(1), row: row)])).count == 1, "\(what)")
    }

    @Test("bytes after the last cell are refused")
    func trailingBytes() {
        let body = Self.sealed("Character:1", [0x02, 0x01, 0x00, 0x00])
        #expect(Self.problems(Self.image(records: [RawImage.Record(key: "Character:1", used: TestRowWriter.stamp(1), row: body)]))
            == ["records Character:1: 1 bytes after the last cell"])
    }
}
