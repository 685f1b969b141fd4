import Baton

extension Simulation {
    /// Memory agrees with the model: every record memory holds is the model's record or a part
    /// of it (memory may lack what collection swept or hydration has not read yet, never more).
    func checkMemory(_ process: Process, index: Int) throws {
        let store = process.store
        for key in store.baseKeys {
            guard let data = store.baseData(of: key) else { continue }
            statesChecked += 1
            let memory = ModelRecord(data)
            guard let expected = model.logical.records[key] else {
                throw violation("memory-agrees-with-model", "memory holds \(key) = \(ModelPrinter.record(memory)), which the model lacks", at: index)
            }
            if expected.deleted != memory.deleted {
                throw violation("memory-agrees-with-model", "\(key): memory \(ModelPrinter.record(memory)), model \(ModelPrinter.record(expected))", at: index)
            }
            if expected.deleted { continue }
            for (name, cell) in memory.cells.sorted(by: { CanonicalJSON.utf8Less($0.key, $1.key) }) where expected.cells[name] != cell {
                throw violation("memory-agrees-with-model", "\(key).\(name): memory \(ModelPrinter.record(memory)), model \(ModelPrinter.record(expected))", at: index)
            }
        }
    }

    /// After a writer commit, the image read through SQL is exactly the model's image.
    func checkImage(_ image: Image, index: Int, expectUnchanged: Bool = false) throws {
        let observed = try observe(image, index: index)
        statesChecked += 1
        if let difference = model.image.difference(from: observed, ignoringGeneration: true) {
            let what = expectUnchanged ? "after a failed drain the image changed" : "the image differs from the model"
            throw violation("image-equals-model", "\(what): model vs image: \(difference)", at: index)
        }
    }

    /// The availability check, then what it promised: an available answer reads back exactly the
    /// model's data with the model's fetch time and freshness; a missing answer only when the
    /// model lacks something too.
    func check(_ operation: String, _ variables: [String: JSONValue], expiration: Double?, index: Int) throws -> String {
        guard let process, let plan = plans.plan(operation) else { return "skipped" }
        let resolved = try plan.variables(variables)
        if let code = readFaultForNextCheck { disk.fail(.read, code: code) }
        let result = process.store.check(plan, variables: resolved, expiration: expiration)
        // A read the disk failed on purpose is a miss: the check may then answer missing.
        let readFailed = readFaultForNextCheck != nil && disk.armedFaults(.read) == 0
        if readFaultForNextCheck != nil {
            disk.fail(.read, code: 0, times: 0)
            readFaultForNextCheck = nil
        }
        lastCheck = result
        absorbLog(process)
        let view = model.visible()
        let expected = ModelReader(variables: resolved, lookup: { view.records[$0] }).read(plan)
        statesChecked += 1
        switch result {
        case .missing:
            if readFailed { return "missing (a read failed)" }
            if let expected {
                throw violation("check-missing-only-when-model-lacks", "the check said missing but the model holds \(CanonicalJSON.render(expected))", at: index)
            }
            return "missing"
        case .available(let freshness, let fetchTime, let source):
            let read = process.store.read(plan, variables: resolved)
            guard read.isComplete else {
                throw violation("check-reads-model-data", "available, but reading back leaves fields out: \(CanonicalJSON.render(read.data))", at: index)
            }
            guard let expected else {
                throw violation("check-reads-model-data", "available, but the model lacks data the store read: \(CanonicalJSON.render(read.data))", at: index)
            }
            guard JSONComparison.equal(read.data, expected) else {
                throw violation("check-reads-model-data", "read back \(CanonicalJSON.render(read.data)) ≠ model \(CanonicalJSON.render(expected))", at: index)
            }
            let identity = plan.identity(resolved)
            let expectedTime = model.fetches[identity]?.time
            guard fetchTime == expectedTime else {
                throw violation("check-fetch-time", "fetch time \(fetchTime.map { "\($0)" } ?? "unknown") ≠ model \(expectedTime.map { "\($0)" } ?? "unknown")", at: index)
            }
            let expectedFreshness = model.expectedFreshness(identity, expiration: expiration, now: clock.now())
            guard freshness == expectedFreshness else {
                throw violation("check-freshness", "\(freshness) ≠ model \(expectedFreshness)", at: index)
            }
            return "available \(freshness) from \(source)" + (fetchTime.map { " fetched \($0)" } ?? "")
        }
    }

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
            let read = process.store.read(plan, variables: try plan.variables(variables))
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
                let row = observed.records[RecordKey(key)]
                switch rows[key]! {
                case .null:
                    if row != nil { throw violation("expectation", "expected no row \(key), found \(ModelPrinter.record(row?.record))", at: index) }
                case .object(let cells):
                    guard let row else { throw violation("expectation", "expected a row \(key), found none", at: index) }
                    for name in cells.keys.sorted() {
                        var rendered = ""
                        if let cell = row.record.cells[name] { RecordSourcePrinter.writeValue(cell.value, into: &rendered) }
                        let actual = rendered.isEmpty ? nil : try? JSONValue.parse(rendered)
                        guard let actual, JSONComparison.equal(actual, cells[name]!) else {
                            throw violation("expectation", "row \(key).\(name): expected \(CanonicalJSON.render(cells[name]!)), found \(rendered.isEmpty ? "nothing" : rendered)", at: index)
                        }
                    }
                default:
                    throw violation("expectation", "image expectations are objects of cells or null", at: index)
                }
            }
        }
    }
}

/// JSON equality that treats an int and a double of the same value as equal.
package enum JSONComparison {
    package static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default: return a == b
        }
    }
}
