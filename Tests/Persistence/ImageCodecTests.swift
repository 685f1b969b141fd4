import Foundation
import Testing

@testable import Baton

/// Random cells for the codec's properties.
struct CodecFuzz {
    var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &generator) < p }

    mutating func string() -> String {
        let pieces = ["", "a", "Rick", "é", "e\u{301}", "😀", "名前", "\u{0}", "\"q\"", "line\nbreak", "client:root", ":"]
        var text = ""
        for _ in 0..<int(0...4) { text += pieces[int(0...(pieces.count - 1))] }
        return text
    }

    mutating func key() -> RecordKey {
        chance(0.5) ? RecordKey("Character:\(int(0...999))") : RecordKey("client:root:items:\(int(0...9))")
    }

    mutating func value(depth: Int = 0) -> Value {
        switch int(0...(depth < 3 ? 9 : 7)) {
        case 0: return .null
        case 1: return .bool(chance(0.5))
        case 2:
            let extremes = [0, 1, -1, Int.max, Int.min, 63, -64, 64, 1 << 40]
            return .int(chance(0.3) ? extremes[int(0...(extremes.count - 1))] : int(-100_000...100_000))
        case 3:
            let extremes: [Double] = [0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.5]
            return .double(chance(0.3) ? extremes[int(0...(extremes.count - 1))] : Double(int(-1000...1000)) / 7)
        case 4: return .string(string())
        case 5: return .link(key())
        case 6: return .links((0..<int(0...4)).map { _ in chance(0.2) ? nil : key() })
        case 7:
            guard chance(0.7) else {
                let exact = ["123456789012345678901234567890", "-12345678901234567.891", "1e-400", "9.876543210987654321e250"]
                return .decimal(exact[int(0...(exact.count - 1))])
            }
            return .object("{\"a\":\(int(0...9))}")
        default: return .list((0..<int(0...4)).map { _ in value(depth: depth + 1) })
        }
    }

    mutating func cell() -> Cell {
        guard chance(0.3) else { return Cell(value()) }
        // One error mostly; sometimes several (format 4's further errors), in order.
        let count = chance(0.7) ? 1 : int(2...4)
        let errors = (0..<count).map { index in
            // Sometimes about an element its path does not end at (format 5's spelled indices).
            FieldError(message: string(), path: "a.\(index).b", extensions: chance(0.5) ? "{\"code\":\"X\"}" : nil,
                       otherMembers: chance(0.3) ? "{\"type\":\"\(string())\"}" : nil,
                       elementIndices: chance(0.3) ? (0..<int(1...3)).map { _ in int(0...300) } : nil)
        }
        return Cell(value(), errors: errors)
    }

    mutating func snapshot() -> Snapshot {
        var cells: [String: Cell] = [:]
        for _ in 0..<int(0...12) { cells["field\(int(0...20))(a:\(int(0...2)))"] = cell() }
        let deleted = chance(0.1)
        var linkTypes: [RecordKey: String] = [:]
        for cell in cells.values {
            cell.value.forEachLink { key in if chance(0.7) { linkTypes[key] = chance(0.5) ? "Character" : "Episode" } }
        }
        return Snapshot(
            key: key(), typename: chance(0.9) ? "Character" : "",
            cells: deleted ? [] : cells.keys.sorted().map { NamedCell(storageKey: $0, cell: cells[$0]!) },
            deleted: deleted, hydrated: false, linkTypes: linkTypes)
    }
}

