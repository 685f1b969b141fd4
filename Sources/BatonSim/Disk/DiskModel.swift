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
    /// How many pages the WAL may hold before the store checkpoints it (the image's
    /// `checkpointPages`): production's 1,000, which no simulated world reaches, or a few, so
    /// that checkpoints run inside a process, between commits, where crashes and failed syncs can
    /// meet them.
    package var checkpointPages: Int

    package init(
        device: SimulatedDisk.Device = .careful, syncFailure: SimulatedDisk.SyncFailure = .keeps, powerLossWhileClosed: Double = 0,
        checkpointPages: Int = ImageSchema.defaultCheckpointPages
    ) {
        self.device = device
        self.syncFailure = syncFailure
        self.powerLossWhileClosed = powerLossWhileClosed
        self.checkpointPages = checkpointPages
    }

    /// Draws both choices from `random` (the swarm's `disk-model` stream).
    package init(random: inout SimRandom) {
        device = random.chance(0.5) ? .linux : .careful
        syncFailure = random.chance(0.5) ? .drops : .keeps
        powerLossWhileClosed = random.chance(0.5) ? 0.6 : 0
        checkpointPages = random.chance(0.5) ? random.pick([2, 4, 8, 16, 32]) : ImageSchema.defaultCheckpointPages
    }

    /// Sets `disk` up this way; before anything is opened on it.
    package func apply(to disk: SimulatedDisk) {
        disk.setDevice(device)
        disk.setSyncFailure(syncFailure)
    }

    package var description: String {
        "\(device), failed syncs \(syncFailure.rawValue)"
            + (powerLossWhileClosed > 0 ? ", power lost while closed \(powerLossWhileClosed)" : "")
            + (checkpointPages != ImageSchema.defaultCheckpointPages ? ", checkpoints at \(checkpointPages) pages" : "")
    }

    package var json: JSONValue {
        .object([
            "sectorSize": .int(Int(device.sectorSize)),
            "characteristics": .int(Int(device.characteristics)),
            "syncFailure": .string(syncFailure.rawValue),
            "powerLossWhileClosed": .double(powerLossWhileClosed),
            "checkpointPages": .int(checkpointPages),
        ])
    }
}

extension DiskModel {
    /// Reads back ``json`` (a replay file's `"disk"` header); nil when there is none.
    package init?(replayHeader json: JSONValue?) throws(ReplayError) {
        guard let json, json != .null else { return nil }
        guard case .object(let members) = json,
              case .int(let sector)? = members["sectorSize"], sector >= 512, sector <= 65536,
              case .int(let characteristics)? = members["characteristics"], characteristics >= 0, characteristics <= Int(Int32.max),
              case .string(let failure)? = members["syncFailure"], let syncFailure = SimulatedDisk.SyncFailure(rawValue: failure)
        else {
            throw ReplayError("\"disk\" is an object with \"sectorSize\" (512 to 65536), \"characteristics\" (SQLITE_IOCAP_* bits) and \"syncFailure\" (keeps or drops)")
        }
        var closed = 0.0
        switch members["powerLossWhileClosed"] {
        case .double(let value)?: closed = value
        case .int(let value)?: closed = Double(value)
        default: break
        }
        var checkpointPages = ImageSchema.defaultCheckpointPages
        switch members["checkpointPages"] {
        case .int(let pages)? where pages >= 1: checkpointPages = pages
        case nil, .null?: break
        default: throw ReplayError("\"disk\".\"checkpointPages\" is a whole number of pages, 1 or more")
        }
        self.init(
            device: SimulatedDisk.Device(sectorSize: UInt32(sector), characteristics: Int32(characteristics)),
            syncFailure: syncFailure, powerLossWhileClosed: closed, checkpointPages: checkpointPages)
    }
}
