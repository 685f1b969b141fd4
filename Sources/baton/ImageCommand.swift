/// `baton image …` (lands with the image).
@MainActor
enum ImageCommand {
    static func run(_ words: [String]) throws -> Int32 {
        throw CLIError.failed("baton image: not built yet")
    }
}