/// Encodes a snapshot's row the way the writer does, interning names in `names`.
func encodeRow(_ snapshot: Snapshot, names: inout TestNames) -> [UInt8] {
    let typeID = names.id(snapshot.typename)
    let cellIDs = snapshot.cells.map { names.id($0.storageKey) }
    var linkIDs: [RecordKey: RowEncoder.LinkType] = [:]
    for (key, type) in snapshot.linkTypes { linkIDs[key] = RowEncoder.LinkType(id: names.id(type), name: type) }
    var encoder = RowEncoder()
    encoder.beginRow(
        deleted: snapshot.deleted, entity: RowFormat.isEntity(key: snapshot.key.rawValue, typename: snapshot.typename),
        typeID: typeID, cellCount: snapshot.cells.count)
    for (cell, id) in zip(snapshot.cells, cellIDs) {
        encoder.cell(nameID: id, cell.cell) { linkIDs[$0] ?? .unknown }
    }
    return encoder.finish(key: snapshot.key.rawValue)
}

/// The row of an entity of type `typeID` holding one cell, `cell` under name `nameID`.
func oneCellRow(_ cell: Cell, typeID: Int, nameID: Int, key: String) -> [UInt8] {
    var encoder = RowEncoder()
    encoder.beginRow(deleted: false, entity: true, typeID: typeID, cellCount: 1)
    encoder.cell(nameID: nameID, cell) { _ in .unknown }
    return encoder.finish(key: key)
}

/// One record type and one field, named in a table of names, for tests of a row of one cell.
struct OneCellRows {
    var names = TestNames()
    let typeID: Int
    let nameID: Int
    let key: String

    init(type: String, field: String, key: String) {
        typeID = names.id(type)
        nameID = names.id(field)
        self.key = key
    }

    /// The row of `cell` under ``key``, sealed.
    func encoded(_ cell: Cell) -> [UInt8] { oneCellRow(cell, typeID: typeID, nameID: nameID, key: key) }

    /// The one cell `row` decodes to, or nil for a miss.
    func decoded(_ row: [UInt8]) -> Cell? { decodeRow(row, key: RecordKey(key), names: names)?.cells.first?.cell }
}

func decodeRow(_ bytes: [UInt8], key: RecordKey, names: TestNames) -> DecodedRow? {
    var sink = RowDecodeSink()
    return bytes.withUnsafeBytes { RowDecoder.decodeRow($0, key: key.rawValue, names: names, sink: &sink) }
}

/// Appends a correct checksum for `key` to a row body (to reach the checks behind the checksum).
func sealed(_ body: [UInt8], key: String) -> [UInt8] {
    let crc = body.withUnsafeBytes { CRC32C.finalize(CRC32C.update(CRC32C.update(CRC32C.initial, with: key), with: $0)) }
    var writer = RowBuffer()
    body.withUnsafeBytes { writer.raw($0) }
    writer.uint32(crc)
    return writer.array()
}

