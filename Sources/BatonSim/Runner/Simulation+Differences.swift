import Baton

/// Failures a person can read: the invariants that compare records, rows or data name each
/// differing cell on a line of its own (`Key.cell: expected … ≠ actual …`), not two whole records
/// to compare by eye.
extension Simulation {
    /// How many differences a violation's one-line ``InvariantViolation/detail`` repeats.
    static let differencesInDetail = 12

    /// A violation whose detail ends in `differences` (the first dozen, on one line), and which
    /// keeps them all, one per line.
    func violation(_ invariant: String, _ headline: String, differences: [String], at index: Int) -> InvariantViolation {
        var detail = headline
        if !differences.isEmpty {
            let shown = differences.prefix(Self.differencesInDetail).joined(separator: "; ")
            let more = differences.count - Self.differencesInDetail
            detail += ": " + shown + (more > 0 ? "; and \(more) more" : "")
        }
        var violation = InvariantViolation(invariant: invariant, detail: detail, eventIndex: index)
        violation.headline = headline
        violation.differences = differences
        return violation
    }

    /// Every record of the store's base that differs from the model's memory, cell by cell, and
    /// every hydrated flag that differs, sorted by key.
    func memoryDifferences(_ store: Store) -> [String] {
        var keys = Set(store.baseKeys.map { OracleText($0.rawValue) })
        keys.formUnion(oracle.memory.keys)
        var lines: [String] = []
        for key in keys.sorted() {
            let recordKey = RecordKey(key.string)
            let actual = store.baseData(of: recordKey).map(OracleBridge.record)
            lines += OracleDifference.records(key: key, expected: oracle.memory[key], actual: actual)
            let (hydrated, expected) = (store.isHydrated(recordKey), oracle.isHydrated(key))
            if hydrated != expected {
                lines.append("\(Legible.text(key)) hydrated: expected \(expected) ≠ actual \(hydrated)")
            }
        }
        return lines
    }

    /// Every record the UI sees (optimistic layers included) that differs from the model's view.
    func visibleDifferences(_ store: Store) -> [String] {
        var keys = Set(store.keys.map { OracleText($0.rawValue) })
        keys.formUnion(store.baseKeys.map { OracleText($0.rawValue) })
        keys.formUnion(oracle.memory.keys)
        var lines: [String] = []
        for key in keys.sorted() {
            let actual = store.data(of: RecordKey(key.string)).map(OracleBridge.record)
            lines += OracleDifference.records(key: key, expected: oracle.visible(key), actual: actual)
        }
        return lines
    }

    /// The rows a check read against the rows the model's walk reads, position by position.
    static func readDifferences(expected: [OracleRead], actual: [OracleRead]) -> [String] {
        var lines: [String] = []
        for position in 0..<max(expected.count, actual.count) {
            let e = position < expected.count ? expected[position].description : "no read"
            let a = position < actual.count ? actual[position].description : "no read"
            if e != a { lines.append("read \(position + 1): expected \(e) ≠ actual \(a)") }
        }
        return lines
    }

    /// What a failed check can be explained by: the records of memory (and of the UI's view) that
    /// differ from the model's, then each place where the data read back differs.
    func checkDifferences(_ store: Store, model: JSONValue?, read: JSONValue?) -> [String] {
        var lines = memoryDifferences(store)
        if oracle.layerCount > 0 || store.layerCount > 0 {
            lines += visibleDifferences(store).map { "visible " + $0 }
        }
        if let model, let read {
            lines += JSONDifference.all(model, read).map { "read back " + $0 }
        }
        return lines
    }
}
