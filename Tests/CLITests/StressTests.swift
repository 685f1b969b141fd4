import Baton
import BatonSim
import Foundation
import Testing

/// Issue 9, "real processes, real threads": `baton stress` kills children that run the real store
/// with the production background writer, and checks the file after every kill. The quick slice
/// runs here; `scripts/stress.sh` runs the long one.
@Suite("Real processes killed with SIGKILL, the image checked after each kill")
struct StressTests {
    @Test("a quick slice: 30 kills on one image, every state allowed")
    func quickSlice() throws {
        try TemporaryFolder.with { folder in
            let result = try BatonProcess.run(["stress", "--kills", "30", "--seed", "11", "--dir", folder.path], in: folder)
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            let summary = try #require(result.stdout.split(separator: "\n").last.map(String.init))
            #expect(summary.hasPrefix("kills 30, violations 0, commits checked "), "\(summary)")
            #expect(summary.contains("(seed 11)"), "\(summary)")
            #expect(result.stdout.hasPrefix("seed 11; image "))
            // The kills reached commits and drains, not only opens.
            let words = summary.split(separator: " ")
            #expect(words.count > 6 && (Int(words[6]) ?? 0) > 100, "\(summary)")
        }
    }

    @Test("children whose writer checkpoints every 2 pages, killed inside those checkpoints too: every state allowed")
    func frequentCheckpoints() throws {
        try TemporaryFolder.with { folder in
            let result = try BatonProcess.run(
                ["stress", "--kills", "20", "--seed", "12", "--dir", folder.path, "--checkpoint-pages", "2"], in: folder)
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            let summary = try #require(result.stdout.split(separator: "\n").last.map(String.init))
            #expect(summary.hasPrefix("kills 20, violations 0, commits checked "), "\(summary)")
        }
    }

    /// Every file of `path` with its bytes (not the runs' captured output, `.stdout-…`, `.stderr-…`).
    private static func files(in path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where !name.hasPrefix(".") {
            files[name] = FileManager.default.contents(atPath: path + "/" + name) ?? Data()
        }
        return files
    }

    @Test("a path with a file at it (another run's image, or any file) is refused and left as it was: no false violation, nothing written over")
    func existingImageRefused() throws {
        try TemporaryFolder.with { folder in
            let first = try BatonProcess.run(["stress", "--kills", "2", "--seed", "4", "--dir", folder.path], in: folder)
            #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
            let image = folder.path + "/stress.image"
            let notes = folder.path + "/notes.txt"
            try "mine".write(toFile: notes, atomically: true, encoding: .utf8)
            let before = try Self.files(in: folder.path)
            // The same folder again (its image is the last run's), and a file that is no image.
            for (arguments, path) in [(["--dir", folder.path], image), (["--image", notes], notes)] {
                let run = try BatonProcess.run(["stress", "--kills", "2", "--seed", "4"] + arguments, in: folder)
                #expect(run.status == 65, "\(run.stdout) \(run.stderr)")
                #expect(run.stdout.isEmpty, "\(run.stdout)")
                #expect(run.errorLines == ["baton: \(path) already exists (left untouched): baton stress makes its image from nothing and checks every kill from there; give --image or --dir a path with no image at it"], "\(run.stderr)")
                #expect(try Self.files(in: folder.path) == before)
            }
        }
    }

    @Test("children that never age rows out (the evictNever mutant) are caught, with the seed and the kill")
    func catchesAMutant() throws {
        try #require(Mutants.available, "mutants are compiled into debug builds")
        try TemporaryFolder.with { folder in
            let result = try BatonProcess.run(
                ["stress", "--kills", "60", "--seed", "3", "--dir", folder.path, "--mutant", "evictNever"], in: folder)
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            let violation = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("VIOLATION kill ") })
            #expect(violation.contains("(seed 3, killed "), "\(violation)")
            #expect(violation.contains("none of the"), "\(violation)")
            #expect(result.stdout.contains("violations 1"))
            #expect(result.errorLines.last?.contains("is not an allowed state; it is kept at") == true, "\(result.stderr)")
        }
    }

    @Test("the workload file reads back exactly, responses byte for byte")
    func workloadRoundTrip() throws {
        var drawer = StressWorkloadDrawer(world: World.standard, seed: 5)
        let workload = drawer.next(count: 20)
        #expect(workload.steps.filter { !$0.isErase }.count == 20)
        #expect(workload.steps.map(\.isErase).contains(true), "seed 5 draws an erase among its first 20 responses")
        #expect(try StressWorkload(decoding: workload.encoded()) == workload)
        var again = StressWorkloadDrawer(world: World.standard, seed: 5)
        #expect(again.next(count: 20) == workload, "the workload is the seed's alone")
        #expect(throws: StressError.self) { try StressWorkload(decoding: Array("step x 1 2\n{}".utf8)) }
    }
}

/// The check itself, in-process: it fails when the file and the report disagree.
@Suite("The stress check's allowed states")
struct StressCheckTests {
    /// An image the model decoded: generation `generation`, no rows.
    private func empty(_ generation: Int) -> StressObservedImage { .image(.empty(generation: generation)) }

