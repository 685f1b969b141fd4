/// `baton sim …` (lands with the simulator).
@MainActor
enum SimCommand {
    static func run(_ words: [String]) throws -> Int32 {
        throw CLIError.failed("baton sim: not built yet")
    }
}
