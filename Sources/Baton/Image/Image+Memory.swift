import CSQLite

extension Image {
    /// Gives back the pages SQLite's cache holds for this image, as an app does on a memory
    /// warning: later reads go to the file again. The simulator calls it before a check whose
    /// reads a disk fault targets, so the fault meets real reads rather than cached pages.
    package func releaseCachedPages() {
        core.withState { state in
            guard let connection = state.connection else { return }
            sqlite3_db_release_memory(connection.handle)
        }
    }
}