    @Test("a drain the child reported must be in the file")
    func reportedDrainMissing() throws {
        var drawer = StressWorkloadDrawer(world: World.standard, seed: 9)
        let workload = drawer.next(count: 6)
        var check = StressCheck(world: World.standard)
        var report = StressChildReport()
        report.take("opened 1 created")
        for step in 0..<6 { report.take("committed \(step)") }
        report.take("drained 5")
        let verdict = try check.check(empty(1), workload: workload, report: report)
        #expect(verdict.violation?.contains("none of the 1 allowed states") == true, "\(String(describing: verdict.violation))")
        // Nothing drained yet: the empty opened image is allowed.
        var early = StressChildReport()
        early.take("opened 1 created")
        early.take("committed 0")
        #expect(try check.check(empty(1), workload: workload, report: early).violation == nil)
    }

    @Test("an erase the child reported drained must have emptied the file; before that report, the rows may stay")
    func erasedDrain() throws {
        var drawer = StressWorkloadDrawer(world: World.standard, seed: 9)
        let response = try #require(drawer.next(count: 1).steps.last)
        let workload = StressWorkload(steps: [response, .erase(now: response.now)])
        // The image the response alone leaves, as the model makes it.
        var model = Oracle(world: World.standard)
        model.relaunched(found: 0, generation: 1, after: .kill)
        let read = try model.normalize(text: response.response, operation: response.operation, variables: response.variables)
        model.serverCommit(read, operation: response.operation, variables: response.variables, now: response.now, answering: nil)
        model.drainCommitted(synced: true)
        let unerased = StressObservedImage.image(model.image)
        #expect(model.image.rowCount > 0)
        func report(drained: Int) -> StressChildReport {
            var report = StressChildReport()
            report.take("opened 1 created")
            report.take("committed 0")
            report.take("committed 1")
            report.take("drained \(drained)")
            return report
        }
        var check = StressCheck(world: World.standard)
        #expect(try check.check(unerased, workload: workload, report: report(drained: 1)).violation?.contains("none of the 1 allowed states") == true)
        check = StressCheck(world: World.standard)
        #expect(try check.check(empty(1), workload: workload, report: report(drained: 1)).violation == nil)
        check = StressCheck(world: World.standard)
        #expect(try check.check(unerased, workload: workload, report: report(drained: 0)).violation == nil)
    }

    @Test("an erase that returned leaves a mark unless the file holds a drain after it; a mark found makes the next open erase")
    func eraseMark() throws {
        var drawer = StressWorkloadDrawer(world: World.standard, seed: 9)
        let response = try #require(drawer.next(count: 1).steps.last)
        var model = Oracle(world: World.standard)
        model.relaunched(found: 0, generation: 1, after: .kill)
        let read = try model.normalize(text: response.response, operation: response.operation, variables: response.variables)
        model.serverCommit(read, operation: response.operation, variables: response.variables, now: response.now, answering: nil)
        model.drainCommitted(synced: true)
        var first = StressChildReport()
        first.take("opened 1 created")
        first.take("committed 0")
        first.take("drained 0")
        func afterFirstKill() throws -> StressCheck {
            var check = StressCheck(world: World.standard)
            #expect(try check.check(.image(model.image), workload: StressWorkload(steps: [response]), report: first).violation == nil)
            return check
        }
        // The second child erases and is killed before a drain: the rows are still in the file.
        let erasing = StressWorkload(steps: [.erase(now: response.now)])
        var second = StressChildReport()
        second.take("opened 2 opened")
        second.take("committed 0")
        var unerased = model.image
        unerased.generation = 2
        var check = try afterFirstKill()
        let unmarked = try check.check(.image(unerased), workload: erasing, report: second, eraseMarkBeside: false)
        #expect(unmarked.violation?.contains("neither an erase's mark") == true, "\(String(describing: unmarked.violation))")
        check = try afterFirstKill()
        #expect(try check.check(.image(unerased), workload: erasing, report: second, eraseMarkBeside: true).violation == nil)
        #expect(check.eraseMarkAtNextOpen)
        // The erase's drain committed (and deleted the mark) before the child could report it.
        check = try afterFirstKill()
        #expect(try check.check(empty(2), workload: erasing, report: second, eraseMarkBeside: false).violation == nil)
        #expect(!check.eraseMarkAtNextOpen)
    }

    @Test("the generation must be the previous one (no open committed) or the next")
    func generations() throws {
        var drawer = StressWorkloadDrawer(world: World.standard, seed: 9)
        let workload = drawer.next(count: 3)
        var check = StressCheck(world: World.standard)
        #expect(try check.check(empty(3), workload: workload, report: StressChildReport()).violation?.contains("generation 3") == true)
        var opened = StressChildReport()
        opened.take("opened 1 created")
        #expect(try check.check(empty(0), workload: workload, report: opened).violation?.contains("the open returned") == true)
        #expect(try check.check(.missing, workload: workload, report: opened).violation != nil)
        #expect(try check.check(.missing, workload: workload, report: StressChildReport()).violation == nil)
    }
}
