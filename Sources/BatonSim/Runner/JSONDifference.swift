import Baton

/// The places two JSON values differ (strings by their bytes), as paths and the two values
/// there: short failure messages about large documents.
package enum JSONDifference {
    /// The first difference: `path: a ≠ b`.
    package static func first(_ a: JSONValue, _ b: JSONValue, path: String = "$") -> String? {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            for key in names(x, y) {
                guard let left = x[key] else { return "\(path).\(Legible.text(key)): absent ≠ \(short(y[key]!))" }
                guard let right = y[key] else { return "\(path).\(Legible.text(key)): \(short(left)) ≠ absent" }
                if let difference = first(left, right, path: path + "." + Legible.text(key)) { return difference }
            }
            return nil
        case (.array(let x), .array(let y)):
            for (index, (left, right)) in zip(x, y).enumerated() {
                if let difference = first(left, right, path: "\(path)[\(index)]") { return difference }
            }
            return x.count == y.count ? nil : "\(path): \(x.count) elements ≠ \(y.count)"
        default:
            return JSONComparison.equal(a, b) ? nil : "\(path): \(short(a)) ≠ \(short(b))"
        }
    }

    /// Every difference, one line each (`path: expected … ≠ actual …`), at most `limit`.
    package static func all(_ expected: JSONValue, _ actual: JSONValue, limit: Int = 100) -> [String] {
        var lines: [String] = []
        collect(expected, actual, path: "$", limit: limit, into: &lines)
        return lines
    }

    private static func collect(_ a: JSONValue, _ b: JSONValue, path: String, limit: Int, into lines: inout [String]) {
        guard lines.count < limit else { return }
        switch (a, b) {
        case (.object(let x), .object(let y)):
            for key in names(x, y) {
                switch (x[key], y[key]) {
                case (let left?, let right?): collect(left, right, path: path + "." + Legible.text(key), limit: limit, into: &lines)
                case (let left?, nil): add("\(path).\(Legible.text(key)): expected \(short(left)) ≠ actual absent", limit, &lines)
                case (nil, let right?): add("\(path).\(Legible.text(key)): expected absent ≠ actual \(short(right))", limit, &lines)
                case (nil, nil): break
                }
            }
        case (.array(let x), .array(let y)):
            for (index, (left, right)) in zip(x, y).enumerated() {
                collect(left, right, path: "\(path)[\(index)]", limit: limit, into: &lines)
            }
            if x.count != y.count { add("\(path): expected \(x.count) elements ≠ actual \(y.count)", limit, &lines) }
        default:
            if !JSONComparison.equal(a, b) { add("\(path): expected \(short(a)) ≠ actual \(short(b))", limit, &lines) }
        }
    }

    /// Every member name of either object, in byte order, each once by its bytes (a set of
    /// Swift strings would take two names that differ only in their Unicode normalization for
    /// one, and a member missing from one side could pass unseen).
    private static func names(_ x: JSONObject, _ y: JSONObject) -> [String] {
        var all = x.keys + y.keys
        all.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var names: [String] = []
        for name in all where !(names.last.map { $0.utf8.elementsEqual(name.utf8) } ?? false) { names.append(name) }
        return names
    }

    private static func add(_ line: String, _ limit: Int, _ lines: inout [String]) {
        if lines.count < limit { lines.append(line) }
    }

    private static func short(_ value: JSONValue) -> String {
        let text = CanonicalJSON.render(value)
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }
}
