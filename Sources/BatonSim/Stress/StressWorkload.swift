import Baton

/// One child's work in `baton stress`: the server's responses to a world's operations, in the
/// order the child commits them, each with the fetch time its commit stamps, and now and then an
/// erase (a user logging out, ``Store/erase()``).
///
/// Drawn from the seed alone (a ``Server`` and a ``VariableDrawer`` that live across the kills of
/// one run, so the server's state goes on where the last child stopped): the parent draws it,
/// writes it to a file the child reads, and keeps it to know what each commit the child reports
/// means.
package struct StressWorkload: Sendable, Equatable {
    /// One response to commit.
    package struct Step: Sendable, Equatable {
        package var operation: String
        package var variables: [String: JSONValue]
        /// The server's response, byte for byte.
        package var response: [UInt8]
        /// What the child's clock reads during the commit (the fetch time it stamps).
        package var now: Double
        /// How long the child waits after the commit, as an app between responses (so drains
        /// land between commits as well as behind a burst of them).
        package var pauseMicroseconds: Int

        package init(operation: String, variables: [String: JSONValue], response: [UInt8], now: Double, pauseMicroseconds: Int = 0) {
            self.operation = operation
            self.variables = variables
            self.response = response
            self.now = now
            self.pauseMicroseconds = pauseMicroseconds
        }

        /// An erase instead of a response.
        package static func erase(now: Double, pauseMicroseconds: Int = 0) -> Step {
            Step(operation: StressWorkload.eraseOperation, variables: [:], response: [], now: now, pauseMicroseconds: pauseMicroseconds)
        }

        /// True for an erase step.
        package var isErase: Bool { operation == StressWorkload.eraseOperation }
    }

    /// The operation an erase step names: no GraphQL name starts with `@`, so no world's
    /// operation has it.
    package static let eraseOperation = "@erase"

    package var steps: [Step]

    package init(steps: [Step]) {
        self.steps = steps
    }

    // MARK: The file the child reads

    /// The workload as a file: per step a header line `step OPERATION NOW PAUSE VARIABLES-BYTES
    /// RESPONSE-BYTES`, then the variables (canonical JSON) and the response, byte for byte, then a
    /// line break. Lengths rather than escaping, so a response is handed over exactly as the
    /// server wrote it.
    package func encoded() -> [UInt8] {
        var out: [UInt8] = []
        for step in steps {
            let variables = Array(CanonicalJSON.render(.object(step.variables)).utf8)
            out += Array("step \(step.operation) \(step.now) \(step.pauseMicroseconds) \(variables.count) \(step.response.count)\n".utf8)
            out += variables
            out += step.response
            out.append(0x0A)
        }
        return out
    }

    /// Reads ``encoded()``'s format back.
    package init(decoding bytes: [UInt8]) throws(StressError) {
        var steps: [Step] = []
        var index = 0
        while index < bytes.count {
            guard let end = bytes[index...].firstIndex(of: 0x0A) else { throw StressError("workload: a header without its line break") }
            let header = String(decoding: bytes[index..<end], as: UTF8.self).split(separator: " ").map(String.init)
            guard header.count == 6, header[0] == "step", let now = Double(header[2]), let pause = Int(header[3]), pause >= 0,
                  let variableBytes = Int(header[4]), let responseBytes = Int(header[5]),
                  variableBytes >= 0, responseBytes >= 0, end + 1 + variableBytes + responseBytes < bytes.count
            else { throw StressError("workload: step \(steps.count) has a bad header") }
            let variablesStart = end + 1
            let responseStart = variablesStart + variableBytes
            let variables: JSONValue
            do {
                variables = try JSONValue.parse(bytes[variablesStart..<responseStart])
            } catch {
                throw StressError("workload: step \(steps.count)'s variables do not read: \(error)")
            }
            guard case .object(let object) = variables else { throw StressError("workload: step \(steps.count)'s variables are not an object") }
            let responseEnd = responseStart + responseBytes
            steps.append(Step(
                operation: header[1], variables: object.dictionary, response: Array(bytes[responseStart..<responseEnd]), now: now,
                pauseMicroseconds: pause))
            index = responseEnd + 1
        }
        self.steps = steps
    }
}

/// Draws workloads from a seed: the server, its variables, and which operations are answered.
package struct StressWorkloadDrawer: Sendable {
    package let world: World
    private var server: Server
    private var drawer: VariableDrawer
    private var random: SimRandom
    /// Draws where erases go: a stream of its own, so the responses drawn stay as they were.
    private var erases: SimRandom
    /// The operations a workload answers: every query and mutation of the world.
    private let operations: [WorldOperation]
    private var drawn = 0

    package init(world: World, seed: UInt64) {
        self.world = world
        let root = SimRandom(seed: seed).split("stress")
        server = Server(world: world, random: root.split("server"))
        drawer = VariableDrawer(random: root.split("variables"))
        random = root.split("workload")
        erases = root.split("erases")
        operations = world.operations.filter { $0.kind == .query || $0.kind == .mutation }
    }

    /// How often an erase comes before a response (from 2026-12-07).
    static let eraseChance = 1.0 / 24

    /// The next child's workload: `count` responses, fetch times a second apart and later than
    /// every earlier workload's, half of them followed by a pause of up to 3 ms; before about one
    /// response in 24, an erase.
    package mutating func next(count: Int) -> StressWorkload {
        var steps: [StressWorkload.Step] = []
        for _ in 0..<count {
            if erases.chance(Self.eraseChance) {
                steps.append(.erase(now: 1_800_000_000 + Double(drawn), pauseMicroseconds: erases.chance(0.5) ? 0 : erases.int(1...3_000)))
            }
            let operation = random.pick(operations)
            let variables = drawer.variables(for: operation, server: server)
            let execution = server.execute(operation, variables: variables)
            drawn += 1
            steps.append(StressWorkload.Step(
                operation: operation.name, variables: variables, response: execution.responseText,
                now: 1_800_000_000 + Double(drawn), pauseMicroseconds: random.chance(0.5) ? 0 : random.int(1...3_000)))
        }
        return StressWorkload(steps: steps)
    }
}

/// Why a stress run cannot go on (a workload that does not read, a child that cannot start): not
/// a violation of the image's promises, an error of the tool.
package struct StressError: Error, CustomStringConvertible, Sendable {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
