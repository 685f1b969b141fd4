/// The image's tables as SQL hands them over, before any decoding: what the runner reads with
/// plain `SELECT`s and gives the oracle to decode with its own reader. Each `used` is the
/// column's value (a stamp: the launch plus 128, in row format 7); decoding makes it a launch.
package struct RawImage: Sendable {
    package struct Record: Sendable {
        package var key: String
        package var used: Int
        package var row: [UInt8]
        package init(key: String, used: Int, row: [UInt8]) {
            self.key = key
            self.used = used
            self.row = row
        }
    }

    package struct RootField: Sendable {
        package var field: String
        package var used: Int
        package var cell: [UInt8]
        package init(field: String, used: Int, cell: [UInt8]) {
            self.field = field
            self.used = used
            self.cell = cell
        }
    }

    package struct Fetch: Sendable {
        package var operation: String
        package var used: Int
        package var time: Double
        /// The `crc` column (row format 2).
        package var crc: Int64
        package init(operation: String, used: Int, time: Double, crc: Int64) {
            self.operation = operation
            self.used = used
            self.time = time
            self.crc = crc
        }
    }

    package struct Name: Sendable {
        package var id: Int
        package var name: String
        package var used: Int
        /// The `crc` column (row format 2).
        package var crc: Int64
        package init(id: Int, name: String, used: Int, crc: Int64) {
            self.id = id
            self.name = name
            self.used = used
            self.crc = crc
        }
    }

    package var records: [Record]
    package var root: [RootField]
    package var fetches: [Fetch]
    package var names: [Name]
    /// `meta.generation`.
    package var generation: Int
    /// `meta.version`: the application version that opened the file last.
    package var appVersion: String?

    package init(records: [Record] = [], root: [RootField] = [], fetches: [Fetch] = [], names: [Name] = [], generation: Int, appVersion: String? = nil) {
        self.records = records
        self.root = root
        self.fetches = fetches
        self.names = names
        self.generation = generation
        self.appVersion = appVersion
    }
}

/// Rows the oracle's reader refused, each named with why: never guessed, never skipped quietly.
package struct ImageDecodeProblem: Error, Hashable, Sendable, CustomStringConvertible {
    package struct Entry: Hashable, Sendable {
        /// `records`, `root`, `fetches` or `names`.
        package var table: String
        /// The row's key (a name's id as `#id`).
        package var key: String
        package var reason: String
        /// The id of the name whose checksum fails that the row uses, when that is what failed it
        /// (the row itself verified): a write of the name may set it right and bring the row back.
        package var damagedName: Int? = nil
        /// The launch the row's `used` column names, when a damaged name is what failed it: the
        /// column is outside the row's checksum and readable, so a hidden row still says which of
        /// a crash's states it came from.
        package var used: Int? = nil
    }

    package var entries: [Entry]

    package var description: String {
        entries.map { "\($0.table) \($0.key): \($0.reason)" }.joined(separator: "; ")
    }
}

extension Oracle {
    /// Decodes the image's tables with the oracle's own reader (the static `Oracle.decode`).
    package func decode(_ raw: RawImage) -> Result<OracleImage, ImageDecodeProblem> {
        Oracle.decode(raw)
    }

    /// Decodes the image's tables with the oracle's own reader (docs/design.md, "The image's
    /// rows, byte by byte"). Any row that fails its checksum, names an id the verified names do
    /// not have, or does not parse makes the whole answer a problem listing every such row.
    package static func decode(_ raw: RawImage) -> Result<OracleImage, ImageDecodeProblem> {
        let (image, problems) = decodeKeepingDamage(raw)
        return problems.isEmpty ? .success(image) : .failure(ImageDecodeProblem(entries: problems))
    }

    /// What row format 7 adds to a launch in every `used` column (docs/design.md, "Tables"):
    /// 128, so that every stamp takes SQLite's two-byte integer until launch 32,639.
    static let stampBase = 128

    /// The launch a `used` column's value names: the model's image speaks of launches.
    static func launch(ofStamp stamp: Int) -> Int {
        stamp - stampBase
    }

