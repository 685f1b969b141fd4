import Synchronization

/// The number of a storage key in this process. Slot numbers never reach the disk.
public struct SlotID: Hashable, Sendable {
    public let index: UInt32
    init(index: UInt32) { self.index = index }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
    }

    /// A slot's hash in a dictionary or set of slots: the index mixed with the table's seed by a
    /// 64-bit finalizer (splitmix64's) instead of a full `Hasher` run per probe. Records keep
    /// their cells in a `CellTable` now; sets and dictionaries of slots still probe this way.
    public func _rawHashValue(seed: Int) -> Int {
        var x = UInt64(index) &+ UInt64(bitPattern: Int64(seed)) &* 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(bitPattern: UInt(truncatingIfNeeded: x ^ (x >> 31)))
    }
}

/// The process-wide table of storage keys: storage key text ⇄ slot number.
///
/// Slot numbers depend on the order in which a process first met each key, so nothing that
/// must be deterministic may order by them: order by ``name(of:)`` instead.
public final class SlotTable: Sendable {
    /// The one table of this process.
    public static let shared = SlotTable()

    private struct State {
        var slots: [ExactText: SlotID] = [:]
        var names: [String] = []
        /// Each slot's position among all names in UTF-8 order, for as many slots as were
        /// numbered when it was last worked out.
        var ranks: [Int32] = []
        /// The slots `ranks` covers, in UTF-8 order of their names (``SlotOrder``).
        var order = SlotOrder()
    }

    private let state = Mutex(State())

    /// The slot of `storageKey`, numbering it when the process meets it first.
    public func slot(_ storageKey: String) -> SlotID {
        state.withLock { state in
            if let slot = state.slots[ExactText(storageKey)] { return slot }
            let slot = SlotID(index: UInt32(state.names.count))
            state.names.append(storageKey)
            state.slots[ExactText(storageKey)] = slot
            return slot
        }
    }

    /// The slots of several storage keys under one lock (hydration maps a row's cells at once).
    public func slots<C: Collection>(_ storageKeys: C) -> [SlotID] where C.Element == String {
        state.withLock { state in
            storageKeys.map { storageKey in
                if let slot = state.slots[ExactText(storageKey)] { return slot }
                let slot = SlotID(index: UInt32(state.names.count))
                state.names.append(storageKey)
                state.slots[ExactText(storageKey)] = slot
                return slot
            }
        }
    }

    /// The slot of `storageKey` if the process has met it, without numbering it.
    public func existingSlot(_ storageKey: String) -> SlotID? {
        state.withLock { $0.slots[ExactText(storageKey)] }
    }

    /// The storage key texts of several slots under one lock, in their order.
    func names<C: Collection>(of slots: C) -> [String] where C.Element == SlotID {
        state.withLock { state in slots.map { state.names[Int($0.index)] } }
    }

    /// Each slot's position in the UTF-8 order of every storage key the process has numbered,
    /// indexed by slot: comparing two slots' ranks compares their names' bytes. Worked out again
    /// only after new slots were numbered (the writer sorts a record's cells by these), by
    /// placing the new names in the order kept from last time rather than sorting every name
    /// again: a process that keeps meeting new storage keys (the simulator's) sorted its whole
    /// table once per drain.
    func utf8Ranks() -> [Int32] {
        state.withLock { state in
            if state.ranks.count != state.names.count {
                state.order.place(state.names)
                state.ranks = state.order.ranks()
            }
            return state.ranks
        }
    }

    /// The storage key text of `slot`.
    public func name(of slot: SlotID) -> String {
        state.withLock { $0.names[Int(slot.index)] }
    }
}

extension SlotID {
    /// The storage key text of this slot.
    public var name: String { SlotTable.shared.name(of: self) }
    /// The slot of `storageKey` in the process-wide table.
    public static func named(_ storageKey: String) -> SlotID { SlotTable.shared.slot(storageKey) }
}
