import Baton

/// A replay file's expectations, checked after their event: the last check's answer and source,
/// the data read back, and the image as the model's own reader decodes the rows read through SQL
/// (rows, absent cells, deletions, root fields, fetch times, `used` stamps, field errors, and
/// "one of these states"). Every mismatch is a line of its own; with `keepGoing` a failed
/// expectation is kept and the run goes on.
extension Simulation {
    /// Checks `expect` after event `index`: throws the failure, or keeps it under `keepGoing`.
    func checkExpectation(_ expect: Expectation, index: Int) throws {
        var parts: [(headline: String, differences: [String])] = []
        if let availability = expect.availability {
            let actual: String
            switch lastCheck {
            case .missing?: actual = "missing"
            case .available(let freshness, _, _)?: actual = availability == "available" ? "available" : (freshness == .fresh ? "fresh" : "stale")
            case nil: actual = "no check yet"
            }
            if actual != availability {
                parts.append(("expected \(availability), the check said \(actual)", ["availability: expected \(availability) ≠ actual \(actual)"]))
            }
        }
        if let source = expect.source {
            var actual = "no answer"
            switch lastCheck {
            case .available(_, _, let from)?: actual = "\(from)"
            case .missing?: actual = "missing"
            case nil: actual = "no check yet"
            }
            if actual != source {
                parts.append(("expected the data from \(source), the check said \(actual)", ["source: expected \(source) ≠ actual \(actual)"]))
            }
        }
        if let data = expect.data {
            guard let process, case .check(let operation, let variables, _) = schedule[index].event, let plan = plans.plan(operation) else {
                throw violation("expectation", "\"data\" expectations go on check events", at: index)
            }
            let read = process.store.read(plan, variables: try resolve(plan, operation, variables, index: index))
            if !JSONComparison.equal(read.data, data) {
                let lines = JSONDifference.all(data, read.data).map { "data " + $0 }
                parts.append(("the data read back is not as expected", lines))
            }
        }
        if expect.readsImage {
            guard let process, let image = process.openedImage else {
                throw violation("expectation", "image expectations need a running process whose image has opened", at: index)
            }
            let observed = try observe(image, index: index)
            if let state = expect.image {
                let lines = Self.differences(state, observed)
                if !lines.isEmpty { parts.append(("the image is not as expected", lines)) }
            }
            if let states = expect.oneOf {
                let each = states.map { Self.differences($0, observed) }
                if !each.contains(where: \.isEmpty) {
                    let lines = each.enumerated().flatMap { position, lines in lines.map { "state \(position + 1): " + $0 } }
                    parts.append(("the image is none of the \(states.count) states expect.oneOf lists", lines))
                }
            }
        }
        guard !parts.isEmpty else { return }
        let headline = parts.count == 1 ? parts[0].headline : "\(parts.count) expectations failed: " + parts.map(\.headline).joined(separator: "; ")
        var failure = violation("expectation", headline, differences: parts.flatMap(\.differences), at: index)
        guard options.keepGoing else { throw failure }
        // Kept, not noted on the trace: a line more would shift the trace's length, which seeds
        // SQLite's randomness at the next launch, and the run must go on as it would have.
        failure.event = FailureReport.eventLine(index, in: trace)
        expectationFailures.append(failure)
    }

    // MARK: The image against a state

