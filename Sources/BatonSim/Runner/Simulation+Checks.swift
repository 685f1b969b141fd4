import Baton

extension Simulation {
    /// Memory agrees with the model exactly: every record of the store's base is the model's,
    /// cell for cell, with the same hydrated flag, and every record the UI sees (layers included)
    /// is the model's visible record.
    func checkMemory(_ process: Process, index: Int) throws {
        let store = process.store
        // The model's memory, read once (reading `oracle` per key copies it). Every record of
        // the store must be the model's, and the two must hold as many: then the key sets agree.
        let model = oracle.base
        let hydrated = oracle.hydrated
        var agrees = store.baseCount == model.count
        if agrees {
            store.forEachBaseRecord { key, data, isHydrated in
                guard agrees else { return }
                let text = OracleText(key.rawValue)
                guard let expected = model[text], isHydrated == hydrated.contains(text) else {
                    agrees = false
                    return
                }
                // The comparison is a pure function of the two records: when both are the very
                // storage found equal before (most records do not change between events), they
                // are equal now. Only identity counts here, never `==` (the store's `==` calls
                // 0.0 and -0.0 equal; the comparison below does not).
                if let known = matchedRecords[key], StorageIdentity.same(known.data, data), StorageIdentity.same(known.model, expected) {
                    return
                }
                guard OracleBridge.matches(data, expected, slotText: { slotTexts.text($0) }) else {
                    agrees = false
                    return
                }
                matchedRecords[key] = (data, expected)
            }
        }
        statesChecked += model.count
        if !agrees {
            throw violation("memory-agrees-with-model", "model vs memory", differences: memoryDifferences(store), at: index)
        }
        guard oracle.layerCount > 0 || store.layerCount > 0 else { return }
        // Every key either side sees: the model's visible record must be the store's, compared
        // without building the model's form of the store's record. Which key fails first does
        // not matter: the violation lists every difference.
        let overlay = oracle.overlay
        let layered = oracle.layerCount > 0
        func agreesVisibly(_ key: RecordKey, _ text: OracleText) -> Bool {
            let expected = layered ? (overlay[text] ?? model[text]) : model[text]
            switch (store.data(of: key), expected) {
            case (nil, nil): return true
            case (let data?, let expected?):
                // As for the base: the very storage found equal before is equal now.
                if let known = matchedVisible[key], StorageIdentity.same(known.data, data), StorageIdentity.same(known.model, expected) {
                    return true
                }
                guard OracleBridge.matches(data, expected, slotText: { slotTexts.text($0) }) else { return false }
                matchedVisible[key] = (data, expected)
                return true
            default: return false
            }
        }
        var visibleAgrees = true
        for key in store.unorderedKeys where !agreesVisibly(key, OracleText(key.rawValue)) {
            visibleAgrees = false
            break
        }
        if visibleAgrees {
            for text in model.keys where !agreesVisibly(RecordKey(text.string), text) {
                visibleAgrees = false
                break
            }
        }
        if !visibleAgrees {
            throw violation("visible-agrees-with-model", "model vs what the UI sees", differences: visibleDifferences(store), at: index)
        }
    }

    /// The image read through SQL, decoded by the model's own reader. Rows that fail to verify
    /// are a violation, except record rows the runner rotted (left out, and listed in `damaged`).
    func observe(_ image: Image, index: Int) throws -> OracleImage {
        try observeKeepingDamage(image, index: index).image
    }

    /// The image as ``observe(_:index:)`` reads it, with the rows that failed (`damaged`) and,
    /// among them, those that verify but use a name whose checksum fails (`hidden`).
    func observeKeepingDamage(_ image: Image, index: Int) throws -> (image: OracleImage, damaged: ImageDamage, hidden: HiddenRows) {
        let tables: ImageRawTables
        do {
            tables = try image.rawTables()
        } catch {
            throw violation("image-readable", "the image's tables cannot be read: \(error)", at: index)
        }
        let (decoded, problems) = Oracle.decodeKeepingDamage(OracleBridge.raw(tables), memo: rowMemo)
        // A row fails because the runner rotted it, or because it uses a name whose checksum the
        // runner rotted: in any state a crash may return to, not only in the image the rot read
        // (a power loss may bring back a row that used the name and had aged out since).
        let unexplained = problems.filter { problem in
            guard let table = ImageDamage.Table(rawValue: problem.table) else { return true }
            if let name = problem.damagedName, oracle.rotted.contains(OracleText("#\(name)"), in: .names) { return false }
            return !oracle.rotted.contains(OracleText(problem.key), in: table)
        }
        if !unexplained.isEmpty {
            throw violation("image-rows-decode", "\(ImageDecodeProblem(entries: unexplained))", at: index)
        }
        return (decoded, ImageDamage(problems), HiddenRows(problems.filter { $0.damagedName != nil }))
    }