    /// Decodes every row that verifies, and lists every row that does not (left out of the image).
    package static func decodeKeepingDamage(_ raw: RawImage, memo: OracleRowMemo? = nil) -> (image: OracleImage, damaged: [ImageDecodeProblem.Entry]) {
        var problems: [ImageDecodeProblem.Entry] = []
        var names: [Int: String] = [:]
        var badNames = Set<Int>()
        for name in raw.names {
            guard name.id >= 0, name.crc >= 0, name.crc <= 0xFFFF_FFFF,
                UInt32(name.crc) == OracleCRC32C.nameChecksum(id: name.id, name: name.name)
            else {
                problems.append(.init(table: "names", key: "#\(name.id)", reason: "the name's checksum does not verify"))
                badNames.insert(name.id)
                continue
            }
            names[name.id] = name.name
        }
        memo?.sync(names: names, badNames: badNames)
        var image = OracleImage(generation: raw.generation, appVersion: raw.appVersion)
        image.records.reserveCapacity(raw.records.count)
        image.root.reserveCapacity(raw.root.count)
        image.fetches.reserveCapacity(raw.fetches.count)
        for record in raw.records {
            let key = OracleText(record.key)
            if let known = memo?.records[key], known.bytes == record.row {
                image.records[key] = OracleRow(used: launch(ofStamp: record.used), typename: known.row.typename, deleted: known.row.deleted, cells: known.row.cells)
                continue
            }
            var reader = OracleRowReader(bytes: record.row, key: record.key, names: names, badNames: badNames)
            do throws(OracleRowReader.Failure) {
                let row = try reader.record()
                image.records[key] = OracleRow(used: launch(ofStamp: record.used), typename: row.typename, deleted: row.deleted, cells: row.cells)
                memo?.records[key] = (record.row, row)
            } catch {
                problems.append(.init(
                    table: "records", key: record.key, reason: error.reason, damagedName: error.damagedName,
                    used: error.damagedName.map { _ in launch(ofStamp: record.used) }))
            }
        }
        for field in raw.root {
            let key = OracleText(field.field)
            if let known = memo?.root[key], known.bytes == field.cell {
                image.root[key] = OracleRootRow(used: launch(ofStamp: field.used), cell: known.cell)
                continue
            }
            var reader = OracleRowReader(bytes: field.cell, key: field.field, names: names, badNames: badNames)
            do throws(OracleRowReader.Failure) {
                let cell = try reader.rootCell()
                image.root[key] = OracleRootRow(used: launch(ofStamp: field.used), cell: cell)
                memo?.root[key] = (field.cell, cell)
            } catch {
                problems.append(.init(
                    table: "root", key: field.field, reason: error.reason, damagedName: error.damagedName,
                    used: error.damagedName.map { _ in launch(ofStamp: field.used) }))
            }
        }
        for fetch in raw.fetches {
            guard fetch.crc >= 0, fetch.crc <= 0xFFFF_FFFF,
                UInt32(fetch.crc) == OracleCRC32C.fetchChecksum(operation: fetch.operation, time: fetch.time)
            else {
                problems.append(.init(table: "fetches", key: fetch.operation, reason: "the fetch time's checksum does not verify"))
                continue
            }
            image.fetches[OracleText(fetch.operation)] = OracleFetchRow(used: launch(ofStamp: fetch.used), time: fetch.time)
        }
        return (image, problems)
    }
}

/// Rows the model's reader decoded before, by key with their bytes: a row whose bytes (and key)
/// are the same decodes to the same cells while the names it could use are the same. The runner
/// reads the whole image after every drain and every launch, and most rows did not change.
///
/// Only rows that decoded are kept. The names may grow (a decoded row used only names it found,
/// which keep their text); any other change to the names (or to which fail their checksum)
/// forgets every row.
package final class OracleRowMemo {
    var names: [Int: String] = [:]
    var badNames: Set<Int> = []
    var records: [OracleText: (bytes: [UInt8], row: OracleRowReader.Row)] = [:]
    var root: [OracleText: (bytes: [UInt8], cell: OracleCell)] = [:]

    package init() {}

    /// Keeps the rows when `names` only adds to the names they were decoded with.
    func sync(names: [Int: String], badNames: Set<Int>) {
        let kept = badNames == self.badNames
            && self.names.allSatisfy { id, name in names[id].map { $0.utf8.elementsEqual(name.utf8) } ?? false }
        if !kept {
            records = [:]
            root = [:]
        }
        self.names = names
        self.badNames = badNames
    }
}

/// Reads one row's bytes as docs/design.md describes them; every read is bounds-checked.
struct OracleRowReader {
    struct Failure: Error {
        var reason: String
        /// Set when the row verified but uses a name whose checksum fails.
        var damagedName: Int? = nil
    }

    /// A record row's contents.
    struct Row {
        var typename: String
        var deleted: Bool
        var cells: [OracleText: OracleCell]
    }

    let bytes: [UInt8]
    let key: String
    let names: [Int: String]
    let badNames: Set<Int>
    /// Where the payload ends (the last four bytes are the checksum).
    private var end = 0
    private var position = 0
    /// The image's limit on a row's list nesting: the depth a response may nest to (128 until
    /// 2026-12-06; docs/design.md).
    static let maxDepth = 512

    init(bytes: [UInt8], key: String, names: [Int: String], badNames: Set<Int>) {
        self.bytes = bytes
        self.key = key
        self.names = names
        self.badNames = badNames
    }

