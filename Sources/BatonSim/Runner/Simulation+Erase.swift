import Baton

extension Simulation {
    /// The shortest text an erase's search looks for: shorter ones may occur in the file by chance.
    static let erasedTextMinimumLength = 10
    /// The most texts one erase's drain searches the files for (spread over the sorted texts),
    /// and the most it considers to find them.
    static let erasedTextsSearched = 96
    static let erasedTextsConsidered = 384

    /// The user logs out: the store erases itself, the model forgets, and the texts the image
    /// and memory held wait for the drain that commits the erase (``checkErasedBytes(after:index:)``).
    /// The store's answer must be the model's (`erase-reports-reach`): `true` exactly when the
    /// process has an image and the erase's mark is durable beside its file (or there is no file
    /// yet, so nothing to mark). The disk decides the mark: when it failed an operation during
    /// the erase, the store may answer `false`, and the mark may be there or not; `true` is a
    /// promise the next launch holds the store to.
    func erase(index: Int) throws -> String {
        guard var process else { return "skipped" }
        let reaches = oracle.hasImage
        if reaches {
            // While the image still opens, the open may land on any state the last end left.
            let texts = oracle.erasedTexts(minimumLength: Self.erasedTextMinimumLength, everyState: process.opensLater)
            erasedTexts.formUnion(texts)
        }
        let fileThere = holdsBytes(Self.imagePath)
        let faultsBefore = disk.counters.injectedFaults
        let reached = storeWork.time { process.store.erase() }
        let diskFailedSome = disk.counters.injectedFaults != faultsBefore
        process.layers = [:]
        if process.opensLater && reaches { process.erasedWhileOpening = true }
        self.process = process
        erases += 1
        if reaches { erasesInProcess += 1 }
        let mark: OracleEraseMark? = !reaches || !fileThere ? nil : reached ? .present : .unsure
        oracle.erase(mark: mark)
        guard reached == reaches || (reaches && diskFailedSome) else {
            throw violation(
                "erase-reports-reach",
                "the store's erase answered \(reached) (\(reached ? "it reaches the image" : "the image cannot take it")); the model's process \(reaches ? "has" : "has no") image",
                at: index)
        }
        guard reaches else { return "memory forgotten; the store has no image, so the file keeps its rows" }
        guard fileThere else { return "memory forgotten; no file yet, so no mark: the image is erased at the next drain" }
        guard reached else { return "memory forgotten; the disk failed the erase's mark (the store says so): the image is erased at the next drain" }
        return "memory forgotten, the mark beside the file; the image is erased at the next drain"
    }

    /// The erase's mark a launch's open must find, checked against the disk (before the open:
    /// the store reads it then). Where the model is sure the disk must agree (`erase-mark-kept`:
    /// a mark written before the erase answered `true` stays until a drain finished the erase;
    /// `erase-mark-deleted`: a drain that finished it deleted it); where it is not, the disk
    /// says: a mark it shows is one the open honours, and one a power loss keeps only when its
    /// bytes and its directory entry are durable (a mark whose sync failed is seen until then).
    /// True when the open will erase the image.
    func eraseMarkBeforeOpen(index: Int) throws -> Bool {
        let name = Self.imagePath + EraseMark.suffix
        let onDisk = holdsBytes(name)
        if !onDisk { oracle.eraseMarkGone() }
        switch oracle.eraseMark {
        case .present where !onDisk:
            throw violation(
                "erase-mark-kept",
                "the erase's mark is gone though no drain finished the erase: the open reads the rows the erase forgot", at: index)
        case .absent where onDisk:
            throw violation(
                "erase-mark-deleted",
                "an erase's mark is beside the file though a drain finished the erase: the open erases what was committed since", at: index)
        case .unsure:
            let durable = disk.entryIsDurable(name) == true && (disk.durableSize(of: name) ?? 0) > 0
            oracle.eraseMarkFound(onDisk, durable: durable)
            return onDisk
        default:
            return onDisk
        }
    }

