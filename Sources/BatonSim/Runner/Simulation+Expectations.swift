import Baton

extension Simulation {
    /// A hand-written scenario's expectations after an event.
    func checkExpectation(_ expect: Expectation, index: Int) throws {
        if let availability = expect.availability {
            let actual: String
            switch lastCheck {
            case .missing?: actual = "missing"
            case .available(let freshness, _, _)?: actual = availability == "available" ? "available" : (freshness == .fresh ? "fresh" : "stale")
            case nil: actual = "no check yet"
            }
            guard actual == availability else {
                throw violation("expectation", "expected \(availability), the check said \(actual)", at: index)
            }
        }
        if let source = expect.source {
            guard case .available(_, _, let actual)? = lastCheck, "\(actual)" == source else {
                throw violation("expectation", "expected the data from \(source), the check said \(String(describing: lastCheck))", at: index)
            }
        }
        if let data = expect.data {
            guard let process, case .check(let operation, let variables, _) = schedule[index].event, let plan = plans.plan(operation) else {
                throw violation("expectation", "\"data\" expectations go on check events", at: index)
            }
            let read = process.store.read(plan, variables: try resolve(plan, operation, variables, index: index))
            guard JSONComparison.equal(read.data, data) else {
                throw violation("expectation", "expected data \(CanonicalJSON.render(data)), read back \(CanonicalJSON.render(read.data))", at: index)
            }
        }
        if let rows = expect.image {
            guard let process else {
                throw violation("expectation", "image expectations need a running process", at: index)
            }
            let observed = try observe(process.image, index: index)
            for key in rows.keys.sorted() {
                let row = observed.records[OracleText(key)]
                switch rows[key]! {
                case .null:
                    if let row { throw violation("expectation", "expected no row \(key), found \(row)", at: index) }
                case .object(let cells):
                    guard let row else { throw violation("expectation", "expected a row \(key), found none", at: index) }
                    for name in cells.keys.sorted() {
                        let actual = row.cells[OracleText(name)].map { Self.recordSourceJSON($0.value) }
                        guard let actual, JSONComparison.equal(actual, cells[name]!) else {
                            throw violation("expectation", "row \(key).\(name): expected \(CanonicalJSON.render(cells[name]!)), found \(actual.map(CanonicalJSON.render) ?? "nothing")", at: index)
                        }
                    }
                default:
                    throw violation("expectation", "image expectations are objects of cells or null", at: index)
                }
            }
        }
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
        case .link(let key): .object(["__ref": .string(key.string)])
        case .links(let keys): .object(["__refs": .array(keys.map { $0.map { .string($0.string) } ?? .null })])
        case .list(let items): .array(items.map(recordSourceJSON))
        }
    }
}
