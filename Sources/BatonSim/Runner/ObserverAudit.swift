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
    /// A notification: a record's slot, or the record itself (`slot` nil).
    struct Notice: Hashable, Comparable, Sendable {
        var key: RecordKey
        /// The slot's storage key (compared by its bytes, as the store's slots are).
        var slot: ExactText?

        static func < (a: Notice, b: Notice) -> Bool {
            if a.key != b.key { return a.key < b.key }
            return (a.slot ?? ExactText("")) < (b.slot ?? ExactText(""))
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
        /// Slots watched now (a fired watch is renewed after the event that fired it).
        var slots: Set<SlotID> = []
        var recordWatched = false
        /// The record's visible data at the last `watch` (meaningful when `epoch` is the audit's).
        var before: RecordData?
        var epoch = 0
        /// The type's slots this watch covered in full, at `typeVersion` (-1: look again).
        var type: TypeSlots?
        var typeVersion = -1

        init(record: Record) {
            self.record = record
        }
    }

    /// Notices that fired since the last verification (onChange handlers are `@Sendable`).
    private final class Fired: Sendable {
        let notices = Mutex<Set<Notice>>([])
    }

    /// The records as they were when ``watch(_:)`` ran: kept in the watches themselves, stamped
    /// with this epoch.
    struct Before {
        fileprivate let epoch: Int
    }

    private let fired = Fired()
    private var watches: [RecordKey: Watch] = [:]
    private var slotsByType: [String: TypeSlots] = [:]
    private var epoch = 0

    /// Watches every visible record of `store` (new records, new slots, renewed watches) and
    /// remembers the visible records as they are now. The order records are watched in decides
    /// nothing: what fired is compared as a set.
    func watch(_ store: Store) -> Before {
        epoch += 1
        let keys = store.unorderedKeys
        var records: [(key: RecordKey, data: RecordData, type: TypeSlots, known: Watch?)] = []
        records.reserveCapacity(keys.count)
        for key in keys {
            guard let data = store.data(of: key) else { continue }
            let type: TypeSlots
            let known = watches[key]
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
        for (key, data, type, known) in records {
            guard let record = store.record(key) else { continue }
            let watch: Watch
            if let existing = known, existing.record === record {
                watch = existing
            } else {
                watch = Watch(record: record)
                watches[key] = watch
            }
            watch.before = data
            watch.epoch = epoch
            if !watch.recordWatched {
                let notice = Notice(key: key, slot: nil)
                withObservationTracking {
                    _ = record.isLive
                } onChange: { [fired] in
                    fired.notices.withLock { _ = $0.insert(notice) }
                }
                watch.recordWatched = true
            }
            // Usually every slot is watched already: the type's version says so without sets.
            if watch.type === type, watch.typeVersion == type.version { continue }
            let typeSlots = type.slots
            if typeSlots.count <= watch.slots.count, typeSlots.isSubset(of: watch.slots) {
                watch.type = type
                watch.typeVersion = type.version
                continue
            }
            let wanted = typeSlots.union(data.cells.keys)
            let named = wanted.subtracting(watch.slots).map { (name: ExactText($0.name), slot: $0) }
            for (name, slot) in named.sorted(by: { $0.name < $1.name }) {
                let notice = Notice(key: key, slot: name)
                withObservationTracking {
                    _ = record.cell(slot)
                } onChange: { [fired] in
                    fired.notices.withLock { _ = $0.insert(notice) }
                }
                watch.slots.insert(slot)
            }
            watch.type = type
            watch.typeVersion = type.version
        }
        return Before(epoch: epoch)
    }

    /// Compares the notifications since `before` with what changed; `nil` when they agree, else
    /// a description of every slot that notified without changing or changed without notifying.
    /// Renews the watches that fired and forgets records that left.
    func verify(_ store: Store, before: Before) -> String? {
        let notices = fired.notices.withLock { notices in
            defer { notices.removeAll() }
            return notices
        }
        var expected = Set<Notice>()
        var left: [RecordKey] = []
        for (key, watch) in watches {
            let old = watch.epoch == before.epoch ? watch.before : nil
            let new = store.data(of: key)
            if new == nil { left.append(key) }
            // An unchanged record (most of them: equal storage compares at once) expects nothing.
            if let old, let new, old == new { continue }
            if old?.typename != new?.typename || old?.deleted != new?.deleted || (old == nil) != (new == nil) {
                if watch.recordWatched { expected.insert(Notice(key: key, slot: nil)) }
            }
            for slot in watch.slots where old?.cells[slot] != new?.cells[slot] {
                expected.insert(Notice(key: key, slot: ExactText(slot.name)))
            }
        }
        var problems: [String] = []
        for notice in expected.subtracting(notices).sorted() {
            problems.append("\(describe(notice)) changed but did not notify")
        }
        for notice in notices.subtracting(expected).sorted() {
            problems.append("\(describe(notice)) notified but did not change")
        }
        // Fired watches are spent: renew them at the next `watch`.
        for notice in notices {
            guard let watch = watches[notice.key] else { continue }
            if let slot = notice.slot {
                watch.slots.remove(SlotID.named(slot.string))
                watch.typeVersion = -1
            } else {
                watch.recordWatched = false
            }
        }
        // A record that left the store is a new object when it comes back.
        for key in left { watches[key] = nil }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    private func describe(_ notice: Notice) -> String {
        notice.slot.map { "\(notice.key).\($0.string)" } ?? "record \(notice.key)"
    }
}