    /// After a drain (and after a failed one: unchanged), the image is exactly the model's image,
    /// `used` stamps included.
    func checkImage(_ image: Image, index: Int, expectUnchanged: Bool = false) throws {
        let observed = try observe(image, index: index)
        if !expectUnchanged { revivedByLastDrain = oracle.reviveDormant(seen: observed) }
        statesChecked += 1
        let lines = OracleDifference.images(expected: oracle.image, actual: observed)
        if !lines.isEmpty {
            let what = expectUnchanged ? "after a failed drain the image changed" : "the image differs from the model"
            throw violation("image-equals-model", "\(what): model vs image", differences: lines, at: index)
        }
    }

    /// The availability check, then what it promised: the answer, where it came from, the rows
    /// it read, the fetch time and freshness, and (when available) exactly the model's data.
    func check(_ operation: String, _ variables: [String: JSONValue], expiration: Double?, index: Int) throws -> String {
        guard let process, let plan = plans.plan(operation) else { return "skipped" }
        let resolved = try resolve(plan, operation, variables, index: index)
        _ = process.recorder.takeLookups()
        _ = process.recorder.takeFaults()
        let (result, faults, outside) = checkUnderReadFault(process) {
            storeWork.time { process.store.check(plan, variables: resolved, expiration: expiration) }
        }
        lastCheck = result
        let lookups = process.recorder.takeLookups()
        var unreadable = Set<OracleText>()
        for case .record(let key, .unreadable) in lookups { unreadable.insert(OracleText(key.rawValue)) }
        if !unreadable.isEmpty, faults.failedLookups.isEmpty {
            throw violation(
                "read-fails-only-under-fault",
                "\(Self.count(unreadable.count, "row")) could not be read while the disk failed no read" + Self.keyList(unreadable.sorted()),
                at: index)
        }
        let expected = oracle.check(
            operation: operation, variables: variables, expiration: expiration, now: clock.now(), hasImage: oracle.hasImage,
            readFaults: faults)
        if outside > 0 { note("  \(outside) read fault(s) fired outside the check's lookups") }
        statesChecked += 1
        let reads = lookups.map(OracleBridge.read)
        markRead(reads)
        noteRowsRead(reads)
        if reads != expected.reads {
            throw violation(
                "check-reads-rows", "the check read \(reads.count) rows; the model's walk reads \(expected.reads.count)",
                differences: Self.readDifferences(expected: expected.reads, actual: reads), at: index)
        }
        switch result {
        case .missing:
            if expected.available {
                throw violation(
                    "check-missing-only-when-model-lacks", "the check said missing; the model has it all (\(expected.source?.rawValue ?? "?"))",
                    differences: checkDifferences(process.store, model: nil, read: nil), at: index)
            }
            // A screen that reads anyway gets what memory has: partial data, and where it found nothing.
            let read = process.store.read(plan, variables: resolved)
            let model = oracle.expectedRead(operation: operation, variables: variables)
            if read.isComplete != model.isComplete || read.missing != model.missing || JSONDifference.first(model.data, read.data) != nil {
                throw violation(
                    "check-reads-model-data",
                    "missing, and reading back anyway differs (complete: store \(read.isComplete), model \(model.isComplete); missing: store \(read.missing), model \(model.missing))",
                    differences: checkDifferences(process.store, model: model.data, read: read.data), at: index)
            }
            partialReadsMissing += read.missing.count
            return "missing" + (unreadable.isEmpty ? "" : " (\(unreadable.count) rows unreadable)") + Self.readsLine(reads) + Self.faultLine(faults)
        case .available(let freshness, let fetchTime, let source):
            guard expected.available else {
                throw violation(
                    "check-reads-model-data", "the check said available; the model lacks data the operation selects",
                    differences: checkDifferences(process.store, model: nil, read: nil), at: index)
            }
            if expected.source?.rawValue != "\(source)" {
                throw violation("check-source", "the check answered from \(source); the model from \(expected.source?.rawValue ?? "nowhere")", at: index)
            }
            if fetchTime?.bitPattern != expected.fetchTime?.bitPattern {
                throw violation(
                    "check-fetch-time", "fetch time \(fetchTime.map { "\($0)" } ?? "unknown") ≠ model \(expected.fetchTime.map { "\($0)" } ?? "unknown")",
                    differences: ["fetch time of \(oracle.identity(operation, variables)): expected \(expected.fetchTime.map { "\($0)" } ?? "unknown") ≠ actual \(fetchTime.map { "\($0)" } ?? "unknown")"],
                    at: index)
            }
            if expected.freshness?.rawValue != "\(freshness)" {
                throw violation("check-freshness", "\(freshness) ≠ model \(expected.freshness?.rawValue ?? "?")", at: index)
            }
            let read = process.store.read(plan, variables: resolved)
            let model = oracle.expectedRead(operation: operation, variables: variables)
            if !read.isComplete || !model.isComplete {
                throw violation(
                    "check-reads-model-data", "available, but reading back is incomplete (store: \(read.isComplete), model: \(model.isComplete))",
                    differences: checkDifferences(process.store, model: model.data, read: read.data), at: index)
            }
            if JSONDifference.first(model.data, read.data) != nil {
                throw violation(
                    "check-reads-model-data", "model vs read back", differences: checkDifferences(process.store, model: model.data, read: read.data),
                    at: index)
            }
            let readErrors = JSONValue.array(read.errors.map(\.json))
            if let difference = JSONDifference.first(.array(model.errors), readErrors) {
                throw violation(
                    "check-reads-model-errors", "the field errors read back differ from the model's: \(difference)",
                    differences: ["errors: expected \(Legible.text(CanonicalJSON.render(.array(model.errors)))) ≠ actual \(Legible.text(CanonicalJSON.render(readErrors)))"],
                    at: index)
            }
            errorsReadBack += model.errors.count
            fieldsWithSeveralErrorsReadBack += Self.fieldsWithSeveralErrors(model.errors)
            // Counted from the store's answer once it has matched the model's.
            errorsAtNulledElementsReadBack += read.errors.filter { read in
                let indices = read.error.elementIndices
                return !indices.isEmpty && indices != FieldError.trailingIndices(of: read.error.path)
                    && read.path.suffix(indices.count) == indices.map { .int($0) }
            }.count
            errorsWithExtensionsReadBack += read.errors.filter { $0.error.extensions != nil }.count
            errorsWithOtherMembersReadBack += read.errors.filter { $0.error.otherMembers != nil }.count
            return "available \(freshness) from \(source)" + (fetchTime.map { " fetched \($0)" } ?? "") + Self.readsLine(reads)
                + Self.faultLine(faults)
        }
    }

