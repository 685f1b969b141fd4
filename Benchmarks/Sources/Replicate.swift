import Baton

/// Larger responses of the same shape, for the ingest's scaling table: the response's longest
/// list of objects repeated `times` times, every `id` in copy `c > 0` suffixed `~c`, so every copy
/// normalizes into records of its own.
///
/// The text is re-rendered with sorted keys at every size (1× included), so the three sizes share
/// one member order.
enum Replicate {
    static func response(_ bytes: [UInt8], times: Int) throws -> [UInt8] {
        let value = try JSONValue.parse(bytes)
        guard let path = longestList(value, at: []) else { throw BenchError("the response has no list of objects to repeat") }
        let grown = replacing(value, at: path[...]) { list in
            (0..<times).flatMap { copy in copy == 0 ? list : list.map { suffixIDs($0, "~\(copy)") } }
        }
        return Array(CanonicalJSON.render(grown).utf8)
    }

    /// The member path of the longest array of objects reached through objects alone.
    private static func longestList(_ value: JSONValue, at path: [String]) -> [String]? {
        var best: (length: Int, path: [String])?
        func visit(_ value: JSONValue, _ path: [String]) {
            guard case .object(let members) = value else { return }
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                if case .array(let items) = member, items.contains(where: { if case .object = $0 { true } else { false } }) {
                    if items.count > best?.length ?? 0 { best = (items.count, path + [name]) }
                } else {
                    visit(member, path + [name])
                }
            }
        }
        visit(value, path)
        return best?.path
    }

    private static func replacing(_ value: JSONValue, at path: ArraySlice<String>, _ transform: ([JSONValue]) -> [JSONValue]) -> JSONValue {
        guard let step = path.first else {
            if case .array(let items) = value { return .array(transform(items)) }
            return value
        }
        guard case .object(var members) = value, let member = members[step] else { return value }
        members[step] = replacing(member, at: path.dropFirst(), transform)
        return .object(members)
    }

    private static func suffixIDs(_ value: JSONValue, _ suffix: String) -> JSONValue {
        switch value {
        case .object(let members):
            var out: [String: JSONValue] = [:]
            for (name, member) in members {
                if name == "id", case .string(let id) = member {
                    out[name] = .string(id + suffix)
                } else {
                    out[name] = suffixIDs(member, suffix)
                }
            }
            return .object(out)
        case .array(let items):
            return .array(items.map { suffixIDs($0, suffix) })
        default:
            return value
        }
    }
}
