import Baton
import Glibc

extension Simulation {
    /// The shortest text an erase's search looks for: shorter ones may occur in the file by chance.
    static let erasedTextMinimumLength = 10
    /// The most texts one erase's drain searches the files for (spread over the sorted texts),
    /// and the most it considers to find them.
    static let erasedTextsSearched = 96
    static let erasedTextsConsidered = 384

    /// The user logs out: the store erases itself, the model forgets, and the texts the image
    /// and memory held wait for the drain that commits the erase (``checkErasedBytes(after:index:)``).
    /// The store's answer must be the model's: the erase reaches the file unless the process
    /// runs without an image (`erase-reports-reach`).
    func erase(index: Int) throws -> String {
        guard var process else { return "skipped" }
        let reaches = oracle.hasImage
        if reaches {
            // While the image still opens, the open may land on any state the last end left.
            let texts = oracle.erasedTexts(minimumLength: Self.erasedTextMinimumLength, everyState: process.opensLater)
            erasedTexts.formUnion(texts)
        }
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

    /// True when `needle` occurs in `haystack`: `memchr` finds each place its first byte occurs,
    /// `memcmp` compares the rest (the files and the texts run to hundreds of kilobytes, too slow
    /// for the standard library's generic search at every erase).
    static func bytes(_ haystack: [UInt8], contain needle: ArraySlice<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let start = hay.baseAddress, let pattern = pin.baseAddress, hay.count >= pin.count else { return false }
                var at = start
                let last = start + (hay.count - pin.count)
                while at <= last {
                    guard let found = memchr(at, Int32(first), last - at + 1) else { return false }
                    if memcmp(found, pattern, pin.count) == 0 { return true }
                    at = UnsafeRawPointer(found) + 1
                }
                return false
            }
        }
    }

    static func bytes(_ haystack: [UInt8], contain needle: [UInt8]) -> Bool {
        bytes(haystack, contain: needle[...])
    }
}
