extension Oracle {
    /// The user logs out (``SimEvent/erase``): memory forgets every record, layer, hydration and
    /// fetch time at once; what the writer holds is dropped, and the next drain that commits
    /// empties the image before it writes what was committed since. Until then every read
    /// misses (as after an overflow, ``writerMustWipe``). Retained roots and the release buffer
    /// stay: the screens that hold them go on watching. A process without an image only forgets.
    ///
    /// `mark`: what the erase left beside the file, as the runner knows it (the erase's answer
    /// and the disk's faults): `nil` when it left none (no image, or no file to erase yet).
    package mutating func erase(mark: OracleEraseMark? = nil) {
        forgetServerData()
        guard hasImage else { return }
        queue = []
        writerMustWipe = true
        eraseMustWipe = true
        if let mark { eraseMark = mark }
        if mark == .present { erasePromised = true }
        drainOvertaken(byErase: true, promised: mark == .present)
    }

    /// The open found an erase's mark (a process ended before its erase's drain finished it): the
    /// image is erased before anything reads it, as by ``erase(mark:)`` but keeping what this
    /// process committed while the image opened (it came after the erase). What the model knows
    /// of the mark stays as the launch found it (``eraseMarkFound(_:durable:)``): a drain that
    /// finishes the erase deletes it.
    package mutating func erasedAtOpen() {
        writerMustWipe = true
        eraseMustWipe = true
        if eraseMark == .present { erasePromised = true }
    }

    /// A launch found no erase's mark beside the file: if a promised erase's wipe committed in
    /// the states a crash may return to, the mark's deletion says its checkpoint put the wipe in
    /// the file, so no state before the wipe can come back (found 2026-12-07 by a session
    /// planting bugs: a mark deleted while the erase's checkpoint was still owed passed every
    /// campaign, since the model took the mark for unsure after any fault and let a power loss
    /// return to the rows the erase had promised were gone).
    package mutating func eraseMarkGone() {
        if let wiped = erasedThrough, wiped < states.count { durable = max(durable, wiped) }
    }

    /// A drain ran. A mark is deleted only once a drain has committed the erase's wipe and run
    /// its truncating checkpoint: one that committed while the disk failed none of its
    /// operations (or had nothing to do but an owed checkpoint) deleted it; one that committed
    /// while the disk failed some may have; one that failed or stopped kept it.
    /// `diskFailedSome`: the disk failed an operation during the drain, or a crash was armed.
    /// A drain that ends after an erase came while it was in flight did not finish that erase:
    /// the mark stays.
    package mutating func eraseMarkAfterDrain(finished: Bool, diskFailedSome: Bool) {
        guard eraseMark != .absent, finished, !eraseWaitsBehindDrain else { return }
        eraseMark = diskFailedSome ? .unsure : .absent
    }

    /// The process's close drained once more, unseen by the model: it may have finished the erase.
    package mutating func eraseMarkMayHaveGone() {
        if eraseMark == .present { eraseMark = .unsure }
    }

    /// The mark's presence, as the disk answered where the model could not say: one the disk
    /// shows but would not keep through a power loss (its sync failed) stays unsure.
    package mutating func eraseMarkFound(_ present: Bool, durable: Bool) {
        eraseMark = !present ? .absent : durable ? .present : .unsure
    }

    /// An erase made while the image opened was made again on the image it handed over, which
    /// writes the mark again: there now, unless the disk failed an operation meanwhile.
    package mutating func eraseMarkRewritten(diskFailedSome: Bool) {
        guard eraseMark != .present else { return }
        eraseMark = diskFailedSome ? .unsure : .present
    }

    /// Memory's records, layers, hydrations and fetch times, dropped: what a new process and an
    /// erase both start from.
    mutating func forgetServerData() {
        base = [:]
        layers = []
        overlay = [:]
        hydrated = []
        fetches = [:]
    }

