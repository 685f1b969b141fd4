import Baton

extension Simulation {
    /// The shortest text an erase's search looks for: shorter ones may occur in the file by chance.
    static let erasedTextMinimumLength = 10
    /// The most texts one erase's drain searches the files for (spread over the sorted texts).
    static let erasedTextsSearched = 96

    /// The user logs out: the store erases itself, the model forgets, and the texts the image
    /// and memory held wait for the drain that commits the erase (``checkErasedBytes(after:index:)``).
    /// The store's answer must be the model's: the erase reaches the file unless the process
    /// runs without an image (`erase-reports-reach`).
    func erase(index: Int) throws -> String {
        guard var process else { return "skipped" }
        let reaches = oracle.hasImage
        if reaches { erasedTexts.formUnion(oracle.erasedTexts(minimumLength: Self.erasedTextMinimumLength)) }
        let reached = storeWork.time { process.store.erase() }
        process.layers = [:]
        self.process = process
        oracle.erase()
        erases += 1
        guard reached == reaches else {
            throw violation(
                "erase-reports-reach",
                "the store's erase answered \(reached) (\(reached ? "it reaches the image" : "the image cannot take it")); the model's process \(reaches ? "has" : "has no") image",
                at: index)
        }
        return reaches ? "memory forgotten; the image is erased at the next drain" : "memory forgotten; the store has no image, so the file keeps its rows"
    }

    /// After the drain that committed an erase, with its checkpoint done: neither the image's file,
    /// its WAL nor a checkpoint's copy may hold the bytes of a text the erase forgot, unless the
    /// model's image holds that text again (committed since). A failed checkpoint leaves them in
    /// the WAL until a later one: not searched.
    func checkErasedBytes(after checkpoint: DrainCheckpoint, index: Int) throws -> String {
        defer { erasedTexts = [] }
        guard checkpoint == .plain || checkpoint == .guarded else { return "; erased (its checkpoint did not run)" }
        let kept = oracle.imageTexts
        let candidates = erasedTexts.map(\.bytes).filter { !Self.mayOccurByChance($0, beside: kept) }
            .sorted { $0.lexicographicallyPrecedes($1) }
        let step = max(1, candidates.count / Self.erasedTextsSearched)
        let searched = stride(from: 0, to: candidates.count, by: step).map { candidates[$0] }
        let names = [Self.imagePath, Self.imagePath + "-wal", Self.imagePath + CheckpointCopy.suffix]
        for name in names {
            guard let bytes = disk.bytes(of: name), !bytes.isEmpty else { continue }
            for text in searched where bytes.firstRange(of: text) != nil {
                throw violation(
                    "erase-leaves-no-bytes",
                    "after the erase's drain and checkpoint, \(name) still holds \(Legible.text(String(decoding: text, as: UTF8.self))), which only the erased image held",
                    at: index)
            }
        }
        erasesSearched += 1
        return "; erased, \(searched.count) of the erased texts searched for and not found"
    }

    /// True when `text`, or `text` without up to three bytes at either end, is in `kept`: the
    /// bytes around a text the image holds again may complete it by chance (GitHub's seed
    /// 470229194 at 2,000 events: the erased id `Repository_11` was `Repository_1`, written
    /// again, followed in its row by a byte that reads `1`).
    static func mayOccurByChance(_ text: [UInt8], beside kept: [UInt8]) -> Bool {
        for cut in 0...3 where text.count - cut >= erasedTextMinimumLength - 3 {
            if kept.firstRange(of: text.dropLast(cut)) != nil || kept.firstRange(of: text.dropFirst(cut)) != nil { return true }
        }
        return false
    }
}
