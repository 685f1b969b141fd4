/// What a database's WAL file holds as SQLite's recovery would read it, from its bytes alone.
///
/// In WAL mode the newest committed version of a page lives in the WAL until a checkpoint copies
/// it into the database file: the application id a foreign app set in a transaction that was
/// never checkpointed is in the WAL only. Recovery (the file format document, section 4) reads
/// frames from the start while their salts match the header's and their cumulative checksums
/// verify; a frame with a non-zero "database size" field ends a transaction; the log ends at the
/// last such commit frame. This reader does the same without the shared-memory index and
/// without writing anything.
struct WriteAheadLog {
    /// The page size of the log's frames.
    var pageSize: Int
    /// How many frames belong to committed transactions.
    var committedFrames: Int
    /// The newest committed version of page 1, when a committed frame holds one.
    var pageOne: [UInt8]?
    /// The database's size in pages after the last committed transaction.
    var databasePages = 0

    private static let headerSize = 32
    private static let frameHeaderSize = 24

    /// Reads `file`; `nil` when it has no valid header (SQLite ignores such a log).
    static func read(_ file: VFSFile) throws(SQLiteError) -> WriteAheadLog? {
        let header = try file.read(headerSize, at: 0)
        guard header.count == headerSize else { return nil }
        let magic = header.bigEndian32(at: 0)
        guard magic & 0xFFFF_FFFE == 0x377F_0682, header.bigEndian32(at: 4) == 3_007_000 else { return nil }
        let bigEndianWords = magic & 1 == 1
        let pageSize = Int(header.bigEndian32(at: 8))
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return nil }
        var checksum = Checksum(bigEndianWords: bigEndianWords)
        checksum.add(header, from: 0, count: 24)
        guard checksum.first == header.bigEndian32(at: 24), checksum.second == header.bigEndian32(at: 28) else { return nil }
        let salts = Array(header[16..<24])

        var log = WriteAheadLog(pageSize: pageSize, committedFrames: 0, pageOne: nil)
        var candidate: [UInt8]?
        var frames = 0
        var offset = headerSize
        let frameSize = frameHeaderSize + pageSize
        while offset + frameSize <= file.size {
            let frame = try file.read(frameSize, at: offset)
            guard frame.count == frameSize, frame[8..<16].elementsEqual(salts) else { break }
            var next = checksum
            next.add(frame, from: 0, count: 8)
            next.add(frame, from: frameHeaderSize, count: pageSize)
            guard next.first == frame.bigEndian32(at: 16), next.second == frame.bigEndian32(at: 20) else { break }
            checksum = next
            frames += 1
            if frame.bigEndian32(at: 0) == 1 { candidate = Array(frame[frameHeaderSize...]) }
            if frame.bigEndian32(at: 4) != 0 {
                // A commit frame: everything so far is part of the database.
                log.committedFrames = frames
                log.databasePages = Int(frame.bigEndian32(at: 4))
                if let candidate { log.pageOne = candidate }
            }
            offset += frameSize
        }
        return log
    }

    /// The WAL's running checksum: pairs of 32-bit words in the byte order the magic names.
    private struct Checksum {
        let bigEndianWords: Bool
        var first: UInt32 = 0
        var second: UInt32 = 0

        /// Adds the 8-byte pairs of words of `bytes[start..<start + count]`.
        ///
        /// Words are loaded whole rather than assembled byte by byte with a bounds check each:
        /// opening reads every frame of the log this way, and a log a crash left behind is most
        /// of what opening reads.
        mutating func add(_ bytes: [UInt8], from start: Int, count: Int) {
            let end = min(start + count, bytes.count)
            guard start >= 0, start + 8 <= end else { return }
            var first = self.first
            var second = self.second
            let bigEndianWords = self.bigEndianWords
            bytes.withUnsafeBytes { buffer in
                var index = start
                while index + 8 <= end {
                    let x0 = word(buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self), bigEndianWords)
                    let x1 = word(buffer.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self), bigEndianWords)
                    first = first &+ x0 &+ second
                    second = second &+ x1 &+ first
                    index += 8
                }
            }
            self.first = first
            self.second = second
        }

        /// A word loaded in memory order, read in the byte order the log's magic names.
        @inline(__always)
        private func word(_ loaded: UInt32, _ bigEndianWords: Bool) -> UInt32 {
            let value = UInt32(bigEndian: loaded)
            return bigEndianWords ? value : value.byteSwapped
        }
    }
}
