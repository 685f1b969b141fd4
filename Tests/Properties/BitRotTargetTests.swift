import BatonSim
import CSQLite
import Testing

/// Where bit rot finds a row's bytes in the image file.
@Suite("Bit rot finds the bytes SQLite stored")
struct BitRotTargetTests {
    @Test("an integer column's stored bytes: big-endian in the fewest of 1, 2, 3, 4, 6 or 8 bytes")
    func storedInteger() {
        #expect(Simulation.storedInteger(0) == [])
        #expect(Simulation.storedInteger(1) == [])
        #expect(Simulation.storedInteger(2) == [2])
        #expect(Simulation.storedInteger(-1) == [0xFF])
        #expect(Simulation.storedInteger(300) == [0x01, 0x2C])
        #expect(Simulation.storedInteger(8_388_607) == [0x7F, 0xFF, 0xFF])
        #expect(Simulation.storedInteger(2_147_483_647) == [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(Simulation.storedInteger(4_294_967_295) == [0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Simulation.storedInteger(Int64.max).count == 8)
    }

    @Test("a checksum written by SQLite lies in the file as those bytes, once")
    func checksumInFile() throws {
        let disk = SimulatedDisk(seed: 5)
        let connection = DiskConnection(disk, name: "fetches.db")
        #expect(connection.exec("PRAGMA journal_mode=DELETE") == SQLITE_OK)
        #expect(connection.exec("CREATE TABLE fetches(operation TEXT PRIMARY KEY, used INTEGER NOT NULL, time REAL NOT NULL, crc INTEGER NOT NULL) WITHOUT ROWID") == SQLITE_OK)
        let crc: Int64 = 3_735_928_559
        #expect(connection.exec("INSERT INTO fetches VALUES('Screen{}', 1, 1700000000.0, \(crc))") == SQLITE_OK)
        connection.close()
        disk.flushAll()
        let file = try #require(disk.bytes(of: "fetches.db"))
        #expect(Simulation.onlyOccurrence(of: Simulation.storedInteger(crc), in: file) != nil)
    }
}
