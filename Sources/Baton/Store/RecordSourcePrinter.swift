/// Prints records in Relay's record-source shape: one JSON object, keys sorted, one record per line.
///
/// `"Type:id": {"__typename": "Type", "field": value, "link": {"__ref": "Key"},
/// "list": {"__refs": ["Key", null]}}`, field errors under `"__errors"` (each field's list of
/// them by storage key: `message`, `path`, `extensions` when given, `others`, the error's other
/// members, when it had any, and `element`, the indices of the list element the error is about,
/// when the path's trailing indices do not say it), a deleted record as `null`.
public enum RecordSourcePrinter {
    /// The record source of `records` (key → data, `nil` data printing as a deleted record).
    public static func render(_ records: [(RecordKey, RecordData)]) -> String {
        let sorted = records.sorted { CanonicalJSON.utf8Less($0.0.rawValue, $1.0.rawValue) }
        if sorted.isEmpty { return "{}\n" }
        var out = "{\n"
        for (index, (key, data)) in sorted.enumerated() {
            out += "  "
            CanonicalJSON.writeString(key.rawValue, into: &out)
            out += ": "
            writeRecord(data, into: &out)
            out += index == sorted.count - 1 ? "\n" : ",\n"
        }
        out += "}\n"
        return out
    }

    /// Appends one record's JSON (or `null` for a deleted record).
    public static func writeRecord(_ data: RecordData, into out: inout String) {
        if data.deleted {
            out += "null"
            return
        }
        var members: [(String, (inout String) -> Void)] = []
        let cells = data.namedCells
        let errors = cells.filter { !$0.cell.errors.isEmpty }
        if !errors.isEmpty {
            // Each field with errors: the list of them, in the order the response gave them.
            members.append(("__errors", { out in
                out += "{"
                for (i, named) in errors.enumerated() {
                    if i > 0 { out += ", " }
                    CanonicalJSON.writeString(named.storageKey, into: &out)
                    out += ": ["
                    for (j, error) in named.cell.errors.enumerated() {
                        if j > 0 { out += ", " }
                        writeError(error, into: &out)
                    }
                    out += "]"
                }
                out += "}"
            }))
        }
        members.append(("__typename", { out in CanonicalJSON.writeString(data.typename, into: &out) }))
        for named in cells {
            members.append((named.storageKey, { out in writeValue(named.cell.value, into: &out) }))
        }
        members.sort { CanonicalJSON.utf8Less($0.0, $1.0) }
        out += "{"
        for (i, member) in members.enumerated() {
            if i > 0 { out += ", " }
            CanonicalJSON.writeString(member.0, into: &out)
            out += ": "
            member.1(&out)
        }
        out += "}"
    }

    static func writeError(_ error: FieldError, into out: inout String) {
        out += "{"
        // The element the error is about, when its path's trailing indices do not say it (an
        // error that nulled a list element from a field deeper down).
        if error.elementIndices != FieldError.trailingIndices(of: error.path) {
            out += "\"element\": [" + error.elementIndices.map(String.init).joined(separator: ", ") + "], "
        }
        if let extensions = error.extensions {
            out += "\"extensions\": " + extensions + ", "
        }
        out += "\"message\": "
        CanonicalJSON.writeString(error.message, into: &out)
        if let others = error.otherMembers {
            out += ", \"others\": " + others
        }
        out += ", \"path\": "
        CanonicalJSON.writeString(error.path, into: &out)
        out += "}"
    }

    /// Appends one value's JSON in record-source form.
    public static func writeValue(_ value: Value, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += CanonicalJSON.renderDouble(d)
        case .string(let s): CanonicalJSON.writeString(s, into: &out)
        case .object(let text), .decimal(let text): out += text
        case .link(let key):
            out += "{\"__ref\": "
            CanonicalJSON.writeString(key.rawValue, into: &out)
            out += "}"
        case .links(let keys):
            out += "{\"__refs\": ["
            for (i, key) in keys.enumerated() {
                if i > 0 { out += ", " }
                if let key { CanonicalJSON.writeString(key.rawValue, into: &out) } else { out += "null" }
            }
            out += "]}"
        case .list(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                writeValue(item, into: &out)
            }
            out += "]"
        }
    }
}

extension Store {
    /// Every visible record in record-source shape (see ``RecordSourcePrinter``).
    public func recordSource() -> String {
        RecordSourcePrinter.render(keys.compactMap { key in visible(key).map { (key, $0) } })
    }
}
