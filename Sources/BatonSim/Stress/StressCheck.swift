import Baton
import Foundation

/// What the parent of `baton stress` learned from one child's report lines.
package struct StressChildReport: Sendable, Equatable {
    /// `opened G KIND`: the generation the image opened at and what the open found.
    package var opened: (generation: Int, kind: String)?
    /// The last step whose commit returned (-1: none).
    package var committed = -1
    /// The last step a completed drain covered (-1: none).
    package var drained = -1
    /// Every step committed and drained.
    package var idle = false
    /// The child could not go on (`failed …`).
    package var failure: String?

    package init() {}

    /// Takes one line the child wrote; false for a line that is none of the report's.
    @discardableResult
    package mutating func take(_ line: String) -> Bool {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        switch words.first {
        case "opened" where words.count == 3: opened = Int(words[1]).map { ($0, words[2]) }
        case "committed" where words.count == 2: committed = max(committed, Int(words[1]) ?? committed)
        case "drained" where words.count == 2: drained = max(drained, Int(words[1]) ?? drained)
        case "idle": idle = true
        case "failed": failure = String(line.dropFirst("failed ".count))
        default: return false
        }
        return true
    }

    package static func == (a: StressChildReport, b: StressChildReport) -> Bool {
        a.opened?.generation == b.opened?.generation && a.opened?.kind == b.opened?.kind && a.committed == b.committed
            && a.drained == b.drained && a.idle == b.idle && a.failure == b.failure
    }
}

/// The image file as the parent finds it after a kill.
package enum StressObservedImage: Sendable {
    /// No file at the path (the first child died before creating it).
    case missing
    /// A file that is not an image yet (the first child died while creating it); the next open
    /// deletes it and starts again.
    case notAnImage(String)
    /// An image, its rows decoded by the model's own reader.
    case image(OracleImage)
}

