/// The image's tables exactly as SQL returns them: rows as bytes, nothing decoded.
///
/// For a checker that reads the format with its own decoder (BatonSim's reference model): an
/// encoder and a decoder that agree on a mistake must not agree with it.
///
/// Every `used` is the column's own value: a launch plus ``ImageSchema/stampBase`` (format 7).
/// The generation is `meta`'s, a launch.
package struct ImageRawTables: Sendable {
    package struct Record: Sendable {
        package var key: String
        package var used: Int
        package var row: [UInt8]
    }

    package struct RootField: Sendable {
        package var field: String
        package var used: Int
        package var cell: [UInt8]
    }

    package struct Fetch: Sendable {
        package var operation: String
        package var used: Int
        package var time: Double
        package var crc: Int64
    }

    package struct Name: Sendable {
        package var id: Int
        package var name: String
        package var used: Int
        package var crc: Int64
    }

    package var records: [Record] = []
    package var root: [RootField] = []
    package var fetches: [Fetch] = []
    package var names: [Name] = []
    /// The launch's generation as `meta` holds it.
    package var generation: Int = 0
    /// The application version `meta` holds: the version that opened the file last (nil when
    /// `meta` holds none, or not as text).
    package var appVersion: String?
}

/// A raw read of the image's tables that could not be made.
package struct ImageRawReadError: Error, CustomStringConvertible {
    package var description: String
}

extension Image {
    /// Every table of the image, in key order, inside one read transaction; throws when the file
    /// cannot be read (an inspection that fails is never an empty image). Its statements stay
    /// prepared on the connection: the simulator reads the tables after most of its events.
    package func rawTables() throws(ImageRawReadError) -> ImageRawTables {
        let result: Result<ImageRawTables, ImageRawReadError> = core.withState { state in
            guard let connection = state.connection else { return .failure(ImageRawReadError(description: "the image has no open file")) }
            guard !state.inRead else { return .failure(ImageRawReadError(description: "a read is in progress")) }
            do throws(SQLiteError) {
                try connection.execute("BEGIN")
                defer { connection.rollbackIfNeeded() }
                var tables = ImageRawTables()
                let records = try connection.cached("SELECT key, used, row FROM records ORDER BY key")
                defer { records.reset() }
                while try records.step() {
                    tables.records.append(.init(key: records.text(0), used: records.int(1), row: records.withBlob(2) { Array($0) }))
                }
                let root = try connection.cached("SELECT field, used, cell FROM root ORDER BY field")
                defer { root.reset() }
                while try root.step() {
                    tables.root.append(.init(field: root.text(0), used: root.int(1), cell: root.withBlob(2) { Array($0) }))
                }
                let fetches = try connection.cached("SELECT operation, used, time, crc FROM fetches ORDER BY operation")
                defer { fetches.reset() }
                while try fetches.step() {
                    tables.fetches.append(.init(operation: fetches.text(0), used: fetches.int(1), time: fetches.double(2), crc: Int64(fetches.int(3))))
                }
                let names = try connection.cached("SELECT id, name, used, crc FROM names ORDER BY id")
                defer { names.reset() }
                while try names.step() {
                    tables.names.append(.init(id: names.int(0), name: names.text(1), used: names.int(2), crc: Int64(names.int(3))))
                }
                let meta = try connection.cached("SELECT key, typeof(value), value FROM meta WHERE key IN ('generation', 'version')")
                defer { meta.reset() }
                while try meta.step() {
                    switch meta.text(0) {
                    case ImageSchema.generationKey: tables.generation = meta.int(2)
                    case ImageSchema.versionKey: tables.appVersion = meta.text(1) == "text" ? meta.text(2) : nil
                    default: break
                    }
                }
                return .success(tables)
            } catch {
                return .failure(ImageRawReadError(description: "\(error)"))
            }
        }
        return try result.get()
    }
}
