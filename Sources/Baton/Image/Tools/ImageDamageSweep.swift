import Foundation

/// Damages copies of real-shaped images, one seeded damage each, and checks that nothing the
/// image answers afterwards is wrong: the promise that a damaged image is a miss, never wrong
/// data (issue 9). Used by `baton image sweep` and by the tests.
///
/// Per shape, a base image is written the way an app writes one (a launch that commits
/// responses, a second that checks every operation and commits more, each closed cleanly), and
/// its truth is taken from an undamaged copy: what a third launch's check answers for every
/// operation, and every row a dump shows after it. Each damage then:
/// 1. *read*: a launch checks every operation, as `baton image read` does; an answer must be the
///    truth's (data and age) or a miss;
/// 2. *dump*: an inspection dumps every row, as `baton image dump` does; a row must be the
///    truth's or be reported as failing its checks or unreadable;
/// 3. *relaunch with a write*: a launch commits a new response, as `baton image write` does, and
///    the next launch must read it back exactly (unless the damage made the file look like
///    another app's database, which is left alone, or the write reported that it failed).
/// Opening must never throw, and nothing may trap; the caller watches for hangs.
@MainActor
package enum ImageDamageSweep {
    /// What a sweep found.
    package struct Outcome: Sendable {
        package var damages = 0
        /// Damages by kind.
        package var kinds: [String: Int] = [:]
        /// What opening the damaged file did, by outcome (`opened`, `recreated`, `foreign` …).
        package var openings: [String: Int] = [:]
        /// Check answers (one per operation per damage): right, or a miss.
        package var answersRight = 0
        package var answersMissed = 0
        /// Rows the truth's dump holds: shown right after the damage, or missing / reported.
        package var rowsRight = 0
        package var rowsMissed = 0
        /// Dumps that reported rows failing their checks or stretches SQLite could not read.
        package var dumpsReporting = 0
        /// Writes after the damage read back right in the next launch, refused (foreign),
        /// reported as failed by the writer, or missed by the next launch's check: a damaged
        /// b-tree SQLite reads without noticing (pages or cells moved out of key order, which
        /// only `integrity_check` finds) can take a write where no lookup finds it. A miss,
        /// never wrong data.
        package var rewritesRight = 0
        package var rewritesRefused = 0
        package var rewritesFailed = 0
        package var rewritesMissed = 0
        /// Every wrong answer, wrong row, lost write or thrown open, naming its damage: must be empty.
        package var failures: [String] = []

        mutating func merge(_ other: Outcome) {
            damages += other.damages
            kinds.merge(other.kinds, uniquingKeysWith: +)
            openings.merge(other.openings, uniquingKeysWith: +)
            answersRight += other.answersRight
            answersMissed += other.answersMissed
            rowsRight += other.rowsRight
            rowsMissed += other.rowsMissed
            dumpsReporting += other.dumpsReporting
            rewritesRight += other.rewritesRight
            rewritesRefused += other.rewritesRefused
            rewritesFailed += other.rewritesFailed
            rewritesMissed += other.rewritesMissed
            failures += other.failures
        }
    }

    /// Runs damages `first ..< first + count` of the sweep seeded `seed` over `shapes`, in
    /// folders under `directory`; `each` is called before each damage with its index and
    /// description (for progress and traces).
    package static func run(
        seed: UInt64, first: Int = 0, count: Int, shapes: [ImageDamageShape], directory: String,
        each: ((Int, String) -> Void)? = nil
    ) throws -> Outcome {
        var prepared: [PreparedShape] = []
        for (index, shape) in shapes.enumerated() {
            prepared.append(try PreparedShape(shape, directory: directory + "/shape-\(index)"))
        }
        let path = directory + "/damaged.image"
        var outcome = Outcome()
        for index in first..<first + count {
            var random = SweepRandom(seed: seed, stream: index)
            let shape = prepared[random.below(prepared.count)]
            let damage = ImageDamage.random(&random, file: shape.base, names: shape.names, operations: shape.operations)
            each?(index, "\(shape.shape.name): \(damage)")
            outcome.merge(try check(damage, on: shape, path: path, label: "damage \(index) (\(shape.shape.name): \(damage))"))
        }
        return outcome
    }

    /// Damages every byte of SQLite's header in turn, each bit flipped, then zeros and ones,
    /// on the first of `shapes`: 1,000 damages, each checked like the sweep's.
    package static func runHeader(shapes: [ImageDamageShape], directory: String, each: ((Int, String) -> Void)? = nil) throws -> Outcome {
        guard let first = shapes.first else { return Outcome() }
        let shape = try PreparedShape(first, directory: directory + "/shape-0")
        let path = directory + "/damaged.image"
        var outcome = Outcome()
        for offset in 0..<DatabasePageOne.headerSize {
            let original = shape.base[offset]
            let values = (0..<8).map { original ^ UInt8(1 << $0) } + [0x00, 0xFF]
            for value in values where value != original {
                let damage = ImageDamage.header(offset: offset, value: value)
                each?(offset, "\(first.name): \(damage)")
                outcome.merge(try check(damage, on: shape, path: path, label: "\(damage)"))
            }
        }
        return outcome
    }

    // MARK: One damage

    private static func check(_ damage: ImageDamage, on shape: PreparedShape, path: String, label: String) throws -> Outcome {
        var outcome = Outcome()
        outcome.damages = 1
        outcome.kinds[damage.kind] = 1
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var bytes = shape.base
        damage.apply(to: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        // 1. A launch checks every operation.
        do {
            let image = try shape.open(path)
            outcome.openings[openingName(image.opening)] = 1
            let store = Store(image: image, clock: FixedClock(time: PreparedShape.truthTime), configuration: .init(collectsAutomatically: false))
            for (index, operation) in shape.plans.enumerated() {
                let answer = store.check(operation.plan, variables: operation.variables)
                guard case .available(_, let fetchTime, _) = answer else {
                    outcome.answersMissed += 1
                    continue
                }
                let data = store.read(operation.plan, variables: operation.variables).data
                guard let truth = shape.truth[index] else {
                    outcome.failures.append("\(label): operation \(index) is available, the undamaged image misses it")
                    continue
                }
                if data != truth.data {
                    outcome.failures.append("\(label): operation \(index) reads \(CanonicalJSON.render(data).prefix(300))")
                } else if let fetchTime, fetchTime != truth.fetchTime {
                    outcome.failures.append("\(label): operation \(index) is \(fetchTime) old, not \(String(describing: truth.fetchTime))")
                } else {
                    outcome.answersRight += 1
                }
            }
            image.close()
        } catch {
            outcome.failures.append("\(label): opening to read threw \(error)")
        }

        // 2. An inspection dumps every row.
        if let inspection = try? Image.inspect(path: path), let dump = inspection.dump() {
            if !dump.isSound { outcome.dumpsReporting += 1 }
            compare(dump, with: shape.truthDump, label: label, into: &outcome)
            inspection.close()
        } else {
            outcome.rowsMissed += shape.truthDump.rowCount
        }

        // 3. A launch writes a response; the next one must read it back.
        do {
            let image = try shape.open(path)
            if image.opening == .foreign {
                outcome.rewritesRefused += 1
                image.close()
                return outcome
            }
            let store = Store(image: image, clock: FixedClock(time: PreparedShape.rewriteTime), configuration: .init(collectsAutomatically: false))
            store.commit(shape.rewriteChanges)
            image.close()
            if image.writer.lastError != nil {
                outcome.rewritesFailed += 1
                return outcome
            }
            let next = try shape.open(path)
            defer { next.close() }
            let check = Store(image: next, clock: FixedClock(time: PreparedShape.rewriteTime + 1), configuration: .init(collectsAutomatically: false))
            let operation = shape.plans[shape.shape.rewrite.operation]
            guard case .available = check.check(operation.plan, variables: operation.variables) else {
                outcome.rewritesMissed += 1
                return outcome
            }
            let data = check.read(operation.plan, variables: operation.variables).data
            if data == shape.rewriteTruth {
                outcome.rewritesRight += 1
            } else {
                outcome.failures.append("\(label): the write after the damage reads \(CanonicalJSON.render(data).prefix(300))")
            }
        } catch {
            outcome.failures.append("\(label): opening to write threw \(error)")
        }
        return outcome
    }

    /// Every row of `dump` must be the truth's row for its key, or not shown.
    private static func compare(_ dump: ImageDump, with truth: PreparedShape.Dump, label: String, into outcome: inout Outcome) {
        var shown = 0
        for row in dump.records {
            guard let record = row.record else { continue }
            guard truth.records[row.key.rawValue] == record else {
                outcome.failures.append("\(label): dump shows \(row.key.rawValue) as \(record)")
                continue
            }
            shown += 1
        }
        for row in dump.rootFields {
            guard let cell = row.cell else { continue }
            guard truth.root[row.field] == cell else {
                outcome.failures.append("\(label): dump shows root field \(row.field) as \(cell)")
                continue
            }
            shown += 1
        }
        for row in dump.fetches where row.verified {
            guard truth.fetches[row.operation.rawValue] == row.time else {
                outcome.failures.append("\(label): dump shows \(row.operation.rawValue) fetched at \(row.time)")
                continue
            }
            shown += 1
        }
        outcome.rowsRight += shown
        outcome.rowsMissed += max(0, truth.rowCount - shown)
    }

    private static func openingName(_ opening: ImageOpening) -> String {
        switch opening {
        case .created: "created"
        case .opened: "opened"
        case .recreated(.notADatabase): "recreated (not a database)"
        case .recreated(.corrupt): "recreated (corrupt)"
        case .recreated(.otherRowFormat): "recreated (another row format)"
        case .wiped: "wiped"
        case .foreign: "foreign"
        }
    }
}

/// A clock that always says the same time: the sweep's launches are the same in every run.
struct FixedClock: StoreClock {
    var time: Double
    func now() -> Double { time }
}

/// A shape with its base image written, and the truth taken from an undamaged copy.
@MainActor
final class PreparedShape {
    struct Operation {
        var plan: Plan
        var variables: Variables
    }

    /// The truth's answer for one operation: its data and its age.
    struct Answer {
        var data: JSONValue
        var fetchTime: Double?
    }

    /// Every row an undamaged dump shows, by key.
    struct Dump {
        var records: [String: ImageRecord] = [:]
        var root: [String: Cell] = [:]
        var fetches: [String: Double] = [:]
        var rowCount: Int { records.count + root.count + fetches.count }
    }

    static let appVersion = "damage-sweep"
    static let truthTime: Double = 9_000
    static let rewriteTime: Double = 10_000

    let shape: ImageDamageShape
    let plans: [Operation]
    /// The base image's bytes (closed cleanly: no WAL).
    let base: [UInt8]
    /// The names and operations the base image holds: the targets of aimed damage.
    let names: [String]
    let operations: [String]
    /// Per operation, what the undamaged image answers (`nil`: a miss).
    let truth: [Answer?]
    let truthDump: Dump
    let rewriteChanges: ChangeSet
    let rewriteTruth: JSONValue

    init(_ shape: ImageDamageShape, directory: String) throws {
        self.shape = shape
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let schema = try Schema.parse(shape.schema)
        let plans = try shape.operations.map { operation in
            let plan = try Plan.build(document: operation.document, schema: schema)
            return Operation(plan: plan, variables: try plan.variables(operation.variables))
        }
        self.plans = plans
        func changes(_ write: ImageDamageShape.Write) throws -> ChangeSet {
            let operation = plans[write.operation]
            return try Ingest.normalize(plan: operation.plan, variables: operation.variables, response: Array(write.response.utf8))
        }

        let basePath = directory + "/base.image"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: basePath + suffix) }
        for (launch, writes) in shape.launches.enumerated() {
            let image = try Self.open(basePath)
            let store = Store(image: image, clock: FixedClock(time: Double(1_000 * (launch + 1))), configuration: .init(collectsAutomatically: false))
            if launch > 0 {
                for operation in plans { _ = store.check(operation.plan, variables: operation.variables) }
            }
            for write in writes { store.commit(try changes(write)) }
            image.close()
        }
        base = [UInt8](try Data(contentsOf: URL(fileURLWithPath: basePath)))

        // The truth: an undamaged copy through the same steps as a damaged one.
        let truthPath = directory + "/truth.image"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: truthPath + suffix) }
        try Data(base).write(to: URL(fileURLWithPath: truthPath))
        let image = try Self.open(truthPath)
        let store = Store(image: image, clock: FixedClock(time: Self.truthTime), configuration: .init(collectsAutomatically: false))
        truth = plans.map { operation in
            guard case .available(_, let fetchTime, _) = store.check(operation.plan, variables: operation.variables) else { return nil }
            return Answer(data: store.read(operation.plan, variables: operation.variables).data, fetchTime: fetchTime)
        }
        image.close()
        let inspection = try Image.inspect(path: truthPath)
        guard let dump = inspection.dump(), dump.isSound else { throw ImageError.notAnImage(path: truthPath, .corrupt) }
        inspection.close()
        var truthDump = Dump()
        for row in dump.records { truthDump.records[row.key.rawValue] = row.record }
        for row in dump.rootFields { truthDump.root[row.field] = row.cell }
        for row in dump.fetches { truthDump.fetches[row.operation.rawValue] = row.time }
        self.truthDump = truthDump
        names = dump.names.map(\.name)
        operations = dump.fetches.map(\.operation.rawValue)

        rewriteChanges = try changes(shape.rewrite)
        let fresh = Store(configuration: .init(collectsAutomatically: false))
        fresh.commit(rewriteChanges)
        let operation = plans[shape.rewrite.operation]
        rewriteTruth = fresh.read(operation.plan, variables: operation.variables).data
    }

    /// Opens an image as the command line does, its writer drained when it closes.
    static func open(_ path: String) throws -> Image {
        try Image.open(path: path, appVersion: appVersion, configuration: ImageConfiguration(executor: ManualWriterExecutor()))
    }

    func open(_ path: String) throws -> Image {
        try Self.open(path)
    }
}
