import Baton

/// How a run's simulated disk behaves, drawn per seed by the swarm: the device SQLite sees (the
/// careful 512-byte default, or what SQLite's unix VFS reports on Linux: 4096-byte sectors and
/// power-safe overwrite) and what a failed sync does (the writes stay pending, or they are
/// dropped as Linux may drop them after a writeback error). Each half of the seeds takes each
/// choice, so both paths run in every campaign.
package struct DiskModel: Sendable, Hashable, CustomStringConvertible {
    package var device: SimulatedDisk.Device
    package var syncFailure: SimulatedDisk.SyncFailure

    package init(device: SimulatedDisk.Device = .careful, syncFailure: SimulatedDisk.SyncFailure = .keeps) {
        self.device = device
        self.syncFailure = syncFailure
    }

    /// Draws both choices from `random` (the swarm's `disk-model` stream).
    package init(random: inout SimRandom) {
        device = random.chance(0.5) ? .linux : .careful
        syncFailure = random.chance(0.5) ? .drops : .keeps
    }

    /// Sets `disk` up this way; before anything is opened on it.
    package func apply(to disk: SimulatedDisk) {
        disk.setDevice(device)
        disk.setSyncFailure(syncFailure)
    }

    package var description: String {
        "\(device), failed syncs \(syncFailure.rawValue)"
    }

    package var json: JSONValue {
        .object([
            "sectorSize": .int(Int(device.sectorSize)),
            "characteristics": .int(Int(device.characteristics)),
            "syncFailure": .string(syncFailure.rawValue),
        ])
    }
}
