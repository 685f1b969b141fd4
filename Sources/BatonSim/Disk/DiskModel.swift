import Baton

/// How a run's simulated disk behaves, drawn per seed by the swarm: the device SQLite sees (the
/// careful 512-byte default, or what SQLite's unix VFS reports on Linux: 4096-byte sectors and
/// power-safe overwrite) and what a failed sync does (the writes stay pending, or they are
/// dropped as Linux may drop them after a writeback error). Each half of the seeds takes each
/// choice, so both paths run in every campaign.
package struct DiskModel: Sendable, Hashable, CustomStringConvertible {
    package var device: SimulatedDisk.Device
    package var syncFailure: SimulatedDisk.SyncFailure
    /// Chance that, while the app is closed, the power goes before the next launch (0: never).
    /// The last close left directory changes pending (SQLite deletes the WAL without syncing its
    /// directory), so only such a power loss can lose them.
    package var powerLossWhileClosed: Double

    package init(
        device: SimulatedDisk.Device = .careful, syncFailure: SimulatedDisk.SyncFailure = .keeps, powerLossWhileClosed: Double = 0
    ) {
        self.device = device
        self.syncFailure = syncFailure
        self.powerLossWhileClosed = powerLossWhileClosed
    }

    /// Draws both choices from `random` (the swarm's `disk-model` stream).
    package init(random: inout SimRandom) {
        device = random.chance(0.5) ? .linux : .careful
        syncFailure = random.chance(0.5) ? .drops : .keeps
        powerLossWhileClosed = random.chance(0.5) ? 0.6 : 0
    }

    /// Sets `disk` up this way; before anything is opened on it.
    package func apply(to disk: SimulatedDisk) {
        disk.setDevice(device)
        disk.setSyncFailure(syncFailure)
    }

    package var description: String {
        "\(device), failed syncs \(syncFailure.rawValue)"
            + (powerLossWhileClosed > 0 ? ", power lost while closed \(powerLossWhileClosed)" : "")
    }

    package var json: JSONValue {
        .object([
            "sectorSize": .int(Int(device.sectorSize)),
            "characteristics": .int(Int(device.characteristics)),
            "syncFailure": .string(syncFailure.rawValue),
            "powerLossWhileClosed": .double(powerLossWhileClosed),
        ])
    }
}
