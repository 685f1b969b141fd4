import Baton

/// Trace lines that name keys, not only counts: the records a commit changed, the rows a check
/// read, the records a collection swept, the rows a drain wrote, stamped and aged out, and what a
/// launch found in the image.
extension Simulation {
    /// How many keys a trace line names before it says how many more there are.
    static let keysPerLine = 8

    /// ` (A, B, …, and 3 more)` for a list of keys, or nothing for none.
    static func keyList<S: Sequence>(_ keys: S) -> String where S.Element: CustomStringConvertible {
        // Only the keys printed are rendered; the rest are counted.
        var shown: [String] = []
        var total = 0
        for key in keys {
            if total < keysPerLine { shown.append(Legible.text(key.description)) }
            total += 1
        }
        guard total > 0 else { return "" }
        let more = total - keysPerLine
        return " (" + shown.joined(separator: ", ") + (more > 0 ? ", and \(more) more" : "") + ")"
    }

    /// `3 records`, `1 record`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// A server commit: what the response held, then the records whose data it changed.
    static func commitLine(_ changeSet: ChangeSet, changed: [OracleText]) -> String {
        let held = "\(count(changeSet.records.count, "record")), \(count(changeSet.deletions.count, "deletion")), \(count(changeSet.connectionPages.count, "page"))"
        return held + (changed.isEmpty ? "; nothing changed" : "; changed \(changed.count)" + keyList(changed))
    }

    /// The rows a check read from the image, with what each lookup found.
    static func readsLine(_ reads: [OracleRead]) -> String {
        reads.isEmpty ? "" : "; read \(count(reads.count, "row"))" + keyList(reads)
    }

    /// What a drain that committed wrote, from the model's queue and image before it: records,
    /// root fields and fetch times written, rows whose `used` it stamped, rows it aged out.
    func drainLine(queue: [OracleBatch], touches: OracleTouches, before: OracleImage, evicts: Bool) -> String {
        var rows: [OracleText] = []
        var seen = Set<OracleText>()
        var fields = Set<OracleText>()
        var fetched = Set<OracleText>()
        for batch in queue {
            for snapshot in batch.snapshots where seen.insert(snapshot.key).inserted { rows.append(snapshot.key) }
            fields.formUnion(batch.rootFields.keys)
            if let fetch = batch.fetch { fetched.insert(fetch.operation) }
        }
        var parts = ["committed \(Self.count(rows.count, "row"))" + Self.keyList(rows)]
        if !fields.isEmpty { parts.append(Self.count(fields.count, "root field") + Self.keyList(fields.sorted())) }
        if !fetched.isEmpty { parts.append(Self.count(fetched.count, "fetch time") + Self.keyList(fetched.sorted())) }
        let stamped = touches.records.count + touches.rootFields.count + touches.fetches.count
        if stamped > 0 {
            let names = touches.records.sorted().map(\.string) + touches.rootFields.sorted().map { "root \($0)" }
                + touches.fetches.sorted().map { "fetch \($0)" }
            parts.append("stamped \(Self.count(stamped, "row")) read" + Self.keyList(names))
        }
        if evicts {
            let oldest = before.generation - 1
            let aged = before.records.filter { $0.value.used < oldest }.keys.sorted()
            let fields = before.root.filter { $0.value.used < oldest }.count
            let times = before.fetches.filter { $0.value.used < oldest }.count
            if !aged.isEmpty || fields + times > 0 {
                parts.append("aged out \(Self.count(aged.count, "row"))" + Self.keyList(aged)
                    + ", \(Self.count(fields, "root field")) and \(Self.count(times, "fetch time"))")
            }
        }
        return parts.joined(separator: ", ")
    }

    /// What a launch found in the image, and which of the states the model allowed it is.
    static func launchLine(_ observed: OracleImage, found: Int?, of allowed: Int) -> String {
        var line = "found \(count(observed.records.count, "row")), \(count(observed.root.count, "root field")), \(count(observed.fetches.count, "fetch time"))"
        line += keyList(observed.records.keys.sorted())
        if let found, allowed > 1 {
            line += found == allowed - 1 ? ", the newest of \(allowed) allowed states" : ", allowed state \(found + 1) of \(allowed) (an older commit)"
        }
        return line
    }
}
