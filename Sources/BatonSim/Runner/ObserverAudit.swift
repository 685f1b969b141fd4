import Baton
import Observation
import Synchronization

/// Watches every slot of every record the store shows, and checks after each event that exactly
/// the slots whose visible cell changed notified, and nothing else.
///
/// A slot a record does not hold yet is watched too (every slot name its type has shown so far),
/// so a slot that appears notifies as much as one that changes. Record-level changes (the type,
/// deletion, the record leaving or coming back) go through the record's own channel.
@MainActor
final class ObserverAudit {
    /// A notification: the watch it came from (by number) and the slot, or the record itself
    /// (`slot` nil). Notifications are plain numbers while the store runs (an `onChange` handler
    /// only appends one); names are looked up only to describe a disagreement.
    struct Notice: Sendable, Equatable {
        var watch: UInt32
        var slot: SlotID?

        /// The notice as one number (watch, then slot; the record itself is slot 0), to compare
        /// what fired with what changed as sets of numbers.
        var packed: UInt64 {
            UInt64(watch) << 32 | (slot.map { UInt64($0.index) + 1 } ?? 0)
        }
    }

    /// The slots records of one type have shown so far; `version` grows whenever they do, so a
    /// watch that covered version `v` in full needs no set comparison while it is still `v`.
    private final class TypeSlots {
        var slots: Set<SlotID> = []
        var version = 0
    }

    /// One record's watches (a class: the audit renews them in place every event).
    private final class Watch {
        let record: Record
        /// The number this watch's notices carry (an index into `keys`).
        let number: UInt32
        /// Slots watched now (a fired watch is renewed after the event that fired it).
        var slots: Set<SlotID> = []
        var recordWatched = false
        /// The record's visible data at the last `watch` (meaningful when `epoch` is the audit's).
        var before: RecordData?
        var epoch = 0
        /// The type's slots this watch covered in full, at `typeVersion` (-1: look again).
        var type: TypeSlots?
        var typeVersion = -1

        init(record: Record, number: UInt32) {
            self.record = record
            self.number = number
        }
    }

    /// Notices that fired since the last verification (onChange handlers are `@Sendable`).
    private final class Fired: Sendable {
        let notices = Mutex<[Notice]>([])
    }

    /// The records as they were when ``watch(_:)`` ran: kept in the watches themselves, stamped
    /// with this epoch.
    struct Before {
        fileprivate let epoch: Int
    }

    private let fired = Fired()
    private var watches: [RecordKey: Watch] = [:]
    /// The record key of every watch number ever given out (a watch is renumbered when its
    /// record comes back as a new object).
    private var keys: [RecordKey] = []
    private var slotsByType: [String: TypeSlots] = [:]
    private var epoch = 0

    /// Watches every visible record of `store` (new records, new slots, renewed watches) and
    /// remembers the visible records as they are now. The order records and slots are watched in
    /// decides nothing: what fired is compared as a set of numbers.
    func watch(_ store: Store) -> Before {
        epoch += 1
        let storeKeys = store.unorderedKeys
        var records: [(key: RecordKey, data: RecordData, type: TypeSlots, known: Watch?)] = []
        var unchanged: [Watch] = []
        for key in storeKeys {
            let known = watches[key]
            // The last verification saw this record unchanged and stamped it for this epoch: its
            // data, type and object are as they were (no event ran in between).
            if let known, known.epoch == epoch, known.type != nil {
                unchanged.append(known)
                continue
            }
            guard let data = store.data(of: key) else { continue }
            let type: TypeSlots
            // A record whose data is what it was at the last watch has added its slots already.
            if let known, let old = known.before, let oldType = known.type, old == data {
                type = oldType
            } else {
                if let existing = slotsByType[data.typename] {
                    type = existing
                } else {
                    type = TypeSlots()
                    slotsByType[data.typename] = type
                }
                let count = type.slots.count
                type.slots.formUnion(data.cells.keys)
                if type.slots.count != count { type.version += 1 }
            }
            records.append((key, data, type, known))
        }
        // Every type's slots are known by now, so each watch covers the slots its type has shown,
        // whichever record showed them.
        for watch in unchanged {
            renew(watch, type: watch.type!)
        }
        for (key, data, type, known) in records {
            guard let record = store.record(key) else { continue }
            let watch: Watch
            if let existing = known, existing.record === record {
                watch = existing
            } else {
                watch = Watch(record: record, number: UInt32(keys.count))
                keys.append(key)
                watches[key] = watch
            }
            watch.before = data
            watch.epoch = epoch
            renew(watch, type: type)
        }
        return Before(epoch: epoch)
    }

