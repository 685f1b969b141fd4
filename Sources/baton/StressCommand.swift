import Baton
import BatonSim
import Foundation

/// `baton stress --kills N [--seed S] [--image PATH] [--dir DIR] [--checkpoint-pages N] [--mutant NAME]`:
/// real processes killed with SIGKILL, the image checked after each kill (``StressRun``). The child
/// mode, `baton stress --child --image PATH --workload FILE [--checkpoint-pages N] [--mutant NAME]`,
/// is the process killed;
/// it is internal and not in the help.
@MainActor
enum StressCommand {
    static func run(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: ["child"])
        if arguments.flag("child") { return try child(&arguments) }
        guard let kills = try arguments.integer("kills", in: 1...Int.max) else { throw CLIError.usage("missing --kills") }
        let givenSeed = try arguments.option("seed").map { text throws -> UInt64 in
            guard let seed = UInt64(text) else { throw CLIError.usage("--seed takes a whole number from 0 to 18446744073709551615, not \(text)") }
            return seed
        }
        let directory = arguments.option("dir")
        let imageOption = arguments.option("image")
        let checkpointPages = try arguments.integer("checkpoint-pages", in: 1...Int(Int32.max)) ?? ImageSchema.defaultCheckpointPages
        let mutant = try SimCommand.mutant(&arguments)
        try arguments.finish()
        guard let executable = Bundle.main.executableURL else { throw CLIError.failed("cannot find the baton executable to run as the child") }

        let seed = givenSeed ?? UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000_000
        if let path = imageOption ?? directory.map({ $0 + "/stress.image" }) { try refuseExisting(path) }
        let base = try directory ?? makeTemporaryDirectory()
        if let directory { try makeDirectory(directory) }
        let imagePath = imageOption ?? base + "/stress.image"
        if let imageOption { try makeDirectory((imageOption as NSString).deletingLastPathComponent) }
        print("seed \(seed)" + (givenSeed == nil ? ", drawn from the clock: --seed \(seed) repeats its workloads and kill points" : "")
            + "; image \(imagePath)")
        let options = StressRun.Options(
            kills: kills, seed: seed, imagePath: imagePath, directory: base, executable: executable, mutant: mutant,
            checkpointPages: checkpointPages)
        let outcome: StressRun.Outcome
        do {
            outcome = try StressRun.run(options) { done, _ in
                if done % 100 == 0, done < kills { printError("stress: \(done)/\(kills) kills") }
            }
        } catch {
            throw CLIError.failed("stress (seed \(seed)): \(error.description)")
        }
        for violation in outcome.violations { print("VIOLATION \(violation)") }
        print("kills \(outcome.kills), violations \(outcome.violations.count), commits checked \(outcome.commitsChecked) (\(outcome.drainedChecked) reported drained, \(outcome.erasesChecked) erases), "
            + "\(outcome.killsDuringOpen) kills before the open returned, \(outcome.killsAheadOfReport) found more than reported drained, "
            + String(format: "%.1f s", outcome.seconds) + " (seed \(seed))")
        if outcome.violations.isEmpty {
            // The temporary folder's workload and logs go; an image given by --image stays.
            if directory == nil { try? FileManager.default.removeItem(atPath: base) }
            return 0
        }
        printError("stress: the image after kill \(outcome.kills) (seed \(seed)) is not an allowed state; it is kept at \(imagePath)")
        return 1
    }

    /// The killed process: commits a workload into the image until it is killed.
    private static func child(_ arguments: inout Arguments) throws -> Int32 {
        let image = try arguments.required("image")
        let workloadPath = try arguments.required("workload")
        let checkpointPages = try arguments.integer("checkpoint-pages", in: 1...Int(Int32.max)) ?? ImageSchema.defaultCheckpointPages
        let mutant = try SimCommand.mutant(&arguments)
        try arguments.finish()
        let workload: StressWorkload
        do {
            workload = try StressWorkload(decoding: try readFile(workloadPath))
        } catch let error as StressError {
            throw CLIError.input("\(workloadPath): \(error.description)")
        }
        StressChild.run(world: World.standard, workload: workload, imagePath: image, mutant: mutant, checkpointPages: checkpointPages)
    }

    private static func makeTemporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("baton-stress-\(getpid())").path
        try makeDirectory(path)
        return path
    }

    /// The run checks every kill against a model that starts from no file, so it needs a path
    /// with nothing at it: a file there (another run's image, or anything else) would make the
    /// first kill a false violation, or be written over. Nothing is touched.
    private static func refuseExisting(_ imagePath: String) throws {
        for suffix in [""] + Image.companionSuffixes {
            let path = imagePath + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            throw CLIError.input("\(path) already exists (left untouched): baton stress makes its image from nothing and checks every kill from there; give --image or --dir a path with no image at it")
        }
    }

    private static func makeDirectory(_ path: String) throws {
        guard !path.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failed("cannot make the folder \(path): \(error.localizedDescription)")
        }
    }
}