/// The allowed states of the image after a kill, from the reference model (``Oracle``).
///
/// The model holds the image as it was verified after the previous kill. For the child that was
/// killed it knows every step of its workload (what each response means) and the child's report:
/// how far commits returned (`committed C`) and how far completed drains reached (`drained D`).
/// The OS keeps every write a killed process made, so the file holds exactly what the writer's
/// last committed transaction left. Allowed, with G₀ the generation verified last time:
/// - the generation is still G₀ (the open's transaction did not commit): only if the child never
///   reported `opened`, and the rows are exactly the previous state's;
/// - the generation is G₀ + 1 and the rows are exactly the model's image after the open and
///   a drain of steps 0..<p, for some p with D + 1 ≤ p ≤ min(C + 2, N): every step a completed
///   drain covered is there, nothing a later step made that had not even started (step C + 1
///   may have been inside `commit` when the kill came), and no row, cell, deletion, fetch time
///   or `used` stamp that this prefix of commits, the rules of merging and the first drain's
///   eviction of rows unread for a whole launch do not make;
/// - when no drain was reported, also the rows of the previous state at generation G₀ + 1
///   (opened, nothing drained yet).
/// Any other generation, or rows matching none of these, is a violation.
package struct StressCheck: Sendable {
    /// The model, its image the state verified after the last kill.
    package private(set) var oracle: Oracle
    /// True until an open has been seen in the file: the file may be missing or half made.
    package private(set) var beforeFirstOpen = true
    /// True when an erase's mark was beside the image at the last check: the next child's open
    /// erases the image before anything reads it, and its first drain empties the file.
    package private(set) var eraseMarkAtNextOpen = false

    package init(world: World) {
        oracle = Oracle(world: world)
    }

    /// What one check found.
    package struct Verdict: Sendable {
        /// `nil` when the file is one of the allowed states.
        package var violation: String?
        /// How many states were allowed.
        package var allowedStates = 0
        /// The prefix of steps the file holds (`nil`: the open did not commit, or nothing drained).
        package var landedSteps: Int?
        /// The longest prefix of steps whose state the file matches, when several match.
        package var latestSteps: Int?
    }

    /// Checks `observed` against the states allowed after a kill of a child that ran `workload`
    /// and reported `report`; on success the model moves to the state found.
    ///
    /// `eraseMarkBeside`: an erase's mark is beside the image now (``EraseMark``). An erase that
    /// returned with no drain reported after it must have left one (from the second child on:
    /// before an image file exists there is nothing to mark). A mark found now makes the next
    /// child's open erase the image, which the next check expects.
    package mutating func check(
        _ observed: StressObservedImage, workload: StressWorkload, report: StressChildReport, eraseMarkBeside: Bool = false
    ) throws(StressError) -> Verdict {
        let markExpected = !beforeFirstOpen && !eraseMarkBeside
        let verdict = try checkRows(observed, workload: workload, report: report)
        guard verdict.violation == nil else { return verdict }
        // The drain that commits an erase deletes its mark: the file must then hold that drain.
        if markExpected, let erase = workload.steps.indices.last(where: { $0 <= report.committed && workload.steps[$0].isErase }),
            erase > report.drained, (verdict.latestSteps ?? -1) <= erase
        {
            return Verdict(
                violation: "the erase of step \(erase) returned, yet neither an erase's mark is beside the image nor does the file hold a drain after it: the next open reads the rows it erased",
                allowedStates: verdict.allowedStates)
        }
        eraseMarkAtNextOpen = eraseMarkBeside
        return verdict
    }

    private mutating func checkRows(_ observed: StressObservedImage, workload: StressWorkload, report: StressChildReport) throws(StressError) -> Verdict {
        let previous = oracle.image
        let image: OracleImage
        switch observed {
        case .missing, .notAnImage:
            guard beforeFirstOpen, report.opened == nil else {
                return Verdict(violation: "the image is \(Self.describe(observed)) after \(report.opened == nil ? "a launch" : "an open returned")")
            }
            return Verdict(allowedStates: 1)
        case .image(let found):
            image = found
        }
        if let kind = report.opened?.kind, kind != "opened", !(beforeFirstOpen && kind.hasPrefix("created") || beforeFirstOpen && kind.hasPrefix("recreated")) {
            return Verdict(violation: "the open after a kill did not find the image usable: \(kind)")
        }
        let previousGeneration = beforeFirstOpen ? 0 : previous.generation
        if image.generation == previousGeneration {
            guard report.opened == nil else {
                return Verdict(violation: "the open returned (generation \(report.opened!.generation)) but the file is still at generation \(image.generation)")
            }
            guard image.sameRows(as: previous) else {
                return Verdict(violation: "no open committed, yet the rows changed: " + Self.lines(OracleDifference.images(expected: previous, actual: image)))
            }
            return Verdict(allowedStates: 1)
        }
        guard image.generation == previousGeneration + 1 else {
            return Verdict(violation: "the file is at generation \(image.generation), not \(previousGeneration) or \(previousGeneration + 1)")
        }
        if let opened = report.opened, opened.generation != image.generation {
            return Verdict(violation: "the child opened generation \(opened.generation) but the file is at \(image.generation)")
        }

        var launched = oracle
        launched.relaunched(found: 0, generation: image.generation, after: .kill)
        if eraseMarkAtNextOpen { launched.erasedAtOpen() }
        var candidates: [(steps: Int?, model: Oracle)] = []
        if report.drained < 0 { candidates.append((nil, launched)) }
        let low = max(report.drained + 1, 0)
        let high = min(report.committed + 2, workload.steps.count)
        var running = launched
        for prefix in 0...high {
            if prefix >= low {
                var drained = running
                drained.drainCommitted(synced: true)
                candidates.append((prefix, drained))
            }
            guard prefix < high else { break }
            let step = workload.steps[prefix]
            if step.isErase {
                running.erase()
                continue
            }
            let response: ModelResponse
            do {
                response = try running.normalize(text: step.response, operation: step.operation, variables: step.variables)
            } catch {
                throw StressError("the model cannot read step \(prefix)'s response to \(step.operation): \(error)")
            }
            running.serverCommit(response, operation: step.operation, variables: step.variables, now: step.now, answering: nil)
        }
        let matching = candidates.filter { $0.model.image.sameRows(as: image) }
        guard let found = matching.first else {
            let newest = candidates.last!.model.image
            let range = "steps 0..<p for p in \(low)...\(high)" + (report.drained < 0 ? ", or nothing drained" : "")
            return Verdict(
                violation: "the image (generation \(image.generation), \(image.rowCount) rows) is none of the \(candidates.count) allowed states (\(range); committed through \(report.committed), drained through \(report.drained)); against the newest: "
                    + Self.lines(OracleDifference.images(expected: newest, actual: image)),
                allowedStates: candidates.count)
        }
        oracle = found.model
        beforeFirstOpen = false
        return Verdict(allowedStates: candidates.count, landedSteps: found.steps, latestSteps: matching.last?.steps)
    }

    private static func describe(_ observed: StressObservedImage) -> String {
        switch observed {
        case .missing: "missing"
        case .notAnImage(let why): "not an image (\(why))"
        case .image: "an image"
        }
    }

    private static func lines(_ lines: [String]) -> String {
        lines.prefix(6).joined(separator: "; ") + (lines.count > 6 ? "; and \(lines.count - 6) more" : "")
    }

    /// Reads the file at `path` without writing it (``Image/inspect(path:vfs:faults:)``): its
    /// integrity, then its tables through the model's own row reader.
    package static func observe(path: String) -> Result<StressObservedImage, StressError> {
        guard FileManager.default.fileExists(atPath: path) else { return .success(.missing) }
        let inspection: Image
        do {
            inspection = try Image.inspect(path: path)
        } catch {
            if case .notAnImage = error { return .success(.notAnImage("\(error)")) }
            return .failure(StressError("inspecting the image: \(error)"))
        }
        defer { inspection.close() }
        if inspection.opening == .foreign { return .failure(StressError("the image is taken for a foreign database")) }
        let integrity = inspection.integrityCheck()
        guard integrity == "ok" else { return .failure(StressError("integrity_check: \(integrity)")) }
        let tables: ImageRawTables
        do {
            tables = try inspection.rawTables()
        } catch {
            return .failure(StressError("the image's tables do not read: \(error)"))
        }
        switch Oracle.decode(OracleBridge.raw(tables)) {
        case .success(let decoded): return .success(.image(decoded))
        case .failure(let problem): return .failure(StressError("the image's rows do not decode: \(problem)"))
        }
    }
}