    /// A `records` row: flags, type, cells sorted by storage key, checksum.
    mutating func record() throws(Failure) -> Row {
        try verifyChecksum()
        let flags = try byte()
        guard flags & ~0x03 == 0 else { throw Failure(reason: "unknown flag bits \(flags)") }
        let deleted = flags & 0x01 != 0
        let typename = try name(try id())
        let cellCount = try count()
        var cells: [OracleText: OracleCell] = [:]
        var previous: OracleText?
        for _ in 0..<cellCount {
            let slot = OracleText(try name(try id()))
            if let previous, !(previous < slot) { throw Failure(reason: "cells out of storage-key order at \(slot)") }
            previous = slot
            cells[slot] = try cell()
        }
        guard position == end else { throw Failure(reason: "\(end - position) bytes after the last cell") }
        let entity = flags & 0x02 != 0
        guard entity == OracleRowReader.isEntity(key: key, typename: typename) else {
            throw Failure(reason: "the entity flag says \(entity) for type \(typename)")
        }
        return Row(typename: typename, deleted: deleted, cells: cells)
    }

    /// A `root` row: one cell value, checksum.
    mutating func rootCell() throws(Failure) -> OracleCell {
        try verifyChecksum()
        let cell = try cell()
        guard position == end else { throw Failure(reason: "\(end - position) bytes after the cell") }
        return cell
    }

    /// True when `key` reads `Type:…` for the row's own type and is not a client key.
    static func isEntity(key: String, typename: String) -> Bool {
        !typename.isEmpty && !key.utf8.starts(with: "client:".utf8) && key.utf8.starts(with: (typename + ":").utf8)
    }

    // MARK: Checksum

    private mutating func verifyChecksum() throws(Failure) {
        guard bytes.count >= 4 else { throw Failure(reason: "shorter than its checksum") }
        end = bytes.count - 4
        var stored: UInt32 = 0
        for i in 0..<4 { stored |= UInt32(bytes[end + i]) << (8 * UInt32(i)) }
        guard stored == OracleCRC32C.checksum(Array(key.utf8), Array(bytes[0..<end])) else {
            throw Failure(reason: "the checksum does not verify")
        }
    }

    // MARK: Values

    private mutating func cell() throws(Failure) -> OracleCell {
        let tag = try byte()
        let value = try value(tag: tag & ~0x30, depth: 0)
        // Format 5: bit 5, beside bit 7, says each error is followed by its element indices.
        let spellsElements = tag & 0x20 != 0
        // Format 6: bit 4, beside bit 7, says each error's other members follow its extensions.
        let spellsMembers = tag & 0x10 != 0
        switch tag & 0xC0 {
        case 0x00:
            guard !spellsElements else { throw Failure(reason: "element indices without an error in tag \(tag)") }
            guard !spellsMembers else { throw Failure(reason: "other members without an error in tag \(tag)") }
            return OracleCell(value)
        case 0x80:
            return OracleCell(value, errors: [try fieldError(spellsElements: spellsElements, spellsMembers: spellsMembers)])
        case 0xC0:
            // Format 4: the first error, a count of the others (never 0), then each of them.
            var errors = [try fieldError(spellsElements: spellsElements, spellsMembers: spellsMembers)]
            let others = try count()
            guard others > 0 else { throw Failure(reason: "a count of 0 further errors") }
            for _ in 0..<others { errors.append(try fieldError(spellsElements: spellsElements, spellsMembers: spellsMembers)) }
            return OracleCell(value, errors: errors)
        default:
            throw Failure(reason: "further errors without a first in tag \(tag)")
        }
    }

    /// One field error: message, path, the length + 1 of its extensions' text (0: none), the same
    /// for its other members when the cell's tag says so, then, when the tag says so, a count and
    /// that many element indices; without them the error's element is where its path's trailing
    /// indices point.
    private mutating func fieldError(spellsElements: Bool, spellsMembers: Bool) throws(Failure) -> OracleFieldError {
        let message = try string()
        let path = try string()
        let extensions = try count()
        var text: OracleText?
        if extensions > 0 { text = try utf8(length: extensions - 1) }
        var others: OracleText?
        if spellsMembers {
            let length = try count()
            if length > 0 { others = try utf8(length: length - 1) }
        }
        var indices: [Int]?
        if spellsElements {
            let count = try count()
            var spelled: [Int] = []
            for _ in 0..<count { spelled.append(try id()) }
            indices = spelled
        }
        return OracleFieldError(message: message, path: path, extensions: text, otherMembers: others, elementIndices: indices)
    }