    /// The open handed its image over: an erase made while it opened is made again on the
    /// image, which writes the mark once more (`diskFailedSome`: the disk failed an operation
    /// meanwhile, so the mark may not be there).
    func eraseRepeatedAtOpen(diskFailedSome: Bool) {
        guard let process, process.erasedWhileOpening else { return }
        oracle.eraseMarkRewritten(diskFailedSome: diskFailedSome)
    }

    /// True when the disk holds a file of that name with a byte in it: SQLite's VFS takes an empty
    /// file for no file, and so do the store's mark and the image's open.
    private func holdsBytes(_ name: String) -> Bool {
        (disk.size(of: name) ?? 0) > 0
    }

    /// A launch's open found an erase's mark: the image it opened is erased before anything reads
    /// it, and the drain that finishes the erase searches the files for its texts.
    func erasedAtOpen() -> String {
        erasedTexts.formUnion(oracle.erasedTexts(minimumLength: Self.erasedTextMinimumLength, everyState: false, includingMemory: false))
        oracle.erasedAtOpen()
        erasesInProcess += 1
        erasesAtOpen += 1
        return "; an erase's mark was beside the file: the image is erased before anything reads it"
    }

    /// After the drain that committed an erase, and after each later drain until one is searched:
    /// neither the image's file, its WAL nor a checkpoint's copy may hold the bytes of a text the
    /// erase forgot, unless an image the model committed since the erase holds that text again (a
    /// text written again and replaced may stay in an older copy of its page: seeds 532903505 and
    /// 532903567 of the default world and 628584422 of GitHub's, at 2,000 events). A drain
    /// during which the disk failed an operation may have left the erased pages in the WAL (its
    /// checkpoint failed): the search waits for the next drain the disk lets be, which must finish
    /// what the store owes. The store's own account of its drain is not asked.
    func checkErasedBytes(faultsDuringDrain: Bool, index: Int) throws -> String {
        guard eraseCommitted else { return "" }
        textsWrittenSinceErase += oracle.imageTexts
        guard !faultsDuringDrain else { return "; the disk failed this drain: the erased texts are searched for after the next" }
        defer {
            erasedTexts = []
            eraseCommitted = false
            textsWrittenSinceErase = []
        }
        let kept = textsWrittenSinceErase
        let sorted = erasedTexts.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
        // Spread over the sorted texts: every k-th first, then the ones after them.
        let step = max(1, sorted.count / Self.erasedTextsConsidered)
        var searched: [[UInt8]] = []
        var considered = 0
        for offset in 0..<step where searched.count < Self.erasedTextsSearched && considered < Self.erasedTextsConsidered {
            for position in stride(from: offset, to: sorted.count, by: step) {
                guard searched.count < Self.erasedTextsSearched, considered < Self.erasedTextsConsidered else { break }
                considered += 1
                if !Self.mayOccurByChance(sorted[position], beside: kept) { searched.append(sorted[position]) }
            }
        }
        let names = [Self.imagePath, Self.imagePath + "-wal", Self.imagePath + CheckpointCopy.suffix]
        for name in names {
            guard let bytes = disk.bytes(of: name), !bytes.isEmpty else { continue }
            for text in searched where Self.bytes(bytes, contain: text) {
                throw violation(
                    "erase-leaves-no-bytes",
                    "after the erase's drain, \(name) still holds \(Legible.text(String(decoding: text, as: UTF8.self))), which only the erased image held",
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
            if bytes(kept, contain: text.dropLast(cut)) || bytes(kept, contain: text.dropFirst(cut)) { return true }
        }
        return false
    }

    /// True when `needle` occurs in `haystack` (``ByteSearch``).
    static func bytes(_ haystack: [UInt8], contain needle: ArraySlice<UInt8>) -> Bool {
        ByteSearch.firstOffset(of: needle, in: haystack) != nil
    }

    static func bytes(_ haystack: [UInt8], contain needle: [UInt8]) -> Bool {
        bytes(haystack, contain: needle[...])
    }
}
