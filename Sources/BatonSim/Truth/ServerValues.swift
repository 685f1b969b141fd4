import Baton

/// The values the server generates: scalars of every kind from a hash, entity ids, and the
/// tricky strings that exercise a JSON string decoder and the keys built from strings.
enum ServerValues {
    /// Strings that break naive decoders and naive keys: quotes, backslashes, control characters,
    /// characters outside the Basic Multilingual Plane (escaped as surrogate pairs), combining
    /// sequences beside their precomposed forms, separators JavaScript treats as line breaks.
    static let trickyStrings: [String] = [
        "say \"hi\"", "back\\slash", "tab\tand\nnewline\r", "bell\u{7} and nul\u{0}", "unit\u{1F}sep",
        "emoji 🦄", "flag 🇫🇷 and family 👨‍👩‍👧", "clef 𝄞", "cafe\u{301}", "caf\u{E9}", "</script> / slash",
        "line\u{2028}para\u{2029}", "zero\u{200B}width", "del\u{7F}", "\"🦄\\\u{1}é\"", "",
    ]

    /// The decorations a tricky id gets around its plain form, by index.
    static func trickyID(_ plain: String, template: Int) -> String {
        switch template % 8 {
        case 0: plain + "\"q"
        case 1: "a\\" + plain
        case 2: "🦄" + plain
        case 3: "caf\u{E9}" + plain
        case 4: "cafe\u{301}" + plain
        case 5: "\u{1}" + plain + "\t"
        case 6: plain + "/x"
        default: "\u{2028}" + plain
        }
    }

    /// For one `String` field in eight, a value whose every renewal
    /// flips between `café` precomposed and decomposed: the next version equal to the last by
    /// Swift's `==` and different in its bytes, as a server that normalizes text now and then
    /// sends it. A store that compares values with `==` keeps the old bytes. `stable` is the
    /// field's hash without its version; nil for the other fields.
    static func twin(_ stable: UInt64, field: String, version: Int) -> String? {
        let mixed = ServerHash.mix(stable ^ 0x7477_696E)
        guard mixed % 8 == 0 else { return nil }
        return version % 2 == 0 ? "\(field) caf\u{E9} \(mixed % 100)" : "\(field) cafe\u{301} \(mixed % 100)"
    }

    /// For one `Float` field in eight, a value whose every renewal flips between zero and
    /// negative zero: equal by `==`, apart in their bits and in print (`0` and `-0`). A store that
    /// compares doubles with `==` keeps the old sign. `stable` is the field's hash without its
    /// version; nil for the other fields.
    static func signedZero(_ stable: UInt64, version: Int) -> Double? {
        let mixed = ServerHash.mix(stable ^ 0x7A65_726F)
        guard mixed % 8 == 0 else { return nil }
        return version % 2 == 0 ? 0.0 : -0.0
    }

    /// A string for `field` from `hash`: plain ASCII most of the time, tricky at `trickyRate`.
    static func string(_ hash: UInt64, field: String, trickyRate: Double) -> String {
        let mixed = ServerHash.mix(hash)
        if ServerHash.chance(mixed, trickyRate) {
            let tricky = trickyStrings[Int(mixed % UInt64(trickyStrings.count))]
            return mixed & 0x10 == 0 ? tricky : "\(field) \(tricky)"
        }
        return "\(field) \(hash % 1000)"
    }

    /// A leaf value of the scalar or enum `type` from `hash`.
    static func leaf(_ type: Schema.NamedType, hash: UInt64, field: String, trickyRate: Double) -> JSONValue {
        if type.kind == .enumeration {
            guard !type.enumValues.isEmpty else { return .null }
            return .string(type.enumValues[Int(hash % UInt64(type.enumValues.count))].name)
        }
        switch type.name {
        case "Int": return .int(int(hash))
        case "Float": return .double(float(hash))
        case "Boolean": return .bool(hash & 1 == 1)
        case "ID": return .string("\(field)-\(hash % 1000)")
        case "String": return .string(string(hash, field: field, trickyRate: trickyRate))
        default:
            if holdsJSON(type.name) { return structured(hash, field: field, trickyRate: trickyRate, depth: 0) }
            return .string(custom(type.name, hash: hash, field: field, trickyRate: trickyRate))
        }
    }

    /// Whether a custom scalar's name says its values are any JSON (`JSON`, `JSONObject`, `jsonb`,
    /// `Map`, `Any`, `Object`), as many servers' are; `JSONString` says they are text.
    static func holdsJSON(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower.contains("json") { return !lower.contains("string") }
        return ["map", "any", "object"].contains(lower)
    }

