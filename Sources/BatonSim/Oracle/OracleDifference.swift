/// Readable differences between what the oracle expects and what the store or image holds: one
/// line per differing cell, `key.cell: expected … ≠ actual …`.
package enum OracleDifference {
    /// The differences between two records under `key` (either may be absent).
    package static func records(key: OracleText, expected: OracleRecord?, actual: OracleRecord?) -> [String] {
        switch (expected, actual) {
        case (nil, nil):
            return []
        case (nil, let actual?):
            return ["\(Legible.text(key)): expected no record ≠ actual \(render(actual))"]
        case (let expected?, nil):
            return ["\(Legible.text(key)): expected \(render(expected)) ≠ actual no record"]
        case (let expected?, let actual?):
            var lines: [String] = []
            if expected.typename != actual.typename {
                lines.append("\(Legible.text(key)).__typename: expected \(expected.typename) ≠ actual \(actual.typename)")
            }
            if expected.deleted != actual.deleted {
                lines.append("\(Legible.text(key)) deleted: expected \(expected.deleted) ≠ actual \(actual.deleted)")
            }
            lines += cells(key: key, expected: expected.cells, actual: actual.cells)
            return lines
        }
    }

    /// The differences between two rows of `records` under `key`, `used` stamps included.
    package static func rows(key: OracleText, expected: OracleRow?, actual: OracleRow?) -> [String] {
        var lines = records(key: key, expected: expected?.record, actual: actual?.record)
        if let expected, let actual {
            if expected.deleted, actual.deleted, !actual.cells.isEmpty {
                lines += cells(key: key, expected: [:], actual: actual.cells)
            }
            if expected.used != actual.used {
                lines.append("\(Legible.text(key)).used: expected \(expected.used) ≠ actual \(actual.used)")
            }
        }
        return lines
    }

    /// Every difference between two images: rows of all three tables, sorted by key.
    package static func images(expected: OracleImage, actual: OracleImage) -> [String] {
        // Most comparisons find no difference: establish that row by row first, with the same
        // equalities the lines below use, and build lines only when something differs.
        if same(expected, actual) { return [] }
        var lines: [String] = []
        for key in Set(expected.records.keys).union(actual.records.keys).sorted() {
            lines += rows(key: key, expected: expected.records[key], actual: actual.records[key])
        }
        for field in Set(expected.root.keys).union(actual.root.keys).sorted() {
            let (e, a) = (expected.root[field], actual.root[field])
            if e?.cell != a?.cell {
                lines.append("root.\(Legible.text(field)): expected \(render(e?.cell)) ≠ actual \(render(a?.cell))")
            }
            if let e, let a, e.used != a.used {
                lines.append("root.\(Legible.text(field)).used: expected \(e.used) ≠ actual \(a.used)")
            }
        }
        for operation in Set(expected.fetches.keys).union(actual.fetches.keys).sorted() {
            let (e, a) = (expected.fetches[operation], actual.fetches[operation])
            if e != a {
                lines.append("fetches.\(Legible.text(operation)): expected \(render(e)) ≠ actual \(render(a))")
            }
        }
        return lines
    }

    /// True when ``images(expected:actual:)`` has no line to report: the same keys in every
    /// table, every row equal (a deleted row with cells is always reported, see ``rows``).
    private static func same(_ expected: OracleImage, _ actual: OracleImage) -> Bool {
        guard expected.records.count == actual.records.count, expected.root.count == actual.root.count,
              expected.fetches.count == actual.fetches.count else { return false }
        for (key, e) in expected.records {
            guard let a = actual.records[key], e == a, !(a.deleted && !a.cells.isEmpty) else { return false }
        }
        for (field, e) in expected.root {
            guard let a = actual.root[field], e.cell == a.cell, e.used == a.used else { return false }
        }
        for (operation, e) in expected.fetches {
            guard let a = actual.fetches[operation], e == a else { return false }
        }
        return true
    }

    static func cells(key: OracleText, expected: [OracleText: OracleCell], actual: [OracleText: OracleCell]) -> [String] {
        var lines: [String] = []
        for slot in Set(expected.keys).union(actual.keys).sorted() where expected[slot] != actual[slot] {
            lines.append("\(Legible.text(key)).\(Legible.text(slot)): expected \(render(expected[slot])) ≠ actual \(render(actual[slot]))")
        }
        return lines
    }

    /// The slots whose cells differ between two versions of a record, sorted (`__typename` and
    /// `__deleted` stand for a changed type or deletion): what an observer of the record must hear.
    package static func changedSlots(before: OracleRecord?, after: OracleRecord?) -> [OracleText] {
        var slots = Set<OracleText>()
        let old = before?.cells ?? [:]
        let new = after?.cells ?? [:]
        for slot in Set(old.keys).union(new.keys) where old[slot] != new[slot] { slots.insert(slot) }
        if before?.typename != after?.typename { slots.insert("__typename") }
        if before?.deleted != after?.deleted { slots.insert("__deleted") }
        return slots.sorted()
    }

    // MARK: Rendering

    /// A record in one line: `Type {slot: value, …}`, or `Type (deleted)`.
    package static func render(_ record: OracleRecord) -> String {
        if record.deleted { return "\(record.typename) (deleted)" }
        let cells = record.sortedCells.map { "\(Legible.text($0.slot)): \(render($0.cell))" }
        return "\(record.typename) {" + cells.joined(separator: ", ") + "}"
    }

    /// A cell: its value, then its errors if any; `nothing` for no cell.
    package static func render(_ cell: OracleCell?) -> String {
        guard let cell else { return "nothing" }
        var text = render(cell.value)
        for error in cell.errors {
            text += " (error \(Legible.quoted(error.message.string)) at \(Legible.text(error.path))"
            if let extensions = error.extensions { text += " \(extensions)" }
            if let others = error.otherMembers { text += " and \(others)" }
            if error.elementIndices != OracleFieldError.trailingIndices(error.path.string) {
                text += " about element " + (error.elementIndices.isEmpty ? "none" : error.elementIndices.map(String.init).joined(separator: "."))
            }
            text += ")"
        }
        return text
    }

    /// A value: JSON for scalars, `decimal(…)` for a number kept as its text, `@Key` for a link.
    package static func render(_ value: OracleValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return OracleCanonical.number(d)
        case .string(let s): return Legible.quoted(s.string)
        case .link(let key): return "@" + Legible.text(key)
        case .links(let keys): return "[" + keys.map { $0.map { "@" + Legible.text($0) } ?? "null" }.joined(separator: ", ") + "]"
        case .list(let items): return "[" + items.map(render).joined(separator: ", ") + "]"
        case .object(let text): return text.string
        // Marked, so that an integer and decimal text with the same digits read apart.
        case .number(let text): return "decimal(\(text.string))"
        }
    }

    static func render(_ fetch: OracleFetchRow?) -> String {
        guard let fetch else { return "nothing" }
        return "\(fetch.time) (used \(fetch.used))"
    }
}