    /// Watches whatever of `watch`'s record is not watched now: the record itself and every slot
    /// its type has shown (its own cells among them: ``watch(_:)`` adds them to the type first).
    private func renew(_ watch: Watch, type: TypeSlots) {
        let record = watch.record
        if !watch.recordWatched {
            track(Notice(watch: watch.number, slot: nil)) { _ = record.isLive }
            watch.recordWatched = true
        }
        // Usually every slot is watched already: the type's version says so without sets.
        if watch.type === type, watch.typeVersion == type.version { return }
        for slot in type.slots where !watch.slots.contains(slot) {
            track(Notice(watch: watch.number, slot: slot)) { _ = record.cell(slot) }
            watch.slots.insert(slot)
        }
        watch.type = type
        watch.typeVersion = type.version
    }

    /// Observes what `read` reads until it next changes, then records `notice`.
    private func track(_ notice: Notice, _ read: () -> Void) {
        withObservationTracking(read) { [fired] in
            fired.notices.withLock { $0.append(notice) }
        }
    }

    /// Compares the notifications since `before` with what changed; `nil` when they agree, else
    /// a description of every slot that notified without changing or changed without notifying.
    /// Renews the watches that fired and forgets records that left.
    func verify(_ store: Store, before: Before) -> String? {
        let notices = fired.notices.withLock { notices in
            defer { notices.removeAll(keepingCapacity: true) }
            return notices
        }
        var expected: [Notice] = []
        var left: [RecordKey] = []
        for (key, watch) in watches {
            let old = watch.epoch == before.epoch ? watch.before : nil
            let new = store.data(of: key)
            if new == nil { left.append(key) }
            // An unchanged record (most of them: equal storage compares at once) expects nothing,
            // and the next watch may take it as it is (nothing runs between the two).
            if let old, let new, old == new {
                watch.epoch = before.epoch + 1
                continue
            }
            if old?.typename != new?.typename || old?.deleted != new?.deleted || (old == nil) != (new == nil) {
                if watch.recordWatched { expected.append(Notice(watch: watch.number, slot: nil)) }
            }
            for slot in watch.slots where old?.cells[slot] != new?.cells[slot] {
                expected.append(Notice(watch: watch.number, slot: slot))
            }
        }
        let problems = differences(expected: expected, fired: notices)
        // Fired watches are spent: renew them at the next `watch`.
        for notice in notices {
            let key = keys[Int(notice.watch)]
            guard let watch = watches[key], watch.number == notice.watch else { continue }
            if let slot = notice.slot {
                watch.slots.remove(slot)
                watch.typeVersion = -1
            } else {
                watch.recordWatched = false
            }
        }
        // A record that left the store is a new object when it comes back.
        for key in left { watches[key] = nil }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// Every notice expected and not fired, then every one fired and not expected, each list in
    /// the order of record keys and slot names (numbers differ between processes; names do not).
    private func differences(expected: [Notice], fired: [Notice]) -> [String] {
        let want = Set(expected.map(\.packed))
        let got = Set(fired.map(\.packed))
        guard want != got else { return [] }
        let silent = expected.filter { !got.contains($0.packed) }
        let spurious = fired.filter { !want.contains($0.packed) }
        return named(silent).map { "\($0) changed but did not notify" }
            + named(spurious).map { "\($0) notified but did not change" }
    }

    /// The notices as `Key.slot` or `record Key`, once each, sorted by key and then slot name.
    private func named(_ notices: [Notice]) -> [String] {
        var seen = Set<UInt64>()
        var described: [(key: RecordKey, slot: ExactText?)] = []
        for notice in notices where seen.insert(notice.packed).inserted {
            described.append((keys[Int(notice.watch)], notice.slot.map { ExactText($0.name) }))
        }
        described.sort { a, b in
            if a.key != b.key { return a.key < b.key }
            return (a.slot ?? ExactText("")) < (b.slot ?? ExactText(""))
        }
        return described.map { entry in entry.slot.map { "\(entry.key).\($0.string)" } ?? "record \(entry.key)" }
    }
}