    /// Any JSON from `hash`: mostly a small object or array, sometimes a bare scalar. Member names
    /// include the ones a store uses for its own structure (`id`, `__typename`, `__ref`), which
    /// inside a scalar are plain data. Some numbers are ones a double cannot hold
    /// (``ServerExactNumbers``).
    static func structured(_ hash: UInt64, field: String, trickyRate: Double, depth: Int) -> JSONValue {
        let mixed = ServerHash.mix(hash &+ UInt64(depth))
        // About one value in a hundred is arrays nested deep around the image's limits (a row's
        // lists nest at most 512 deep, the response's own limit; 128 until 2026-12-06, when such a
        // value was stored and then read back from the image as damage).
        if depth == 0, mixed % 97 == 0 { return deepArray(mixed >> 8) }
        // `café` both precomposed and decomposed: an object that draws both holds two names
        // Swift's `==` calls equal, each of which the store and a read must keep.
        let names = ["id", "__typename", "__ref", "__refs", "count", "a b", "caf\u{E9}", "", "cafe\u{301}", "z"]
        let choice = depth >= 2 ? mixed % 4 + 2 : mixed % 6
        // About one number in ten is one a double cannot hold (``ServerExactNumbers``), bare,
        // in a list or in an object: drawn from a stream of its own, so every other value is
        // drawn as it was before 2026-12-06.
        let exact = ServerHash.mix(mixed ^ 0x6578_6163_7400)
        if choice == 2 || choice == 3, exact % 10 == 0 { return .decimal(ServerExactNumbers.draw(exact >> 8)) }
        switch choice {
        case 0:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int((mixed >> 8) % 4) {
                let name = names[Int((mixed >> (12 + 4 * UInt64(index))) % UInt64(names.count))]
                members[name] = structured(ServerHash.mix(mixed &+ UInt64(index)), field: field, trickyRate: trickyRate, depth: depth + 1)
            }
            return .object(members)
        case 1:
            let count = Int((mixed >> 8) % 4)
            return .array((0..<count).map { structured(ServerHash.mix(mixed ^ UInt64($0 + 1)), field: field, trickyRate: trickyRate, depth: depth + 1) })
        case 2: return .int(int(mixed >> 16))
        case 3: return .double(float(mixed >> 16))
        case 4: return (mixed >> 16) % 3 == 0 ? .null : .bool((mixed >> 18) & 1 == 1)
        default: return .string(string(mixed >> 16, field: field, trickyRate: trickyRate))
        }
    }

    /// Arrays nested 127 to 300 deep around one scalar, as a JSON column holding a tree might be;
    /// a response holds them with room to spare under its 512 levels.
    static func deepArray(_ hash: UInt64) -> JSONValue {
        let depth = [127, 128, 129, 130, 200, 300][Int(hash % 6)]
        var value: JSONValue = (hash >> 8) % 2 == 0 ? .int(Int((hash >> 16) % 100)) : .array([])
        for _ in 0..<depth { value = .array([value]) }
        return value
    }

    /// Mostly small numbers; sometimes the ends of the 32-bit range.
    static func int(_ hash: UInt64) -> Int {
        let mixed = ServerHash.mix(hash)
        if mixed % 20 == 0 {
            return [Int(Int32.min), Int(Int32.max), 0, -1][Int((mixed >> 8) % 4)]
        }
        return Int(hash % 1000)
    }

    /// Quarters, whole numbers, and now and then a very large or very small magnitude or
    /// negative zero (which a whole-number spelling writes `-0`).
    static func float(_ hash: UInt64) -> Double {
        let mixed = ServerHash.mix(hash)
        switch mixed % 10 {
        case 0: return [1e20, 1.5e-7, 123_456.789, -0.125, 6.02214076e23, -0.0][Int((mixed >> 8) % 6)]
        case 1, 2: return Double(Int(hash % 200) - 20)
        default: return Double(Int(hash % 4000) - 400) / 4
        }
    }

    /// A custom scalar, as a string shaped by the scalar's name when it says what it is.
    static func custom(_ name: String, hash: UInt64, field: String, trickyRate: Double) -> String {
        let lower = name.lowercased()
        if lower.contains("date") || lower.contains("time") {
            let day = Int(hash % 28) + 1
            let month = Int((hash >> 8) % 12) + 1
            let minute = Int((hash >> 16) % 60)
            return "2026-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)T12:\(minute < 10 ? "0" : "")\(minute):00Z"
        }
        if lower.contains("uri") || lower.contains("url") {
            return "https://example.com/\(field)/\(hash % 1000)"
        }
        return string(hash, field: field, trickyRate: trickyRate)
    }

    /// What a client would guess for a field it edits optimistically: recognisably not a server value.
    static func guess(_ type: Schema.NamedType, field: String) -> JSONValue {
        if type.kind == .enumeration { return type.enumValues.last.map { .string($0.name) } ?? .null }
        switch type.name {
        case "Int": return .int(-7)
        case "Float": return .double(-7.5)
        case "Boolean": return .bool(true)
        default: return .string("optimistic \(field)")
        }
    }
}
