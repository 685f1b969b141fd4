/// Starting the file again after a read found it unreadable.
enum ImageRecovery {
    /// Closes the connection, deletes the files (WAL and SHM first) and creates a new image.
    ///
    /// What is lost is only what the image held: rows memory had not read, fetch times and the
    /// check's pending stamps. Queued work survives and is written into the new file.
    static func recreate(_ state: ImageState) throws {
        state.connection?.close()
        state.connection = nil
        try ImageOpener.deleteFiles(path: state.path, vfs: state.vfs, door: state.door)
        // The image's lock (when it has one) is still held: nobody else can open the file meanwhile.
        let opened = try ImageOpener.openLocked(
            path: state.path, vfs: state.vfs, appVersion: state.appVersion, door: state.door,
            rules: state.rules, busyTimeout: state.busyTimeoutMilliseconds)
        guard let connection = opened.connection else {
            // Someone put a foreign database at the path meanwhile: leave it, run without an image.
            state.foreign = true
            state.resetPending = false
            return
        }
        if state.checkpointsGuarded { connection.keepWALAtClose() }
        state.connection = connection
        // Deleting the files deleted any copy of the WAL with them.
        state.walCopy = .none
        state.generation = opened.generation
        state.names = opened.names
        state.touches = ImageTouches()
        state.evictionDone = false
        state.resetPending = false
        state.unavailableBecause = nil
        state.resets += 1
    }

    /// Any error of opening as a `SQLiteError`, for the writer's status.
    static func sqliteError(_ error: any Error) -> SQLiteError {
        switch error {
        case let error as SQLiteError: error
        case ImageError.sqlite(let error): error
        default: SQLiteError(extendedCode: .cantOpen, message: String(describing: error))
        }
    }
}