    /// A value; bit 6 of a cell's tag (further errors) was read by ``cell()`` and is ignored here.
    private mutating func value(tag: UInt8, depth: Int) throws(Failure) -> OracleValue {
        if depth > 0, tag & 0xC0 != 0 { throw Failure(reason: "an error inside a list") }
        guard tag & 0x30 == 0 else { throw Failure(reason: "unknown tag bits in \(tag)") }
        switch tag & 0x0F {
        case 0: return .null
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3:
            let zigzag = try varint()
            return .int(Int(truncatingIfNeeded: Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))))
        case 4:
            guard end - position >= 8 else { throw Failure(reason: "a double cut short") }
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
            position += 8
            return .double(Double(bitPattern: bits))
        case 5:
            return .string(try string())
        case 6:
            let type = try id()
            if type != 0 { _ = try name(type) }
            return .link(try string())
        case 7:
            var keys: [OracleText?] = []
            for _ in 0..<(try count()) {
                let type = try id()
                if type == 0 {
                    keys.append(nil)
                    continue
                }
                if type > 1 { _ = try name(type - 1) }
                keys.append(try string())
            }
            return .links(keys)
        case 8:
            guard depth < OracleRowReader.maxDepth else { throw Failure(reason: "lists nested too deep") }
            var items: [OracleValue] = []
            for _ in 0..<(try count()) { items.append(try value(tag: try byte(), depth: depth + 1)) }
            return .list(items)
        case 9:
            return .object(try string())
        case 10:
            // Format 3: a link to `Type:id` holds the type and the id; the key is both, a colon between.
            let type = try id()
            guard type != 0 else { throw Failure(reason: "an entity link without a type") }
            return .link(OracleText(try name(type) + ":" + (try string()).string))
        case 11:
            // Format 3's list: 0 null, else (marker − 1) / 2 the type and its low bit "the id alone".
            var keys: [OracleText?] = []
            for _ in 0..<(try count()) {
                let marker = try id()
                if marker == 0 {
                    keys.append(nil)
                    continue
                }
                let type = (marker - 1) / 2
                if (marker - 1) % 2 == 1 {
                    guard type != 0 else { throw Failure(reason: "an entity link without a type") }
                    keys.append(OracleText(try name(type) + ":" + (try string()).string))
                } else {
                    if type != 0 { _ = try name(type) }
                    keys.append(try string())
                }
            }
            return .links(keys)
        case 12:
            // Format 6: a number a double cannot hold, as its canonical decimal text; any other
            // text (one a double holds, `01`, `1.50`, empty) is not what the store writes.
            let text = try string()
            guard OracleDecimal.isCanonical(text.string) else {
                throw Failure(reason: "an exact number whose text \"\(text.string.prefix(40))\" is not canonical decimal text")
            }
            // A whole number within 64 bits is that integer (docs/design.md, "Bad input", rule 4);
            // rows written before 2026-12-06 kept one here as its digits.
            if let whole = OracleJSONParser.wholeValue(Array(text.string.utf8)[...]) { return .int(whole) }
            return .number(text)
        default:
            throw Failure(reason: "unknown tag \(tag & 0x0F)")
        }
    }

    // MARK: Primitives

    private mutating func byte() throws(Failure) -> UInt8 {
        guard position < end else { throw Failure(reason: "cut short") }
        defer { position += 1 }
        return bytes[position]
    }

    /// An unsigned LEB128 varint of at most ten bytes that fits 64 bits.
    private mutating func varint() throws(Failure) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<10 {
            let b = try byte()
            if index == 9, b > 1 { throw Failure(reason: "a varint beyond 64 bits") }
            value |= UInt64(b & 0x7F) << (7 * UInt64(index))
            if b & 0x80 == 0 { return value }
        }
        throw Failure(reason: "a varint longer than ten bytes")
    }

    /// A varint used as a count, a length or an id: it must fit what is left of the row.
    private mutating func count() throws(Failure) -> Int {
        let value = try varint()
        guard value <= UInt64(end) else { throw Failure(reason: "a count of \(value) in a row of \(end) bytes") }
        return Int(value)
    }

    /// A varint used as a name id (a type's, a storage key's): any value that fits `Int`.
    private mutating func id() throws(Failure) -> Int {
        let value = try varint()
        guard value <= UInt64(Int.max) else { throw Failure(reason: "a name id beyond Int") }
        return Int(value)
    }

    private mutating func string() throws(Failure) -> OracleText {
        try utf8(length: try count())
    }

    private mutating func utf8(length: Int) throws(Failure) -> OracleText {
        guard end - position >= length else { throw Failure(reason: "a string cut short") }
        let slice = bytes[position..<(position + length)]
        position += length
        guard let text = String(validating: slice, as: UTF8.self) else { throw Failure(reason: "a string that is not UTF-8") }
        return OracleText(text)
    }

    /// The name under `id`, which must be in the verified names.
    private func name(_ id: Int) throws(Failure) -> String {
        if badNames.contains(id) { throw Failure(reason: "uses name #\(id), whose checksum fails", damagedName: id) }
        guard let name = names[id] else { throw Failure(reason: "uses name #\(id), which the names table lacks") }
        return name
    }
}
