import Baton
import Synchronization

/// The last variables an operation was resolved under, with what they resolved to and the
/// operation's identity under them: a response is read, then committed (and often checked)
/// under the same variables, and rendering them canonically each time was a cost of its own.
///
/// Variables match only when they are the same data byte for byte (``OracleIdentityMemo/same(_:_:)``):
/// Swift's `==` on strings would call two spellings of `é` equal, and the identity tells them apart.
final class OracleIdentityMemo: Sendable {
    private struct Entry: Sendable {
        var provided: [String: JSONValue]
        var resolved: [String: JSONValue]
        var identity: OracleText
    }

    private let last = Mutex<Entry?>(nil)

    /// The resolved variables and identity for `provided`, computed by `make` unless the last
    /// call had the very same variables.
    func resolve(
        _ provided: [String: JSONValue], make: () -> (resolved: [String: JSONValue], identity: OracleText)
    ) -> (resolved: [String: JSONValue], identity: OracleText) {
        if let entry = last.withLock({ $0 }), Self.same(entry.provided, provided) {
            return (entry.resolved, entry.identity)
        }
        let made = make()
        last.withLock { $0 = Entry(provided: provided, resolved: made.resolved, identity: made.identity) }
        return made
    }

    /// True when `a` and `b` hold the same members with the same values, strings and member
    /// names compared by their UTF-8 bytes and doubles by their bits.
    static func same(_ a: [String: JSONValue], _ b: [String: JSONValue]) -> Bool {
        guard a.count == b.count else { return false }
        for (name, value) in a {
            guard let index = b.index(forKey: name) else { return false }
            let (otherName, other) = b[index]
            guard name.utf8.elementsEqual(otherName.utf8), same(value, other) else { return false }
        }
        return true
    }

    /// True when `a` and `b` name the same members (by bytes) with the same values.
    static func same(_ a: JSONObject, _ b: JSONObject) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && same($0.value, $1.value) }
    }

    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.int(let x), .int(let y)): x == y
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.string(let x), .string(let y)): x.utf8.elementsEqual(y.utf8)
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)): same(x, y)
        default: false
        }
    }
}