@Suite("Image row codec")
struct ImageCodecTests {
    @Test("CRC-32C matches the standard check value")
    func crcCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8]()) == 0)
        // Slicing by eight agrees with the byte-at-a-time tail for every length.
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        for length in 0...bytes.count {
            var crc = CRC32C.initial
            for byte in bytes.prefix(length) {
                crc = [byte].withUnsafeBytes { CRC32C.update(crc, with: $0) }
            }
            #expect(CRC32C.finalize(crc) == CRC32C.checksum(bytes.prefix(length)))
        }
    }

    @Test("Varints and zigzag round-trip at the edges; overlong varints are rejected")
    func varints() {
        let values: [UInt64] = [0, 1, 127, 128, 255, 16_383, 16_384, UInt64(UInt32.max), UInt64.max - 1, UInt64.max]
        for value in values {
            var writer = RowBuffer()
            writer.varint(value)
            var reader = ByteReader(writer.bytes)
            let decoded = reader.varint()
            #expect(decoded == value)
        }
        for value in [0, 1, -1, Int.max, Int.min, 1 << 62, -(1 << 62)] {
            var writer = RowBuffer()
            writer.zigzag(value)
            var reader = ByteReader(writer.bytes)
            let decoded = reader.zigzag()
            #expect(decoded == value)
        }
        let overlong: [[UInt8]] = [
            [UInt8](repeating: 0xFF, count: 10),  // never ends within ten bytes
            [UInt8](repeating: 0x80, count: 9) + [0x02],  // a 65th bit
            [0x80],  // truncated
        ]
        for bytes in overlong {
            let decoded = bytes.withUnsafeBytes { raw -> UInt64? in
                var reader = ByteReader(raw)
                return reader.varint()
            }
            #expect(decoded == nil)
        }
    }

    @Test("Random rows round-trip, link types included", arguments: [1, 2, 3, 4] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        var fuzz = CodecFuzz(seed: seed)
        var names = TestNames()
        for _ in 0..<300 {
            let snapshot = fuzz.snapshot()
            let bytes = encodeRow(snapshot, names: &names)
            var sink = RowDecodeSink(collectsLinkTypes: true)
            let decoded = try #require(
                bytes.withUnsafeBytes { RowDecoder.decodeRow($0, key: snapshot.key.rawValue, names: names, sink: &sink) },
                "seed \(seed)")
            #expect(decoded.deleted == snapshot.deleted, "seed \(seed)")
            #expect(decoded.typename == snapshot.typename, "seed \(seed)")
            #expect(decoded.cells == snapshot.cells, "seed \(seed)")
            for (target, typeID) in sink.linkTypes {
                #expect(names.name(ofID: typeID) == snapshot.linkTypes[target] || (typeID == 0 && snapshot.linkTypes[target] == nil))
            }
        }
    }

    @Test("NaN keeps its bits")
    func nan() throws {
        var names = TestNames()
        let nan = Double(bitPattern: 0x7FF8_0000_0000_1234)
        let row = encodeRow(snapshot("A:1", "A", ["x": .double(nan)]), names: &names)
        let decoded = try #require(decodeRow(row, key: RecordKey("A:1"), names: names))
        guard case .double(let value) = decoded.cells.first?.cell.value else {
            Issue.record("not a double")
            return
        }
        #expect(value.bitPattern == nan.bitPattern)
    }

    @Test("Every flipped bit and every truncation is a miss, never a trap or other data", arguments: [7, 8] as [UInt64])
    func damage(seed: UInt64) {
        var fuzz = CodecFuzz(seed: seed)
        var names = TestNames()
        for _ in 0..<40 {
            let snapshot = fuzz.snapshot()
            let bytes = encodeRow(snapshot, names: &names)
            for bit in 0..<(bytes.count * 8) {
                var damaged = bytes
                damaged[bit / 8] ^= UInt8(1 << (bit % 8))
                #expect(decodeRow(damaged, key: snapshot.key, names: names) == nil, "seed \(seed) bit \(bit)")
            }
            for length in 0..<bytes.count {
                #expect(decodeRow(Array(bytes.prefix(length)), key: snapshot.key, names: names) == nil, "seed \(seed) length \(length)")
            }
            // The same bytes under another key are a miss too.
            #expect(decodeRow(bytes, key: RecordKey(snapshot.key.rawValue + "x"), names: names) == nil)
        }
    }

    @Test("Structural damage behind a valid checksum is a miss")
    func damageBehindChecksum() {
        var names = TestNames()
        let typeID = names.id("User")
        let nameID = names.id("name")
        let key = "User:1"
        func row(_ cells: [UInt8], count: UInt8 = 1, flags: UInt8 = 0x02) -> [UInt8] {
            sealed([flags, UInt8(typeID), count] + cells, key: key)
        }
        let good = row([UInt8(nameID), 5, 1, UInt8(ascii: "A")])
        #expect(decodeRow(good, key: RecordKey(key), names: names)?.cells == [NamedCell(storageKey: "name", cell: Cell(.string("A")))])
        let cases: [(String, [UInt8])] = [
            ("trailing byte", row([UInt8(nameID), 5, 1, UInt8(ascii: "A"), 0])),
            ("bad tag", row([UInt8(nameID), 12])),
            ("entity link without a type", row([UInt8(nameID), 10, 0, 1, UInt8(ascii: "1")])),
            ("entity link of an unknown type", row([UInt8(nameID), 10, 55, 1, UInt8(ascii: "1")])),
            ("entity list item without a type", row([UInt8(nameID), 11, 1, 2, 1, UInt8(ascii: "1")])),
            ("entity list item of an unknown type", row([UInt8(nameID), 11, 1, 112, 1, UInt8(ascii: "1")])),
            ("tag with unused bits", row([UInt8(nameID), 0x10])),
            ("unknown name id", row([99, 0])),
            ("unknown type id", sealed([0x02, 77, 0], key: key)),
            ("unknown link type", row([UInt8(nameID), 6, 55, 1, UInt8(ascii: "x")])),
            ("unknown flags", row([UInt8(nameID), 0], flags: 0x04)),
            ("bad UTF-8", row([UInt8(nameID), 5, 2, 0xC3, 0x28])),
            ("string longer than the row", row([UInt8(nameID), 5, 9, UInt8(ascii: "A")])),
            ("varint overflow", row([UInt8(nameID), 3] + [UInt8](repeating: 0xFF, count: 10) + [0x01])),
            ("fewer cells than counted", row([UInt8(nameID), 0], count: 2)),
            ("huge count", row([UInt8(nameID), 8, 0xFF, 0xFF, 0xFF, 0x7F])),
            ("error bit inside a list", row([UInt8(nameID), 8, 1, 0x80])),
            ("truncated error", row([UInt8(nameID), 0x80, 1, UInt8(ascii: "m")])),
            ("further errors without a first", row([UInt8(nameID), 0x40])),
            ("further errors counted 0", row([UInt8(nameID), 0xC0, 1, UInt8(ascii: "m"), 0, 0, 0])),
            ("fewer further errors than counted", row([UInt8(nameID), 0xC0, 1, UInt8(ascii: "m"), 0, 0, 2, 0, 0, 0])),
            ("further errors bit inside a list", row([UInt8(nameID), 8, 1, 0x40])),
        ]
        for (label, bytes) in cases {
            #expect(decodeRow(bytes, key: RecordKey(key), names: names) == nil, "\(label)")
        }
        // Nesting beyond the limit is a miss, not a deep recursion.
        let deep = [UInt8(nameID)] + [UInt8](repeating: 0, count: 0)
            + Array([[UInt8]](repeating: [8, 1], count: 5000).joined()) + [0]
        #expect(decodeRow(row(deep), key: RecordKey(key), names: names) == nil)
    }

    /// A custom scalar's arrays nest as deep as the response does (ingest allows 512 levels); the
    /// reader took lists past 128 for damage until 2026-12-06, so such a value was written and
    /// then lost at the next launch.
    @Test("lists nest as deep as a response may, and read back; deeper is a miss")
    func deepLists() throws {
        let rows = OneCellRows(type: "Item", field: "settings", key: "Item:1")
        func nested(_ depth: Int) -> Value {
            var value = Value.int(7)
            for _ in 0..<depth { value = .list([value]) }
            return value
        }
        for depth in [128, 129, 300, 511] {
            #expect(rows.decoded(rows.encoded(Cell(nested(depth))))?.value == nested(depth), "\(depth)")
        }
        #expect(rows.decoded(rows.encoded(Cell(nested(513)))) == nil)
    }

    /// Format 6: bit 4 beside bit 7 says each error's other members follow its extensions, and it
    /// is set only when some error of the cell has them; bit 4 without bit 7 is damage.
    @Test("Format 6 keeps an error's other members after its extensions, and only then spells them")
    func otherMembers() throws {
        let rows = OneCellRows(type: "Item", field: "name", key: "Item:1")
        let members = #"{"type":"FORBIDDEN"}"#
        let cell = Cell(.null, errors: [FieldError(message: "m", path: "p"), FieldError(message: "n", path: "q", otherMembers: members)])
        let row = rows.encoded(cell)
        // name, tag (null, error, more errors, members), "m", "p", no extensions, no members.
        #expect(Array(row[3...11]) == [UInt8(rows.nameID), 0xD0, 1, 0x6D, 1, 0x70, 0, 0, 1])
        #expect(rows.decoded(row) == cell)
        let plainRow = rows.encoded(Cell(.null, errors: [FieldError(message: "m", path: "p")]))
        #expect(plainRow[4] == 0x80)
        // The members bit without an error is damage, behind a valid checksum too.
        let body = [0x02, UInt8(rows.typeID), 1, UInt8(rows.nameID), 0x10]
        #expect(decodeRow(sealed(body, key: rows.key), key: RecordKey(rows.key), names: rows.names) == nil)
    }

    /// Format 6: a number no double holds is tag 12 and its text, bare and inside a list, and reads
    /// back with every digit (format 5 had only the nearest double to write).
    @Test("Format 6 keeps a number no double holds as its canonical text")
    func exactNumbers() throws {
        let rows = OneCellRows(type: "Item", field: "amount", key: "Item:1")
        let digits = "123456789012345678901234567890"
        let bare = rows.encoded(Cell(.decimal(digits)))
        // flags, type, one cell: its name, tag 12, the text's length and bytes, then the checksum.
        #expect(Array(bare[3...5]) == [UInt8(rows.nameID), 12, UInt8(digits.utf8.count)])
        #expect(Array(bare[6..<(6 + digits.utf8.count)]) == Array(digits.utf8))
        #expect(rows.decoded(bare)?.value == .decimal(digits))
        let list = Value.list([.decimal("-1e-400"), .double(0.1), .decimal("12345678901234567.891")])
        #expect(rows.decoded(rows.encoded(Cell(list)))?.value == list)
    }

    /// Rows written before 2026-12-06 kept a whole number that fits an `Int` but no double as
    /// tag 12 and its digits; ingest now reads such a number as that integer (docs/design.md,
    /// "Bad input"), and so does a row: the same value never answers two kinds.
    @Test("An old row's whole number in tag 12 reads as the integer it is, bare and inside a list")
    func oldWholeExactNumbers() throws {
        let rows = OneCellRows(type: "Item", field: "amount", key: "Item:1")
        for (digits, whole) in [("9007199254740993", 9_007_199_254_740_993), ("-621058133375578131", -621_058_133_375_578_131)] {
            // As format 6 wrote it: flags, type, one cell (its name, tag 12, the digits), the checksum.
            let body = [0x02, UInt8(rows.typeID), 1, UInt8(rows.nameID), 12, UInt8(digits.utf8.count)] + Array(digits.utf8)
            let row = sealed(body, key: rows.key)
            #expect(decodeRow(row, key: RecordKey(rows.key), names: rows.names)?.cells.first?.cell.value == .int(whole))
            #expect(rows.encoded(Cell(.int(whole))) != row)
        }
        // Past 64 bits, a whole number stays text; so does one with a fraction.
        let large = Value.list([.decimal("9223372036854775808"), .decimal("12345678901234567.891")])
        #expect(rows.decoded(rows.encoded(Cell(large)))?.value == large)
    }

    @Test("Format 2's links read as they did; format 3 keeps a Type:id link as its id alone")
    func linkFormats() throws {
        var names = TestNames()
        let typeID = names.id("User")
        let nameID = names.id("friends")
        let key = "User:1"
        func row(_ cells: [UInt8]) -> [UInt8] { sealed([0x02, UInt8(typeID), 1] + cells, key: key) }
        // Format 2: tag 7, markers are the type id + 1, keys in full.
        let format2 = row([UInt8(nameID), 7, 3, UInt8(typeID + 1), 6] + Array("User:2".utf8) + [0, 1, 1, UInt8(ascii: "x")])
        #expect(decodeRow(format2, key: RecordKey(key), names: names)?.cells.first?.cell.value == .links([RecordKey("User:2"), nil, RecordKey("x")]))
        // Format 3, as the encoder writes it: User:2 and User:3 by id, a key of another shape in full.
        let links: [RecordKey?] = [RecordKey("User:2"), nil, RecordKey("Users:3"), RecordKey("User:3")]
        var encoder = RowEncoder()
        encoder.beginRow(deleted: false, entity: true, typeID: typeID, cellCount: 1)
        encoder.cell(nameID: nameID, Cell(.links(links))) { _ in RowEncoder.LinkType(id: typeID, name: "User") }
        let format3 = encoder.finish(key: key)
        let user = UInt8(2 * typeID + 2)  // entity bit set
        let full = UInt8(2 * typeID + 1)
        #expect(Array(format3.dropLast(4)) == [0x02, UInt8(typeID), 1, UInt8(nameID), 11, 4, user, 1, UInt8(ascii: "2"), 0]
            + [full, 7] + Array("Users:3".utf8) + [user, 1, UInt8(ascii: "3")])
        #expect(decodeRow(format3, key: RecordKey(key), names: names)?.cells.first?.cell.value == .links(links))
        encoder.beginRow(deleted: false, entity: true, typeID: typeID, cellCount: 1)
        encoder.cell(nameID: nameID, Cell(.link(RecordKey("User:9")))) { _ in RowEncoder.LinkType(id: typeID, name: "User") }
        let single = encoder.finish(key: key)
        #expect(Array(single.dropLast(4)) == [0x02, UInt8(typeID), 1, UInt8(nameID), 10, UInt8(typeID), 1, UInt8(ascii: "9")])
        #expect(decodeRow(single, key: RecordKey(key), names: names)?.cells.first?.cell.value == .link(RecordKey("User:9")))
    }

    @Test("Format 4 keeps a field's several errors in order; a cell of one error is format 3's bytes")
    func severalErrors() throws {
        var names = TestNames()
        let typeID = names.id("User")
        let nameID = names.id("friends")
        let key = "User:1"
        func encoded(_ cell: Cell) -> [UInt8] { oneCellRow(cell, typeID: typeID, nameID: nameID, key: key) }
        // One error: tag bit 7 alone, as format 3 wrote it.
        let one = encoded(Cell(.null, errors: [FieldError(message: "a", path: "f.1")]))
        #expect(Array(one.dropLast(4)) == [0x02, UInt8(typeID), 1, UInt8(nameID), 0x80, 1, UInt8(ascii: "a"), 3] + Array("f.1".utf8) + [0])
        // Three: bits 7 and 6, the first error, a count of 2, then the other two in order.
        let errors = [
            FieldError(message: "a", path: "f.1"), FieldError(message: "b", path: "f.3", extensions: #"{"code":"X"}"#),
            FieldError(message: "a", path: "f.1"),
        ]
        let three = encoded(Cell(.list([.int(1), .null]), errors: errors))
        let firstError = [1, UInt8(ascii: "a"), 3] + Array("f.1".utf8) + [0]
        let secondError = [1, UInt8(ascii: "b"), 3] + Array("f.3".utf8) + [13] + Array(#"{"code":"X"}"#.utf8)
        #expect(Array(three.dropLast(4)) == [0x02, UInt8(typeID), 1, UInt8(nameID), 0xC8, 2, 3, 2, 0]
            + firstError + [2] + secondError + firstError)
        #expect(decodeRow(three, key: RecordKey(key), names: names)?.cells.first?.cell == Cell(.list([.int(1), .null]), errors: errors))

        // docs/design.md's example, byte for byte (a cell's name id 4).
        var doc = RowEncoder()
        doc.beginRow(deleted: false, entity: true, typeID: typeID, cellCount: 1)
        doc.cell(nameID: 4, Cell(.list([.null, .null]), errors: [FieldError(message: "x", path: "c.tags.0"), FieldError(message: "y", path: "c.tags.1")])) { _ in .unknown }
        let documented: [UInt8] = [0x04, 0xC8, 0x02, 0x00, 0x00, 0x01, 0x78, 0x08, 0x63, 0x2E, 0x74, 0x61, 0x67, 0x73, 0x2E, 0x30, 0x00,
                                   0x01, 0x01, 0x79, 0x08, 0x63, 0x2E, 0x74, 0x61, 0x67, 0x73, 0x2E, 0x31, 0x00]
        #expect(Array(doc.finish(key: key).dropLast(4).dropFirst(3)) == documented)
    }

    @Test("Format 5 spells the element indices of errors about an element their paths do not end at, and only then")
    func elementIndices() throws {
        var names = TestNames()
        let typeID = names.id("Character")
        let nameID = names.id("episodes")
        let key = "Character:1"
        func encoded(_ cell: Cell) -> [UInt8] { oneCellRow(cell, typeID: typeID, nameID: nameID, key: key) }
        func decoded(_ row: [UInt8]) -> Cell? { decodeRow(row, key: RecordKey(key), names: names)?.cells.first?.cell }
        // Indices the path ends with: format 4's bytes, no bit 5.
        let named = Cell(.list([.null]), errors: [FieldError(message: "a", path: "e.0")])
        #expect(encoded(named)[4] == 0x88)
        // An error that nulled element 1 from deeper down: bit 5, and each error's indices after it.
        let deep = [FieldError(message: "a", path: "e.1.id", elementIndices: [1]), FieldError(message: "b", path: "e.0")]
        let row = encoded(Cell(.list([.null, .null]), errors: deep))
        let first = [1, UInt8(ascii: "a"), 6] + Array("e.1.id".utf8) + [0, 1, 1]
        let second = [1, UInt8(ascii: "b"), 3] + Array("e.0".utf8) + [0, 1, 0]
        #expect(Array(row.dropLast(4)) == [0x02, UInt8(typeID), 1, UInt8(nameID), 0xE8, 2, 0, 0] + first + [1] + second)
        #expect(decoded(row)?.errors == deep)
        #expect(decoded(row)?.errors.map(\.elementIndices) == [[1], [0]])
        // Without bit 5 the same error is about no element (its path ends in a key).
        let plain = encoded(Cell(.list([.null, .null]), errors: [FieldError(message: "a", path: "e.1.id")]))
        #expect(decoded(plain)?.errors.first?.elementIndices == [])
        // Bit 5 without an error is damage.
        var stray = encoded(Cell(.int(3)))
        stray[4] |= 0x20
        stray = sealed(Array(stray.dropLast(4)), key: key)
        #expect(decoded(stray) == nil)
    }

    @Test("Root cells round-trip and are checked against their field")
    func rootCells() throws {
        var fuzz = CodecFuzz(seed: 11)
        var names = TestNames()
        let typeID = names.id("Character")
        for index in 0..<200 {
            let cell = fuzz.cell()
            var encoder = RowEncoder()
            let field = "field\(index)"
            let bytes = encoder.rootCell(field: field, cell) { _ in RowEncoder.LinkType(id: typeID, name: "Character") }
            var sink = RowDecodeSink()
            let decoded = bytes.withUnsafeBytes { RowDecoder.decodeRootCell($0, field: field, names: names, sink: &sink) }
            #expect(decoded == cell)
            let other = bytes.withUnsafeBytes { RowDecoder.decodeRootCell($0, field: field + "!", names: names, sink: &sink) }
            #expect(other == nil)
            for bit in 0..<(bytes.count * 8) {
                var damaged = bytes
                damaged[bit / 8] ^= UInt8(1 << (bit % 8))
                let result = damaged.withUnsafeBytes { RowDecoder.decodeRootCell($0, field: field, names: names, sink: &sink) }
                #expect(result == nil)
            }
        }
    }

    @Test("The entity bit reads Type:id for the record's own type")
    func entity() {
        #expect(RowFormat.isEntity(key: "User:1", typename: "User"))
        #expect(RowFormat.isEntity(key: "User:a:b", typename: "User"))
        #expect(!RowFormat.isEntity(key: "client:root", typename: "Query"))
        #expect(!RowFormat.isEntity(key: "User:1:address", typename: "Address"))
        #expect(!RowFormat.isEntity(key: "Users:1", typename: "User"))
        #expect(!RowFormat.isEntity(key: "User", typename: "User"))
    }

    @Test("UTF-8 order agrees with the canonical order, small and large strings alike")
    func utf8Order() {
        var fuzz = CodecFuzz(seed: 5)
        for _ in 0..<2000 {
            let a = fuzz.string() + (fuzz.chance(0.3) ? String(repeating: "x", count: fuzz.int(0...40)) : "")
            let b = fuzz.string() + (fuzz.chance(0.3) ? String(repeating: "x", count: fuzz.int(0...40)) : "")
            #expect(utf8Precedes(a, b) == CanonicalJSON.utf8Less(a, b), "\(a.debugDescription) \(b.debugDescription)")
            #expect(utf8Equal(a, b) == a.utf8.elementsEqual(b.utf8))
        }
        // Canonically equal, bytewise different: the image keeps them apart.
        #expect(!utf8Equal("\u{E9}", "e\u{301}"))
    }

    @Test("A drain's keys sorted by their UTF-8 bytes, equal keys in their order, past 16 bytes and with NULs")
    func utf8SortedKeys() {
        var fuzz = CodecFuzz(seed: 11)
        // Stems of 15, 16 and 17 bytes put the first difference either side of the integer prefix.
        let stems = [
            "", "a", "a\u{0}", "Character:", "Character:00000", "Character:000000", "Character:0000000",
            "client:root:characters({\"page\":", "é", "e\u{301}", "\u{10FFFF}",
        ]
        for round in 0..<300 {
            var keys: [String] = []
            for _ in 0..<fuzz.int(0...40) {
                var key = stems[fuzz.int(0...(stems.count - 1))]
                if fuzz.chance(0.7) { key += String(fuzz.int(0...30)) }
                if fuzz.chance(0.3) { key += fuzz.string() }
                keys.append(key)
            }
            if round % 3 == 0 { keys.sort(by: utf8Precedes) }
            let expected = keys.indices.sorted { a, b in
                if utf8Precedes(keys[a], keys[b]) { return true }
                if utf8Precedes(keys[b], keys[a]) { return false }
                return a < b
            }
            #expect(utf8SortedPositions(of: keys) == expected, "\(keys.map(\.debugDescription))")
        }
    }

    @Test("The names table resolves dense and far ids, and forgets a renamed id's old name")
    func nameTable() {
        var table = NameTable()
        table.insert(id: 1, name: "a", stamped: false)
        table.insert(id: 3, name: "c", stamped: true)
        table.insert(id: 1_000_000_000, name: "far", stamped: true)
        #expect(table.name(ofID: 1) == "a")
        #expect(table.name(ofID: 2) == nil)
        #expect(table.name(ofID: -1) == nil)
        #expect(table.name(ofID: 1_000_000_000) == "far")
        #expect(table.id(of: "far") == 1_000_000_000)
        #expect(table.isStamped(3) && table.isStamped(1_000_000_000) && !table.isStamped(1))
        table.noteStamped([1])
        #expect(table.isStamped(1))
        table.insert(id: 1, name: "b", stamped: false)
        #expect(table.id(of: "a") == nil)
        #expect(table.id(of: "b") == 1)
        #expect(table.count == 3)
    }
}