    /// Every text the erase must leave no byte of once its drain commits: the record keys, links
    /// and string values of the image (with the rows a damaged name hides), of memory (what was
    /// committed and never drained), and, with `everyState` (an image still opening, which may
    /// land on any of them), of every state the file may hold. Texts shorter than
    /// `minimumLength` bytes are left out: they may occur anywhere by chance. Without
    /// `includingMemory` (an open that found an erase's mark: memory holds only what came after
    /// the erase), memory's are left out.
    package func erasedTexts(minimumLength: Int, everyState: Bool, includingMemory: Bool = true) -> Set<OracleText> {
        var texts = Set<OracleText>()
        func add(_ text: OracleText) {
            if text.string.utf8.count >= minimumLength { texts.insert(text) }
        }
        func add(_ value: OracleValue) { value.forEachText(scalarTexts: false, add) }
        // A storage key with arguments holds the values the app sent (`search(query:"…")`), in
        // the names table as much as in its rows; an operation's identity holds its variables.
        // Before 2026-12-07 (afternoon) neither was searched for, and a wipe that left the names
        // table alone was caught by chance only (a key's tail matching a record key).
        func addArguments(_ storageKey: OracleText) {
            if storageKey.string.utf8.contains(UInt8(ascii: "(")) { add(storageKey) }
        }
        for state in everyState ? states + [image, dormant] : [image, dormant] {
            for (key, row) in state.records {
                add(key)
                for (storageKey, cell) in row.cells {
                    addArguments(storageKey)
                    add(cell.value)
                }
            }
            for (field, row) in state.root {
                addArguments(field)
                add(row.cell.value)
            }
            for operation in state.fetches.keys { add(operation) }
        }
        for (key, record) in includingMemory ? base : [:] {
            add(key)
            for (storageKey, cell) in record.cells {
                addArguments(storageKey)
                add(cell.value)
            }
        }
        return texts
    }

    /// Every text the image the model expects holds (keys, storage keys, typenames, string values,
    /// field errors' messages, paths and members, operation identities), joined: an erased text
    /// found in it was written again since the erase, and may stay (campaigns of 2026-12-07 met
    /// an erased string back in a later response's error, seeds 384044157 and 203600657 of
    /// GitHub's world).
    package var imageTexts: [UInt8] {
        var joined: [UInt8] = []
        func add(_ text: OracleText) {
            joined.append(contentsOf: text.bytes)
            joined.append(0)
        }
        func add(_ cell: OracleCell) {
            cell.value.forEachText(scalarTexts: true, add)
            for error in cell.errors {
                add(error.message)
                add(error.path)
                if let extensions = error.extensions { add(extensions) }
                if let others = error.otherMembers { add(others) }
            }
        }
        for (key, row) in image.records {
            add(key)
            add(OracleText(row.typename))
            for (storageKey, cell) in row.cells {
                add(storageKey)
                add(cell)
            }
        }
        for (field, row) in image.root {
            add(field)
            add(row.cell)
        }
        for operation in image.fetches.keys { add(operation) }
        return joined
    }
}

extension OracleValue {
    /// Calls `body` with every text the value holds: strings and link keys, in lists too, and,
    /// with `scalarTexts`, a custom scalar's canonical JSON and exact numbers.
    func forEachText(scalarTexts: Bool, _ body: (OracleText) -> Void) {
        switch self {
        case .string(let text), .link(let text): body(text)
        case .object(let text), .number(let text): if scalarTexts { body(text) }
        case .links(let keys): for key in keys { if let key { body(key) } }
        case .list(let items): for item in items { item.forEachText(scalarTexts: scalarTexts, body) }
        case .null, .bool, .int, .double: break
        }
    }
}

/// What the model knows of an erase's mark beside the file (`EraseMark` in the store): written
/// before an erase answers `true`, deleted only by a drain that finished the erase.
package enum OracleEraseMark: String, Sendable, Hashable {
    /// No mark: the next open reads the image as the last end left it.
    case absent
    /// A mark: the next open erases the image before anything reads it.
    case present
    /// The disk failed an operation that may have written or deleted it: the next launch asks
    /// the disk.
    case unsure
}
