import Foundation
import Testing

@testable import Baton

/// How `used` stamps are stored: two bytes from the first launch on, so restamping a row in a
/// later launch changes it in place instead of rewriting it whole.
@Suite("Image stamps")
struct ImageStampTests {
    let directory: ImageTestDirectory
    var path: String { directory.path() }

    init() throws {
        directory = try ImageTestDirectory()
    }

    /// Rows long enough to spill into overflow pages (a `WITHOUT ROWID` row keeps about 480 bytes
    /// of a 2 KiB page's cell local), which an in-place restamp leaves unwritten.
    static let rows = 60
    static let keys = (0..<rows).map { "Note:\($0)" }

    private func writeRows() throws {
        let image = try openTestImage(path)
        defer { image.close() }
        image.enqueue(WriteBatch(snapshots: Self.keys.enumerated().map { index, key in
            snapshot(key, "Note", ["body": .string(String(repeating: "\(index % 10)", count: 3_000))])
        }))
        try image.drainCommitted()
    }

    /// One launch that reads every row and drains its stamps; answers the bytes its drain wrote
    /// to the log (opening empties the log, and nothing checkpoints before the close).
    private func readingLaunch(_ expectedGeneration: Int) throws -> Int {
        let image = try openTestImage(path)
        defer { image.close() }
        #expect(image.generation == expectedGeneration)
        for key in Self.keys { #expect(image.readRecord(key) != nil) }
        try image.drainCommitted()
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (log[.size] as? Int) ?? -1
    }

    /// Makes the file's last launch `generation`, every row stamped in it, as if the file had
    /// been opened that many times.
    private func age(to generation: Int) throws {
        try withRawDatabase(path) { connection throws in
            try connection.execute("UPDATE meta SET value = \(generation) WHERE key = 'generation'")
            for table in ["records", "root", "fetches", "names"] {
                try connection.execute("UPDATE \(table) SET used = \(ImageSchema.stamp(ofLaunch: generation))")
            }
        }
    }

    @Test(
        "the launches after launch 1, 126 and 32,766 restamp rows in place: the log holds their leaf pages, not their overflow pages",
        arguments: [1, 126, 32_766])
    func launchesDoNotRewriteRows(after generation: Int) throws {
        try writeRows()
        if generation > 1 { try age(to: generation) }
        let first = try readingLaunch(generation + 1)
        let second = try readingLaunch(generation + 2)
        #expect(first > 0 && second > 0)
        // Before format 7, launch 2 (a stamp of no bytes to one), 128 (one to two) and 32,768
        // (two to three) rewrote every row's 3 KB, about 270 KB of log here, against the other
        // launch's leaf pages.
        let slack = 4 * (ImageSchema.pageSize + 24)
        #expect(abs(first - second) <= slack, "launch \(generation + 1) wrote \(first) B of log, launch \(generation + 2) \(second) B")
        #expect(max(first, second) < Self.rows * 3_000 / 4, "a launch wrote \(max(first, second)) B of log for \(Self.rows) rows of 3 KB")
    }

    @Test("every stamp is the launch plus 128, and tools see the launch")
    func stampsAreLaunchPlusBase() throws {
        try writeRows()
        _ = try readingLaunch(2)
        let stored = try withRawDatabase(path) { connection in
            try connection.scalarInt("SELECT min(used) FROM records")
        }
        #expect(stored == 130)
        let inspection = try Image.inspect(path: path)
        defer { inspection.close() }
        #expect(Set(inspection.dumpRecords().map(\.used)) == [2])
        #expect(Set(inspection.dumpNames().map(\.used)) == [2])
    }

    @Test("a format 6 file's stamps move to format 7 when it opens: its rows stay readable, and unread ones still age out")
    func formatSixStampsMove() throws {
        try writeRows()
        // Made a format 6 file of generation 1: stamps are launches, as format 6 stored them.
        try withRawDatabase(path) { connection in
            for table in ["records", "root", "fetches", "names"] {
                try connection.execute("UPDATE \(table) SET used = used - \(ImageSchema.stampBase)")
            }
            try connection.execute("PRAGMA user_version = 6")
        }
        // An inspection writes nothing: it reads the format 6 file's launches as they are.
        do {
            let inspection = try Image.inspect(path: path)
            defer { inspection.close() }
            #expect(Set(inspection.dumpRecords().map(\.used)) == [1])
            #expect(Set(inspection.dumpNames().map(\.used)) == [1])
            #expect(inspection.stats()?.usedHistogram.map(\.used) == [1])
        }
        let image = try openTestImage(path)
        #expect(image.generation == 2)
        #expect(image.readRecord("Note:0") != nil)
        try image.drainCommitted()
        image.close()
        let facts = try withRawDatabase(path) { connection throws in
            (
                format: try connection.scalarInt("PRAGMA user_version"),
                // Note:0 read in launch 2, the others still launch 1's.
                launchOne: try connection.scalarInt("SELECT count(*) FROM records WHERE used = \(1 + ImageSchema.stampBase)"),
                noteZero: try connection.scalarInt("SELECT used FROM records WHERE key = 'Note:0'"),
                oldNames: try connection.scalarInt("SELECT count(*) FROM names WHERE used < \(ImageSchema.stampBase)")
            )
        }
        #expect(facts.format == 7)
        #expect(facts.launchOne == Self.rows - 1)
        #expect(facts.noteZero == 2 + ImageSchema.stampBase)
        #expect(facts.oldNames == 0)
        // Launch 3 reads what launch 2 stamped, and no longer what only launch 1 did.
        let third = try openTestImage(path)
        defer { third.close() }
        #expect(third.readRecord("Note:0") != nil)
        #expect(third.readRecord("Note:1") == nil)
    }
}
