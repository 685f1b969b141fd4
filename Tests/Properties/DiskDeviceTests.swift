import BatonSim
import CSQLite
import Testing

/// The device a simulated disk reports: the careful default (512-byte sectors, no
/// characteristics) or what SQLite's unix VFS answers on Linux (4096-byte sectors, power-safe
/// overwrite), which is also where power losses cut torn writes.
@Suite("Simulated disk: the device SQLite sees")
struct DiskDeviceTests {
    /// What SQLite's main-file handle answers for its sector size and device characteristics.
    private static func reported(_ device: SimulatedDisk.Device?) -> (sector: Int32, characteristics: Int32) {
        let disk = SimulatedDisk(seed: 41)
        if let device { disk.setDevice(device) }
        let connection = DiskConnection(disk)
        defer { connection.close() }
        connection.exec("CREATE TABLE t(x)")
        var pointer: UnsafeMutableRawPointer?
        let rc = sqlite3_file_control(connection.db, "main", SQLITE_FCNTL_FILE_POINTER, &pointer)
        guard rc == SQLITE_OK, let file = pointer?.assumingMemoryBound(to: sqlite3_file.self),
              let methods = file.pointee.pMethods?.pointee,
              let sector = methods.xSectorSize, let characteristics = methods.xDeviceCharacteristics
        else { return (-1, -1) }
        return (sector(file), characteristics(file))
    }

    @Test("the default is 512-byte sectors and no characteristics; linux is 4096 and power-safe overwrite")
    func reportsTheDevice() {
        let careful = Self.reported(nil)
        #expect(careful.sector == 512 && careful.characteristics == 0)
        let linux = Self.reported(.linux)
        #expect(linux.sector == 4096)
        #expect(linux.characteristics == SQLITE_IOCAP_POWERSAFE_OVERWRITE)
        #expect(SimulatedDisk.Device.linux.description == "4096-byte sectors, iocap 0x1000")
    }

    @Test("on the Linux device power losses tear at 4096 bytes and still recover a prefix (60 seeds)")
    func linuxDeviceRecoversAPrefix() {
        var torn: UInt64 = 0
        for seed in UInt64(0)..<60 {
            for recovery in DiskDurabilityTests.powerLossRun(seed: seed, device: .linux) {
                #expect(recovery.recovered >= recovery.synced && recovery.recovered <= recovery.committed)
            }
        }
        // Some of those power losses tore writes (cut at 4096 bytes on this device).
        for powerSeed in UInt64(0)..<40 where torn == 0 {
            let disk = SimulatedDisk(seed: 5)
            disk.setDevice(.linux)
            let connection = DiskConnection(disk)
            #expect(DiskWorkload.setUp(connection, autocheckpoint: 100_000) == "wal")
            for j in 1...30 { connection.exec(DiskWorkload.transaction(j, salt: 5)) }
            disk.powerLoss(seed: powerSeed)
            torn += disk.counters.writesTorn
            connection.closeAfterCrash(disk)
            let reopened = DiskConnection(disk)
            #expect(reopened.text("PRAGMA integrity_check") == "ok")
            reopened.close()
        }
        #expect(torn > 0)
    }
}
