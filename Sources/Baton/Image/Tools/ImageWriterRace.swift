import Foundation

/// Two `baton image write` processes started together on one image file, pair after pair: the
/// check that two processes on one image never fail each other, lose, or age out what either
/// committed (issue 9). Used by `baton image race` and by the tests.
///
/// Each pair writes two operations that share a record (with fields the other does not write)
/// and each have one of their own, on a new file or (every other pair) on a file an earlier
/// launch wrote. Then every write must have exited 0, the file (inspected, so no launch is
/// counted) must hold every value both wrote, each row stamped with the generation of the last
/// launch that wrote it and never an older one, and the newer write must read back, whole, in
/// the next launch.
package enum ImageWriterRace {
    /// What a run found.
    package struct Outcome: Sendable {
        package var pairs = 0
        /// Pairs in which both writes exited 0 and everything checked out.
        package var clean = 0
        /// Pairs run on a file an earlier launch wrote.
        package var onExistingFiles = 0
        /// One line per problem, naming its pair.
        package var failures: [String] = []
    }

    /// Runs `pairs` pairs with the `baton` at `executable`, in new folders under `directory`.
    package static func run(executable: URL, directory: String, pairs: Int, progress: ((Int) -> Void)? = nil) -> Outcome {
        var outcome = Outcome()
        for index in 0..<pairs {
            let folder = directory + "/pair-\(index)"
            outcome.pairs += 1
            let existing = index % 2 == 1
            if existing { outcome.onExistingFiles += 1 }
            do {
                if let problem = try runPair(executable: executable, folder: folder, existingFile: existing) {
                    outcome.failures.append("pair \(index)\(existing ? " (existing file)" : ""): \(problem)")
                } else {
                    outcome.clean += 1
                    try? FileManager.default.removeItem(atPath: folder)
                }
            } catch {
                outcome.failures.append("pair \(index): \(error)")
            }
            progress?(index + 1)
        }
        return outcome
    }

    // MARK: One pair

    private static let schema = """
        type Query { character(id: ID!): Character, location(id: ID!): Location }
        type Character { id: ID!, name: String, status: String, species: String }
        type Location { id: ID!, name: String }
        """

    /// The two racing writes and the earlier one: document, response, and what the dump must hold.
    private struct Write {
        var name: String
        var document: String
        var response: String
        /// Record key → field → value the image must hold after this write.
        var rows: [String: [String: String]]
    }

    private static let first = Write(
        name: "A",
        document: #"query A { character(id: "1") { id name status } location(id: "1") { id name } }"#,
        response: #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive"},"location":{"id":"1","name":"Earth"}}}"#,
        rows: ["Character:1": ["name": "Rick", "status": "Alive"], "Location:1": ["name": "Earth"]])
    private static let second = Write(
        name: "B",
        document: #"query B { character(id: "1") { id name species } location(id: "2") { id name } }"#,
        response: #"{"data":{"character":{"id":"1","name":"Rick","species":"Human"},"location":{"id":"2","name":"Citadel"}}}"#,
        rows: ["Character:1": ["name": "Rick", "species": "Human"], "Location:2": ["name": "Citadel"]])
    private static let earlier = Write(
        name: "C",
        document: #"query C { character(id: "3") { id name } }"#,
        response: #"{"data":{"character":{"id":"3","name":"Summer"}}}"#,
        rows: ["Character:3": ["name": "Summer"]])

    /// Runs one pair; the first problem found, or `nil`. (The earlier write's record is not
    /// checked: unread in the first racer's launch, it ages out in the second's, as it should.)
    private static func runPair(executable: URL, folder: String, existingFile: Bool) throws -> String? {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let image = folder + "/race.image"
        let schemaPath = folder + "/schema.graphql"
        try schema.write(toFile: schemaPath, atomically: false, encoding: .utf8)
        for write in [first, second, earlier] {
            try write.document.write(toFile: folder + "/\(write.name).graphql", atomically: false, encoding: .utf8)
            try write.response.write(toFile: folder + "/\(write.name).json", atomically: false, encoding: .utf8)
        }
        func arguments(_ verb: String, _ write: Write) -> [String] {
            var words = ["image", verb, "--image", image, "--schema", schemaPath, "--document", folder + "/\(write.name).graphql"]
            if verb == "write" { words += ["--response", folder + "/\(write.name).json"] }
            return words
        }
        if existingFile {
            let run = try ToolProcess.run(executable, arguments("write", earlier))
            guard run.status == 0 else { return "the earlier write: \(run)" }
        }
        let racers = [try ToolProcess.start(executable, arguments("write", first)), try ToolProcess.start(executable, arguments("write", second))]
        let runs = racers.map(ToolProcess.finish)
        for (write, run) in zip([first, second], runs) where run.status != 0 {
            return "write \(write.name) failed: \(run)"
        }
        let generations = runs.map(generation)
        guard let a = generations[0], let b = generations[1], a != b else {
            return "the writes did not report two launches: \(runs[0].errors) / \(runs[1].errors)"
        }
        let newer = a > b ? first : second

        let inspection = try Image.inspect(path: image)
        let rows = Dictionary(uniqueKeysWithValues: inspection.dumpRecords().map { ($0.key.rawValue, $0) })
        inspection.close()
        var expected: [String: (cells: [String: String], used: Int)] = [:]
        for (write, generation) in [(first, a), (second, b)] {
            for (key, cells) in write.rows {
                expected[key, default: ([:], 0)].cells.merge(cells) { old, _ in old }
                expected[key]!.used = max(expected[key]!.used, generation)
            }
        }
        for key in expected.keys.sorted() {
            let want = expected[key]!
            guard let row = rows[key], case .present(_, let cells)? = row.record else { return "\(key) is not in the image" }
            for (field, value) in want.cells.sorted(by: { $0.key < $1.key })
            where !cells.contains(where: { $0.storageKey == field && $0.cell.value == .string(value) }) {
                return "\(key).\(field) is not \(value) in the image"
            }
            guard row.used == want.used else {
                return "\(key) is stamped with launch \(row.used), not \(want.used) (launches \(a) and \(b))"
            }
        }

        let read = try ToolProcess.run(executable, arguments("read", newer))
        guard read.status == 0 else { return "reading \(newer.name) back in the next launch: \(read)" }
        guard case .object(let answer)? = try? JSONValue.parse(read.output), case .object(let data)? = answer["data"] else {
            return "reading \(newer.name) back printed \(read.output)"
        }
        for (key, cells) in newer.rows {
            let field = key.hasPrefix("Character") ? "character" : "location"
            guard case .object(let object)? = data[field] else { return "\(newer.name) read back without \(field)" }
            for (name, value) in cells where object[name] != .string(value) {
                return "\(newer.name) read back \(field).\(name) as \(String(describing: object[name]))"
            }
        }
        return nil
    }

    // MARK: Output

    /// The generation a successful `image write` reports: "… (generation G)".
    private static func generation(_ run: ToolProcess.Run) -> Int? {
        guard let range = run.errors.range(of: "(generation ") else { return nil }
        return Int(run.errors[range.upperBound...].prefix { $0.isNumber })
    }
}
