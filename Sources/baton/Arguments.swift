/// A command line's options: `--name value` (or `--name=value`) pairs, bare `--flag`s, and
/// positional words.
///
/// Nothing passes silently: an option given twice, an option nobody asked for, an option with no
/// value, a flag given a value and a word no command takes are all usage errors. An option with no
/// value is one at the end of the line or followed by another `--option`; a value that starts
/// with `--` is written `--name=--value`.
struct Arguments {
    private(set) var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags = Set<String>()
    /// Options written without a value, in order.
    private var bare: [String] = []
    private var consumed = Set<String>()
    private var positionalTaken = 0

    /// Parses `words`; `flagNames` lists the options that take no value.
    init(_ words: [String], flagNames: Set<String>) throws {
        var seen = Set<String>()
        var index = 0
        var onlyPositional = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositional || !word.hasPrefix("--") {
                positional.append(word)
                continue
            }
            if word == "--" {
                onlyPositional = true
                continue
            }
            var name = String(word.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard !name.isEmpty else { throw CLIError.usage("\(word) is not an option") }
            guard seen.insert(name).inserted else { throw CLIError.usage("--\(name) is given twice") }
            if flagNames.contains(name) {
                guard value == nil else { throw CLIError.usage("--\(name) takes no value") }
                flags.insert(name)
            } else if let value {
                options[name] = value
            } else if index < words.count, !words[index].hasPrefix("--") {
                options[name] = words[index]
                index += 1
            } else {
                bare.append(name)
            }
        }
    }

    /// The value of `--name`, or nil. An option written without a value is reported by
    /// ``finish()`` (or at once by ``required(_:)``).
    mutating func option(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]
    }

    /// For an option whose value may be left out: nil when absent, `.some(nil)` when written
    /// without a value, `.some(value)` otherwise.
    mutating func optionalValue(_ name: String) -> String?? {
        consumed.insert(name)
        if let index = bare.firstIndex(of: name) {
            bare.remove(at: index)
            return .some(nil)
        }
        return options[name].map { .some($0) }
    }

    /// The value of `--name`, or a usage error. When `--name` is missing but an option nobody has
    /// asked for yet is spelt nearly like it, the error names that option as the mistake: the
    /// user misspelt it, and "missing --name" would point at the wrong word.
    mutating func required(_ name: String) throws -> String {
        if let value = option(name) { return value }
        if bare.contains(name) { throw CLIError.usage("--\(name) needs a value") }
        let given = Set(options.keys).union(flags).union(bare).subtracting(consumed)
        if let typo = given.sorted().first(where: { Self.isNearMiss($0, of: name) }) {
            throw CLIError.usage("unknown option --\(typo) (did you mean --\(name)?)")
        }
        throw CLIError.usage("missing --\(name)")
    }

    /// True when `word` is `name` with at most two letters added, dropped, changed or swapped
    /// with a neighbour (the optimal string alignment distance, over characters).
    static func isNearMiss(_ word: String, of name: String) -> Bool {
        distance(word, name) <= 2
    }

    /// How many letters must be added, dropped, changed or swapped with a neighbour to make
    /// `word` into `name` (the optimal string alignment distance); 3 stands for "three or more".
    static func distance(_ word: String, _ name: String) -> Int {
        let a = Array(word), b = Array(name)
        guard abs(a.count - b.count) <= 2 else { return 3 }
        // rows[i][j]: the distance between a's first i characters and b's first j.
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let change = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + change)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, rows[i - 2][j - 2] + 1)
                }
                rows[i][j] = best
            }
        }
        return min(rows[a.count][b.count], 3)
    }

    /// The option this command asked for that `typo` is nearest to, within two letters (the
    /// nearest, then the first in byte order), or nil.
    private func suggestion(for typo: String) -> String? {
        var best: (distance: Int, name: String)?
        for name in consumed.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where name != typo {
            let distance = Self.distance(typo, name)
            if distance < (best?.distance ?? 3) { best = (distance, name) }
        }
        return best?.name
    }

    /// True when `--name` was given.
    mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    /// A whole-number option, or nil.
    mutating func integer(_ name: String) throws -> Int? {
        guard let text = option(name) else { return nil }
        guard let value = Int(text) else { throw CLIError.usage("--\(name) takes a whole number, not \(text)") }
        return value
    }

    /// A whole-number option that must lie in `range`, or nil.
    mutating func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            let bounds = range.upperBound == Int.max ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw CLIError.usage("--\(name) takes a whole number \(bounds), not \(text)")
        }
        return value
    }

    /// The next positional word, or nil.
    mutating func takePositional() -> String? {
        guard positionalTaken < positional.count else { return nil }
        positionalTaken += 1
        return positional[positionalTaken - 1]
    }

    /// Fails on anything nobody asked for: options with no value, unknown options, extra words.
    func finish() throws {
        if let name = bare.first(where: { consumed.contains($0) }) {
            throw CLIError.usage("--\(name) needs a value")
        }
        let unknown = Set(options.keys).union(flags).union(bare).subtracting(consumed)
        if let first = unknown.sorted().first {
            if let name = suggestion(for: first) { throw CLIError.usage("unknown option --\(first) (did you mean --\(name)?)") }
            throw CLIError.usage("unknown option --\(first)")
        }
        if positionalTaken < positional.count {
            let word = positional[positionalTaken]
            if word.hasPrefix("-"), word.count > 1, Int(word) == nil {
                throw CLIError.usage("unknown option \(word) (options start with --)")
            }
            throw CLIError.usage("unexpected word \"\(word)\"")
        }
    }
}
