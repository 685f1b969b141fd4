/// Counts of what the generator produced, to show (and test) that the properties reach every
/// feature they claim to.
struct GenStats: Sendable {
    private(set) var counts: [String: Int] = [:]

    mutating func note(_ feature: String, _ times: Int = 1) {
        counts[feature, default: 0] += times
    }

    mutating func add(_ other: GenStats) {
        for (feature, count) in other.counts { counts[feature, default: 0] += count }
    }

    subscript(feature: String) -> Int { counts[feature] ?? 0 }

    /// One line per feature, sorted.
    var report: String {
        counts.keys.sorted().map { "\($0): \(counts[$0]!)" }.joined(separator: "\n")
    }
}

extension GenOperation {
    /// The features of the operation text and its variables.
    var features: GenStats {
        var stats = GenStats()
        stats.note(kind == .mutation ? "operation: mutation" : "operation: query")
        if name == nil { stats.note("operation: anonymous") }
        if text.contains("query Other_") { stats.note("operation: picked by name among several") }
        if !fragments.isEmpty { stats.note("operation: with named fragments") }
        for variable in variables {
            switch (variable.provided, variable.defaultValue != nil) {
            case (nil, true): stats.note("variable: absent, default used")
            case (nil, false): stats.note("variable: absent, no default")
            case (.null?, _): stats.note("variable: explicit null")
            case (_?, true): stats.note("variable: given over a default")
            case (_?, false): stats.note("variable: given")
            }
            if case .object? = variable.provided, !variable.type.description.contains("JSON") {
                stats.note("variable: input object value")
            }
        }
        for fragment in fragments { GenOperation.walk(fragment.selections, into: &stats) }
        GenOperation.walk(selections, into: &stats)
        return stats
    }

    private static func walk(_ selections: [GenSelection], into stats: inout GenStats) {
        for selection in selections {
            switch selection {
            case .field(let field):
                if field.alias != nil { stats.note("field: aliased") }
                if field.name == "id", !field.directives.isEmpty { stats.note("field: id dropped by a directive") }
                if field.name == "id", field.alias != nil { stats.note("field: id under an alias") }
                if !field.arguments.isEmpty { stats.note("field: with arguments") }
                for (_, value) in field.arguments { walk(value, into: &stats) }
                directives(field.directives, into: &stats)
                if let sub = field.selections { walk(sub, into: &stats) }
            case .inline(let condition, let directives, let sub):
                stats.note(condition == nil ? "inline fragment: no type condition" : "inline fragment: on a type")
                self.directives(directives, into: &stats)
                walk(sub, into: &stats)
            case .spread(_, let directives):
                stats.note("fragment spread")
                self.directives(directives, into: &stats)
            }
        }
    }

    private static func directives(_ directives: [GenDirective], into stats: inout GenStats) {
        for directive in directives {
            let name = directive.include ? "@include" : "@skip"
            switch directive.condition {
            case .literal: stats.note("directive: \(name) literal")
            case .variable: stats.note("directive: \(name) variable")
            }
        }
    }

    private static func walk(_ value: GenValue, into stats: inout GenStats, nested: Bool = false) {
        switch value {
        case .int: stats.note("argument: Int literal")
        case .float: stats.note("argument: Float literal")
        case .string(let s, let block):
            stats.note(block ? "argument: block string" : "argument: string literal")
            if block, s.contains("\n") { stats.note("argument: block string on several lines") }
        case .boolean: stats.note("argument: Boolean literal")
        case .null: stats.note("argument: null")
        case .enumValue: stats.note("argument: enum literal")
        case .variable: stats.note(nested ? "argument: variable nested in a list or object" : "argument: variable")
        case .list(let items):
            stats.note("argument: list")
            for item in items { walk(item, into: &stats, nested: true) }
        case .object(let fields):
            stats.note("argument: object")
            for (_, field) in fields { walk(field, into: &stats, nested: true) }
        }
    }
}
