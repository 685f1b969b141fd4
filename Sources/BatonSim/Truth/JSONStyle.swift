/// How one seed's server spells its JSON, within what JSON allows: clients must read all of it.
package struct JSONStyle: Sendable, Hashable, CustomStringConvertible {
    /// Whitespace between tokens.
    package enum Whitespace: String, Sendable, Hashable {
        /// None at all.
        case none
        /// One space after every `:` and `,`.
        case spaces
        /// Spaces, tabs, CRs and LFs strewn between tokens.
        case scattered
    }

    /// The case of hex digits in `\uXXXX` escapes.
    package enum HexCase: String, Sendable, Hashable {
        case lower, upper, mixed
    }

    package var whitespace: Whitespace
    /// Chance that any character of a string is written as a `\uXXXX` escape (a surrogate pair
    /// outside the Basic Multilingual Plane), and that a control character with a short escape
    /// (`\n`) is written long.
    package var escapeRate: Double
    package var hexCase: HexCase
    /// `/` written as `\/`.
    package var escapesSolidus: Bool
    /// Float values written in varying spellings (`1e2`, `100.0`, `100`).
    package var variesNumbers: Bool
    /// Object members in a random order instead of the response's order.
    package var shufflesMembers: Bool
    /// `errors` before `data`.
    package var errorsFirst: Bool
    /// Errors carry `locations` (line and column in the document).
    package var errorLocations: Bool

    /// Compact JSON in response order, escaping only what JSON requires.
    package static let plain = JSONStyle(
        whitespace: .none, escapeRate: 0, hexCase: .lower, escapesSolidus: false, variesNumbers: false,
        shufflesMembers: false, errorsFirst: false, errorLocations: false)

    package init(
        whitespace: Whitespace, escapeRate: Double, hexCase: HexCase, escapesSolidus: Bool, variesNumbers: Bool,
        shufflesMembers: Bool, errorsFirst: Bool, errorLocations: Bool
    ) {
        self.whitespace = whitespace
        self.escapeRate = escapeRate
        self.hexCase = hexCase
        self.escapesSolidus = escapesSolidus
        self.variesNumbers = variesNumbers
        self.shufflesMembers = shufflesMembers
        self.errorsFirst = errorsFirst
        self.errorLocations = errorLocations
    }

    /// A style drawn from `random`: about half the seeds write plain JSON in response order.
    init(random: inout SimRandom) {
        whitespace = [Whitespace.none, .none, .spaces, .scattered][random.int(0...3)]
        escapeRate = random.pick([0, 0, 0.05, 0.5])
        hexCase = [HexCase.lower, .upper, .mixed][random.int(0...2)]
        escapesSolidus = random.chance(0.3)
        variesNumbers = random.chance(0.5)
        shufflesMembers = random.chance(0.3)
        errorsFirst = random.chance(0.3)
        errorLocations = random.chance(0.5)
    }

    package var description: String {
        var parts = ["whitespace \(whitespace.rawValue)", "escapes \(escapeRate) \(hexCase.rawValue)"]
        if escapesSolidus { parts.append("\\/") }
        if variesNumbers { parts.append("varied floats") }
        if shufflesMembers { parts.append("shuffled members") }
        if errorsFirst { parts.append("errors first") }
        if errorLocations { parts.append("error locations") }
        return parts.joined(separator: ", ")
    }
}
