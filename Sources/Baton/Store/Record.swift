import Observation

/// One record as the UI reads it: an observable object the main actor reads synchronously.
///
/// Each slot is its own observation channel, so a view that read `name` is not invalidated when
/// `status` changes. A record the store dropped (swept by collection, or reverted away) reads as
/// empty and `isLive` turns false.
@MainActor
public final class Record {
    public let key: RecordKey
    private(set) var data: RecordData?
    private var slotChannels: [SlotID: ObservationChannel] = [:]
    private let recordChannel = ObservationChannel()

    init(key: RecordKey, data: RecordData?) {
        self.key = key
        self.data = data
    }

    /// The record's type name (`""` once the record has left the store).
    public var typename: String {
        recordChannel.access()
        return data?.typename ?? ""
    }

    /// True when the record is deleted (`@deleteRecord`).
    public var isDeleted: Bool {
        recordChannel.access()
        return data?.deleted ?? false
    }

    /// False once the store no longer holds the record.
    public var isLive: Bool {
        recordChannel.access()
        return data != nil
    }

    /// The cell of `slot`, or `nil` when the record lacks it.
    public func cell(_ slot: SlotID) -> Cell? {
        channel(for: slot).access()
        return data?.cells[slot]
    }

    /// The value of the slot named `storageKey`, or `nil` when the record lacks it.
    public subscript(storageKey: String) -> Value? {
        cell(SlotID.named(storageKey))?.value
    }

    private func channel(for slot: SlotID) -> ObservationChannel {
        if let channel = slotChannels[slot] { return channel }
        let channel = ObservationChannel()
        slotChannels[slot] = channel
        return channel
    }

    /// Replaces the data and notifies exactly the slots whose cells changed (every slot under the
    /// `everySlotNotifies` mutant).
    func update(to newData: RecordData?, notifyingEverySlot: Bool = false) {
        let old = data
        data = newData
        if old?.typename != newData?.typename || old?.deleted != newData?.deleted || (old == nil) != (newData == nil) {
            recordChannel.changed()
        }
        guard !slotChannels.isEmpty else { return }
        let oldCells = old?.cells ?? [:]
        let newCells = newData?.cells ?? [:]
        for (slot, channel) in slotChannels where notifyingEverySlot || oldCells[slot] != newCells[slot] {
            channel.changed()
        }
    }
}

/// One observation channel: a registrar and a marker property whose key path names it.
final class ObservationChannel: Observable, Sendable {
    private let registrar = ObservationRegistrar()
    let marker = 0

    func access() {
        registrar.access(self, keyPath: \.marker)
    }

    func changed() {
        registrar.withMutation(of: self, keyPath: \.marker) {}
    }
}
