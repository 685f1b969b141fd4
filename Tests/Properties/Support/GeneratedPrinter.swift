import Baton

/// Prints a generated operation as GraphQL text, with varied but equivalent spellings: layout,
/// commas, comments, string escapes (`\uXXXX`, `\u{…}`, surrogate pairs), block strings, and
/// numbers with exponents.
struct GenOperationPrinter {
    private var rng: GenRandom
    private let pretty: Bool
    private let commas: Bool

    init(style: GenRandom) {
        rng = style
        pretty = rng.chance(60)
        commas = rng.chance(30)
    }

    mutating func document(
        kind: OperationKind, name: String?, variables: [GenVariable], selections: [GenSelection],
        fragments: [GenFragment]
    ) -> String {
        var out = rng.chance(10) ? "# a generated operation\n" : ""
        if kind == .query, name == nil, variables.isEmpty, rng.chance(50) {
            // The query shorthand.
        } else {
            out += kind.rawValue
            if let name { out += " " + name }
            if !variables.isEmpty {
                out += "("
                out += variables.map { variable in
                    var text = "$\(variable.name): \(variable.type)"
                    if let value = variable.defaultValue { text += " = " + self.value(value) }
                    return text
                }.joined(separator: commas ? ", " : " ")
                out += ")"
            }
            out += " "
        }
        out += selectionSet(selections, indent: 0)
        for fragment in fragments {
            out += pretty ? "\n\n" : " "
            out += "fragment \(fragment.name) on \(fragment.typeCondition) "
            out += selectionSet(fragment.selections, indent: 0)
        }
        return out + (pretty ? "\n" : "")
    }

    private mutating func selectionSet(_ selections: [GenSelection], indent: Int) -> String {
        let inner = String(repeating: "  ", count: indent + 1)
        var out = "{"
        for (index, selection) in selections.enumerated() {
            if pretty {
                out += "\n" + inner
            } else {
                out += index == 0 ? " " : (commas ? ", " : " ")
            }
            if pretty, rng.chance(3) { out += "# note, with a \"quote\"\n" + inner }
            out += self.selection(selection, indent: indent + 1)
            if pretty, commas { out += "," }
        }
        out += pretty ? "\n" + String(repeating: "  ", count: indent) + "}" : " }"
        return out
    }

    private mutating func selection(_ selection: GenSelection, indent: Int) -> String {
        switch selection {
        case .field(let field):
            var out = field.alias.map { $0 + (rng.chance(20) ? " : " : ": ") } ?? ""
            out += field.name
            if !field.arguments.isEmpty {
                out += "("
                out += field.arguments.map { "\($0.0): " + value($0.1) }.joined(separator: commas ? ", " : " ")
                out += ")"
            }
            out += directives(field.directives)
            if let selections = field.selections {
                out += " " + selectionSet(selections, indent: indent)
            }
            return out
        case .inline(let condition, let directives, let selections):
            var out = "..."
            if let condition { out += " on " + condition }
            out += self.directives(directives)
            return out + " " + selectionSet(selections, indent: indent)
        case .spread(let name, let directives):
            return (rng.chance(20) ? "... " : "...") + name + self.directives(directives)
        }
    }

    private mutating func directives(_ directives: [GenDirective]) -> String {
        directives.map { directive in
            let condition: String
            switch directive.condition {
            case .literal(let b): condition = b ? "true" : "false"
            case .variable(let name): condition = "$" + name
            }
            return " @\(directive.include ? "include" : "skip")(if: \(condition))"
        }.joined()
    }

    mutating func value(_ value: GenValue) -> String {
        switch value {
        case .int(let i): return String(i)
        case .float(let d): return float(d)
        case .string(let s, let block): return block ? blockString(s) : string(s)
        case .boolean(let b): return b ? "true" : "false"
        case .null: return "null"
        case .enumValue(let name): return name
        case .variable(let name): return "$" + name
        case .list(let items):
            return "[" + items.map { self.value($0) }.joined(separator: commas ? ", " : " ") + "]"
        case .object(let fields):
            return "{" + fields.map { "\($0.0): " + self.value($0.1) }.joined(separator: commas ? ", " : " ") + "}"
        }
    }

    /// A float literal: Swift's shortest form, or the same decimal number with an exponent.
    private mutating func float(_ d: Double) -> String {
        let plain = d.description
        guard !plain.contains("e"), rng.chance(30) else { return plain }
        let negative = plain.hasPrefix("-")
        let body = negative ? String(plain.dropFirst()) : plain
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = String((String(parts[0]) + fraction).drop { $0 == "0" })
        if digits.isEmpty { digits = "0" }
        return (negative ? "-" : "") + digits + (rng.chance(50) ? "e-" : "E-") + String(fraction.count)
    }

    /// A string literal with escapes chosen at random where GraphQL offers several.
    private mutating func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += rng.chance(50) ? "\t" : "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x2F: out += rng.chance(30) ? "\\/" : "/"
            case 0..<0x20: out += "\\u" + hex4(scalar.value, upper: rng.chance(50))
            case 0x10000...:
                switch rng.below(3) {
                case 0: out.unicodeScalars.append(scalar)
                case 1: out += "\\u{" + String(scalar.value, radix: 16, uppercase: rng.chance(50)) + "}"
                default:
                    let v = scalar.value - 0x10000
                    out += "\\u" + hex4(0xD800 + (v >> 10), upper: true) + "\\u" + hex4(0xDC00 + (v & 0x3FF), upper: false)
                }
            case 0x80...:
                switch rng.below(3) {
                case 0: out.unicodeScalars.append(scalar)
                case 1: out += "\\u" + hex4(scalar.value, upper: rng.chance(50))
                default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
                }
            default:
                if rng.chance(3) {
                    out += "\\u" + hex4(scalar.value, upper: false)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `s` as a block string: on one line, or (several lines) indented, which the block string
    /// rules take off again.
    private mutating func blockString(_ s: String) -> String {
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.count == 1 { return "\"\"\"" + s + "\"\"\"" }
        let indent = rng.pick(["", "  ", "    ", "\t"])
        if rng.chance(50) {
            // `"""` alone on the first and last lines: blank lines the rules drop.
            return "\"\"\"\n" + lines.map { indent + $0 }.joined(separator: "\n") + "\n" + indent + "\"\"\""
        }
        // The first line right after `"""`: the common indentation is taken from the others only.
        return "\"\"\"" + lines[0] + "\n" + lines.dropFirst().map { indent + $0 }.joined(separator: "\n") + "\"\"\""
    }

    /// True when `s` reads the same as a block string printed by ``blockString(_:)``: no quote,
    /// backslash, carriage return or other control character but tab and line feed; lines that
    /// are neither empty nor start with whitespace.
    static func canBeBlockString(_ s: String) -> Bool {
        guard s.unicodeScalars.allSatisfy({ ($0.value >= 0x20 || $0 == "\t" || $0 == "\n") && $0 != "\"" && $0 != "\\" }) else {
            return false
        }
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.allSatisfy { line in
            guard let first = line.unicodeScalars.first, let last = line.unicodeScalars.last else { return false }
            return first != " " && first != "\t" && last != " " && last != "\t"
        }
    }
}