    /// Every way `observed` departs from `state`, one line each.
    static func differences(_ state: ImageExpectation, _ observed: OracleImage) -> [String] {
        var lines: [String] = []
        for (key, expected) in (state.records ?? [:]).sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let row = observed.records[OracleText(key)]
            guard let expected else {
                if let row { lines.append("image \(Legible.text(key)): expected no row ≠ actual used \(row.used) \(OracleDifference.render(row.record))") }
                continue
            }
            guard let row else {
                lines.append("image \(Legible.text(key)): expected a row ≠ actual no row")
                continue
            }
            lines += rowDifferences(key, expected, row)
        }
        if let root = state.root { lines += rootDifferences(root, observed) }
        for (identity, expected) in (state.fetches ?? [:]).sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let row = observed.fetches[OracleText(identity)]
            let name = "fetches \(identity)"
            switch (expected, row) {
            case (nil, nil): break
            case (nil, let row?): lines.append("\(name): expected no row ≠ actual time \(row.time) (used \(row.used))")
            case (_?, nil): lines.append("\(name): expected a row ≠ actual no row")
            case (let expected?, let row?):
                if let time = expected.time, time != row.time { lines.append("\(name).time: expected \(time) ≠ actual \(row.time)") }
                if let used = expected.used, used != row.used { lines.append("\(name).used: expected \(used) ≠ actual \(row.used)") }
            }
        }
        return lines
    }

    private static func rowDifferences(_ key: String, _ expected: RowExpectation, _ row: OracleRow) -> [String] {
        var lines: [String] = []
        let name = "image \(Legible.text(key))"
        if let deleted = expected.deleted, deleted != row.deleted {
            lines.append("\(name) deleted: expected \(deleted) ≠ actual \(row.deleted)")
        }
        if expected.deleted == true, row.deleted, !row.cells.isEmpty {
            lines.append("\(name): expected a deletion with no cells ≠ actual \(row.cells.count) cells")
        }
        if let used = expected.used, used != row.used {
            lines.append("\(name).used: expected \(used) ≠ actual \(row.used)")
        }
        lines += cellDifferences(name, expected: expected.cells, absent: expected.absent, errors: expected.errors) { row.cells[OracleText($0)] }
        return lines
    }

    private static func rootDifferences(_ expected: RootExpectation, _ observed: OracleImage) -> [String] {
        var lines = cellDifferences("root", expected: expected.cells, absent: expected.absent, errors: expected.errors) {
            observed.root[OracleText($0)]?.cell
        }
        for (field, used) in expected.used.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            guard let row = observed.root[OracleText(field)] else {
                lines.append("root.\(Legible.text(field)).used: expected \(used) ≠ actual no row")
                continue
            }
            if row.used != used { lines.append("root.\(Legible.text(field)).used: expected \(used) ≠ actual \(row.used)") }
        }
        return lines
    }

    /// Cells that must hold a value, cells that must be absent, and field errors.
    private static func cellDifferences(
        _ name: String, expected: JSONObject, absent: [String], errors: [String: [FieldErrorExpectation]],
        cell: (String) -> OracleCell?
    ) -> [String] {
        var lines: [String] = []
        for (slot, value) in expected {
            guard let actual = cell(slot) else {
                lines.append("\(name).\(Legible.text(slot)): expected \(CanonicalJSON.render(value)) ≠ actual absent")
                continue
            }
            let json = recordSourceJSON(actual.value)
            if !JSONComparison.equal(json, value) {
                lines.append("\(name).\(Legible.text(slot)): expected \(CanonicalJSON.render(value)) ≠ actual \(CanonicalJSON.render(json))")
            }
        }
        for slot in absent {
            if let actual = cell(slot) {
                lines.append("\(name).\(Legible.text(slot)): expected absent ≠ actual \(CanonicalJSON.render(recordSourceJSON(actual.value)))")
            }
        }
        for (slot, error) in errors.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            guard let actual = cell(slot) else {
                lines.append("\(name).\(Legible.text(slot)) error: expected \(describe(error)) ≠ actual no cell")
                continue
            }
            if !matches(error, actual.errors) {
                lines.append("\(name).\(Legible.text(slot)) error: expected \(describe(error)) ≠ actual \(describe(actual.errors))")
            }
        }
        return lines
    }

    private static func matches(_ expected: [FieldErrorExpectation], _ actual: [OracleFieldError]) -> Bool {
        guard expected.count == actual.count else { return false }
        for (e, a) in zip(expected, actual) {
            guard OracleText(e.message) == a.message else { return false }
            if let path = e.path, OracleText(path) != a.path { return false }
            if let extensions = e.extensions {
                guard let text = a.extensions, let parsed = try? JSONValue.parse(text.bytes) else { return false }
                guard JSONComparison.equal(parsed, extensions) else { return false }
            }
            if let others = e.otherMembers {
                guard let text = a.otherMembers, let parsed = try? JSONValue.parse(text.bytes) else { return false }
                guard JSONComparison.equal(parsed, others) else { return false }
            }
        }
        return true
    }

    private static func describe(_ errors: [FieldErrorExpectation]) -> String {
        errors.isEmpty ? "no error" : errors.map(describe).joined(separator: ", ")
    }

    private static func describe(_ errors: [OracleFieldError]) -> String {
        errors.isEmpty ? "no error" : errors.map(describe).joined(separator: ", ")
    }

    private static func describe(_ error: FieldErrorExpectation) -> String {
        var text = CanonicalJSON.render(.string(error.message))
        if let path = error.path { text += " at \(path)" }
        if let extensions = error.extensions { text += " " + CanonicalJSON.render(extensions) }
        if let others = error.otherMembers { text += " and " + CanonicalJSON.render(others) }
        return text
    }

    private static func describe(_ error: OracleFieldError) -> String {
        var text = CanonicalJSON.render(.string(error.message.string)) + " at \(error.path)"
        if let extensions = error.extensions { text += " \(extensions)" }
        if let others = error.otherMembers { text += " and \(others)" }
        return text
    }

    /// A model value in record-source form, as replay files write image cells (`{"__ref": …}`).
    static func recordSourceJSON(_ value: OracleValue) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        case .string(let s): .string(s.string)
        case .object(let text): (try? JSONValue.parse(Array(text.string.utf8))) ?? .string(text.string)
        case .number(let text): .decimal(text.string)
        case .link(let key): .object(["__ref": .string(key.string)])
        case .links(let keys): .object(["__refs": .array(keys.map { $0.map { .string($0.string) } ?? .null })])
        case .list(let items): .array(items.map(recordSourceJSON))
        }
    }
}
