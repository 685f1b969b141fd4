import Baton

/// The line `baton read` prints when its read is incomplete: where the response left the store
/// nothing, so an exit status of 2 always comes with its reason.
enum MissingFields {
    /// `baton: note: the store holds nothing at b.label, a.meta`; nothing when complete.
    static func report(_ result: ReadResult) {
        guard !result.isComplete, !result.missing.isEmpty else { return }
        let more = result.missing.count >= ReadResult.missingLimit ? " (and perhaps more)" : ""
        printError("baton: note: the store holds nothing at " + result.missing.joined(separator: ", ") + more)
    }
}