    /// How many fields a read's errors name more than once: a cell's errors come one after another,
    /// at its field's path (list indices after it for an element's error).
    static func fieldsWithSeveralErrors(_ errors: [JSONValue]) -> Int {
        var fields = 0
        var previous: [JSONValue]?
        var counted = false
        for error in errors {
            guard case .object(let members) = error, case .array(var path)? = members["path"] else { continue }
            while case .int? = path.last { path.removeLast() }
            if path == previous {
                if !counted { fields += 1 }
                counted = true
            } else {
                previous = path
                counted = false
            }
        }
        return fields
    }

    /// Where the disk failed the check's reads, for the trace.
    static func faultLine(_ faults: OracleReadFaults) -> String {
        guard !faults.failedLookups.isEmpty else { return "" }
        let positions = faults.failedLookups.sorted().map { "\($0 + 1)" }.joined(separator: ", ")
        return "; the disk failed a read in lookup \(positions)" + (faults.transient ? " (busy)" : "")
    }

    /// The store's variables for a plan; variables the store refuses are a violation (the server's
    /// drawer, or a replay file, gave values the operation's declarations do not accept).
    func resolve(_ plan: Plan, _ operation: String, _ variables: [String: JSONValue], index: Int) throws -> Variables {
        do {
            return try plan.variables(variables)
        } catch {
            throw violation("variables-accepted", "\(operation): the store refuses the variables \(CanonicalJSON.render(.object(variables))): \(error)", at: index)
        }
    }
}

/// JSON equality that treats an int and a double of the same value as equal, and compares strings
/// by their bytes (Swift's `==` on `String` calls `"é"` and `"e\u{301}"` equal; a store must not).
package enum JSONComparison {
    package static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default: return a == b
        }
    }
}

/// Whether two records are the same storage: the same type name, deletion flag and the very same
/// cells' storage (not merely equal cells). Storage a checker still holds cannot change in place.
enum StorageIdentity {
    static func same(_ a: RecordData, _ b: RecordData) -> Bool {
        a.deleted == b.deleted && OracleText(a.typename) == OracleText(b.typename) && a.cells.sharesStorage(with: b.cells)
    }

    static func same(_ a: OracleRecord, _ b: OracleRecord) -> Bool {
        a.deleted == b.deleted && OracleText(a.typename) == OracleText(b.typename) && same(a.cells, b.cells)
    }

    /// True when both dictionaries share one storage object (a dictionary is one reference).
    static func same<Key, Value>(_ a: [Key: Value], _ b: [Key: Value]) -> Bool {
        unsafeBitCast(a, to: UnsafeRawPointer.self) == unsafeBitCast(b, to: UnsafeRawPointer.self)
    }
}

extension Simulation {
    /// Remembers the record rows a check found (for bit rot to prefer) and counts the lookups
    /// that met a rotted row or root cell.
    func noteRowsRead(_ reads: [OracleRead]) {
        for read in reads {
            switch read {
            case .record(let key, .present), .record(let key, .deleted):
                if let old = recentlyReadRows.firstIndex(of: key) { recentlyReadRows.remove(at: old) }
                recentlyReadRows.append(key)
                if recentlyReadRows.count > Self.recentReadLimit { recentlyReadRows.removeFirst() }
            case .record(let key, .absent):
                if oracle.rotted.contains(key, in: .records) { rottedRowsRead += 1 }
            case .rootField(let key, false):
                if oracle.rotted.contains(key, in: .root) { rottedRowsRead += 1 }
            case .fetch(let key, false):
                if oracle.rotted.contains(key, in: .fetches) { rottedRowsRead += 1 }
            default:
                break
            }
        }
    }
}
