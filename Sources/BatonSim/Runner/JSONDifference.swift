import Baton

/// The first place two JSON values differ (strings by their bytes), as a path and the two values
/// there: short failure messages about large documents.
package enum JSONDifference {
    package static func first(_ a: JSONValue, _ b: JSONValue, path: String = "$") -> String? {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            for key in Set(x.keys).union(y.keys).sorted(by: CanonicalJSON.utf8Less) {
                guard let left = x[key] else { return "\(path).\(key): absent ≠ \(short(y[key]!))" }
                guard let right = y[key] else { return "\(path).\(key): \(short(left)) ≠ absent" }
                if let difference = first(left, right, path: path + "." + key) { return difference }
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

    private static func short(_ value: JSONValue) -> String {
        let text = CanonicalJSON.render(value)
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }
}
