/// The pools leaf values are drawn from: numbers at the edges, strings that need every kind of
/// escape (quotes, backslashes, control characters, non-ASCII, astral scalars), odd ids.
enum GenValues {
    /// Values of GraphQL's `Int`, which is 32 bits: its edges, and the edges of smaller widths.
    static let ints = [
        0, 1, -1, 2, 7, 42, -42, 1000, -99_999, 2_147_483_647, -2_147_483_648, 65_536,
        16_777_217, 123_456_789, 2_147_483_646, -2_147_483_647,
    ]

    /// Numbers for the `JSON` scalar, which takes any: the edges of 64 bits and of doubles' integers.
    static let wideInts = [
        0, 1, -1, 2, 7, 42, -42, 1000, -99_999, 2_147_483_647, -2_147_483_648, 4_294_967_296,
        9_007_199_254_740_993, 123_456_789, Int.max, Int.min,
    ]

    static let doubles: [Double] = [
        1.5, -0.25, 0.1, 3.141592653589793, 2.5e-8, 6.02e23, -1e-300, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
        0.3333333333333333, 100.125, -7.75, 1e21, 123456.789, -0.5, 2.0,
    ]

    static let stringPieces = [
        "", "plain", "with space", "quote\"inside", "back\\slash", "tab\there", "new\nline", "cr\rlf",
        "nul\u{0}byte", "bell\u{7}", "unit\u{1F}sep", "del\u{7F}", "\u{8}\u{C}", "é", "naïve café", "日本語",
        "😀", "a😀b🎉", "𝄞", "\u{2028}\u{2029}", "/slash/", "\u{FEFF}bom", "\u{FFFD}", "null", "{\"json\":1}",
        "\\u0041", "Ünïcödé", "  padded  ", "#hash", "$dollar", "}{][",
    ]

    /// Entity ids: a few common ones (so entities meet again) and a few odd ones.
    static let ids = ["1", "2", "3", "1", "2", "1", "2", "7", "é", "q\"t", "a b", "0", "😀", "x/y", "back\\slash"]

    static func int(_ rng: inout GenRandom) -> Int {
        rng.chance(60) ? rng.int(-100...100) : rng.pick(ints)
    }

    /// An integer for the `JSON` scalar.
    static func wideInt(_ rng: inout GenRandom) -> Int {
        rng.chance(60) ? rng.int(-100...100) : rng.pick(wideInts)
    }

    /// A double; most are not integers (an integral one may come back as a double of a field
    /// sent as an int, which the comparison accepts).
    static func double(_ rng: inout GenRandom) -> Double {
        if rng.chance(50) { return rng.pick(doubles) }
        return Double(rng.int(-4000...4000)) / 16 + 1.0 / 32
    }

    static func string(_ rng: inout GenRandom) -> String {
        var out = ""
        for _ in 0..<rng.weighted([1, 5, 3, 2]) {
            out += rng.pick(stringPieces)
        }
        return out
    }

    /// Text of several lines, each fit for a block string (no quote, backslash or edge whitespace).
    static func lines(_ rng: inout GenRandom) -> String {
        let pool = ["first line", "second: ünï", "tab\tinside", "emoji 😀", "#not a comment", "{braces}", "a", "x = 1,"]
        return (0..<rng.int(2...4)).map { _ in rng.pick(pool) }.joined(separator: "\n")
    }

    static func id(_ rng: inout GenRandom) -> String {
        rng.pick(ids)
    }

    static let objectKeys = ["a", "b", "key", "ünï", "with space", "quote\"", "", "0", "__typename", "id", "nested", "😀"]

    /// A JSON object for the `JSON` scalar: members of every JSON kind, nested a little.
    static func customObject(_ rng: inout GenRandom, depth: Int) -> GenJSON {
        var keys = rng.shuffled(objectKeys)
        var members: [(String, GenJSON)] = []
        for _ in 0..<rng.int(0...(depth >= 3 ? 1 : 3)) {
            members.append((keys.removeLast(), customMember(&rng, depth: depth)))
        }
        return .object(members)
    }

    private static func customMember(_ rng: inout GenRandom, depth: Int) -> GenJSON {
        switch rng.below(depth >= 3 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(rng.chance(50))
        case 2: return .int(wideInt(&rng))
        case 3: return .double(double(&rng))
        case 4, 5: return .string(string(&rng))
        case 6: return .array((0..<rng.int(0...3)).map { _ in customMember(&rng, depth: depth + 1) })
        default: return customObject(&rng, depth: depth + 1)
        }
    }
}
