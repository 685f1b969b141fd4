import Foundation

/// A measure beside the floor timed in the same loop, and the target for their ratio.
struct Comparison {
    let name: String
    let measure: Samples
    let floorName: String
    let floor: Samples?
    /// The ratio the issue asks for, as an upper bound (`≤`) unless `atLeast`.
    var target: Double?
    var note: String?

    var ratioMin: Double? { floor.map { measure.min / $0.min } }
    var ratioMedian: Double? { floor.map { measure.median / $0.median } }
    /// The median of the per-repetition ratios (``Samples/pairedRatio(over:)``): nil when the
    /// floor was not timed in the same loop.
    var ratioPaired: Double? { floor.flatMap { measure.pairedRatio(over: $0) } }

    /// Whether the ratio of the minima meets the target (`nil` without one).
    var meetsTarget: Bool? {
        guard let target, let ratioMin else { return nil }
        return ratioMin <= target
    }
}

/// One line of a scaling table: a size, a measure and its floor, and the measure per unit.
struct ScalingPoint {
    let table: String
    let size: Int
    let unit: String
    let measure: Samples
    let floorName: String
    let floor: Samples?

    /// Microseconds per unit, from the minimum.
    var perUnitMin: Double { measure.min * 1000 / Double(size) }
    var floorPerUnitMin: Double? { floor.map { $0.min * 1000 / Double(size) } }
    var ratioMin: Double? { floor.map { measure.min / $0.min } }
}

/// A figure that is not a timing (bytes, events per CPU-second).
struct Figure {
    let name: String
    let value: Double
    let unit: String
    var floorName: String?
    var floorValue: Double?
    var target: String?
}

/// Everything one run measured.
struct Report {
    var input = ""
    var command = ""
    var machine = ""
    var loadBefore = ""
    var loadAfter = ""
    var repetitions = 0
    var comparisons: [Comparison] = []
    var scaling: [ScalingPoint] = []
    var figures: [Figure] = []

    // MARK: Text

    func render() -> String {
        var out = "input: \(input)\nmachine: \(machine)\nload before: \(loadBefore); after: \(loadAfter)\n"
        out += "repetitions: \(repetitions), interleaved with their floors; times in ms (min / median)\n\n"
        out += "| measure | min | median | floor | floor min | floor median | ratio (min) | ratio (median) | ratio (paired) | target |\n"
        out += "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n"
        for row in comparisons {
            let target = row.target.map { "≤ " + Self.ratio($0) + (row.meetsTarget == true ? " ✓" : " ✗") } ?? ""
            out += "| \(row.name) | \(Self.ms(row.measure.min)) | \(Self.ms(row.measure.median)) | \(row.floorName) | "
            out += "\(row.floor.map { Self.ms($0.min) } ?? "") | \(row.floor.map { Self.ms($0.median) } ?? "") | "
            out += "\(row.ratioMin.map(Self.ratio) ?? "") | \(row.ratioMedian.map(Self.ratio) ?? "") | "
            out += "\(row.ratioPaired.map(Self.ratio) ?? "") | \(target) |\n"
        }
        if !figures.isEmpty {
            out += "\n| figure | value | floor | ratio | target |\n|---|---:|---|---:|---:|\n"
            for figure in figures {
                let floor = figure.floorName.map { name in "\(name) \(figure.floorValue.map { Self.number($0) } ?? "")" } ?? ""
                let ratio = figure.floorValue.map { Self.ratio(figure.value / $0) } ?? ""
                out += "| \(figure.name) | \(Self.number(figure.value)) \(figure.unit) | \(floor) | \(ratio) | \(figure.target ?? "") |\n"
            }
        }
        var tables: [String] = []
        for point in scaling where !tables.contains(point.table) { tables.append(point.table) }
        for table in tables {
            let points = scaling.filter { $0.table == table }
            guard let first = points.first else { continue }
            out += "\n\(table)\n\n| \(first.unit)s | min | median | µs per \(first.unit) | \(first.floorName) min | floor µs per \(first.unit) | ratio (min) |\n"
            out += "|---:|---:|---:|---:|---:|---:|---:|\n"
            for point in points {
                out += "| \(point.size) | \(Self.ms(point.measure.min)) | \(Self.ms(point.measure.median)) | \(Self.micro(point.perUnitMin)) | "
                out += "\(point.floor.map { Self.ms($0.min) } ?? "") | \(point.floorPerUnitMin.map(Self.micro) ?? "") | \(point.ratioMin.map(Self.ratio) ?? "") |\n"
            }
        }
        return out
    }

    static func ms(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : value >= 10 ? String(format: "%.1f", value)
            : value >= 1 ? String(format: "%.2f", value) : String(format: "%.3f", value)
    }

    static func micro(_ value: Double) -> String {
        value >= 10 ? String(format: "%.1f", value) : value >= 0.1 ? String(format: "%.3f", value) : String(format: "%.4f", value)
    }

    static func ratio(_ value: Double) -> String {
        value >= 10 ? String(format: "%.0f×", value) : value >= 1 ? String(format: "%.2f×", value) : String(format: "%.3f×", value)
    }

    /// A share as a whole percentage: 0.412 → "41%".
    static func percent(_ share: Double) -> String {
        String(format: "%.0f%%", share * 100)
    }

    static func number(_ value: Double) -> String {
        value >= 1000 ? String(format: "%.0f", value) : String(format: "%.3g", value)
    }

    // MARK: JSON

    func json() throws -> Data {
        func samples(_ samples: Samples?) -> Any {
            guard let samples else { return NSNull() }
            return ["min": samples.min, "median": samples.median, "values": samples.values]
        }
        func optional(_ value: Double?) -> Any { value.map { $0 as Any } ?? NSNull() }
        let object: [String: Any] = [
            "input": input, "command": command, "machine": machine,
            "loadBefore": loadBefore, "loadAfter": loadAfter, "repetitions": repetitions,
            "comparisons": comparisons.map { row in
                [
                    "name": row.name, "measure": samples(row.measure), "floorName": row.floorName,
                    "floor": samples(row.floor), "ratioMin": optional(row.ratioMin),
                    "ratioMedian": optional(row.ratioMedian), "ratioPaired": optional(row.ratioPaired),
                    "target": optional(row.target),
                    "meetsTarget": row.meetsTarget.map { $0 as Any } ?? NSNull(), "note": row.note ?? NSNull(),
                ] as [String: Any]
            },
            "figures": figures.map { figure in
                [
                    "name": figure.name, "value": figure.value, "unit": figure.unit,
                    "floorName": figure.floorName ?? NSNull(), "floorValue": optional(figure.floorValue),
                    "target": figure.target ?? NSNull(),
                ] as [String: Any]
            },
            "scaling": scaling.map { point in
                [
                    "table": point.table, "size": point.size, "unit": point.unit, "measure": samples(point.measure),
                    "floorName": point.floorName, "floor": samples(point.floor),
                    "microsecondsPerUnitMin": point.perUnitMin, "floorMicrosecondsPerUnitMin": optional(point.floorPerUnitMin),
                    "ratioMin": optional(point.ratioMin),
                ] as [String: Any]
            },
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }
}

/// The machine and its load, for the report's header.
enum MachineInfo {
    static func describe() -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var model = ""
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let os = ProcessInfo.processInfo.operatingSystemVersionString
        return "\(model.isEmpty ? "unknown CPU" : model), \(cores) cores, \(os)"
    }

    /// `/proc/loadavg`'s three load averages.
    static func load() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
