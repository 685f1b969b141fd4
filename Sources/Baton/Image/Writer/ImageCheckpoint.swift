/// The checkpoints a process runs itself: the writer's, when the WAL has grown long, and the
/// close's.
///
/// SQLite would run both on its own (after a commit that leaves 1,000 pages in the WAL, and when
/// the last connection closes) and would ignore their failures. Baton takes them over
/// (``Connection/countWALFrames()``) because a failure matters: a failed sync may have met a
/// writeback error, and then Linux has marked the WAL's dirty pages clean, reads still see them,
/// and the platter never gets them. A later checkpoint in the same process would copy those pages
/// into the database file, and a crash part way through it would leave the file beyond repair:
/// the hazard ``CheckpointCopy`` guards the open's checkpoint against, from inside the process.
///
/// So once a drain or a checkpoint of this process has failed, its checkpoints take the copy first
/// and delete it once the checkpoint has finished, and the close never checkpoints without one
/// (when the copy cannot be taken, the WAL stays for the next open), until one such checkpoint has
/// copied every frame into the file and synced it: the dropped pages are then in the file, on the
/// platter, and the WAL starts again. Without a failure, nearly always, a checkpoint costs what
/// SQLite's own did.
///
/// A copy put back must never undo a newer commit, so nothing commits while a copy of this
/// process may be beside the image: a checkpoint that failed after its copy was taken keeps the
/// copy (the checkpoint may have written part of the file), and the next drain finishes that
/// checkpoint and deletes the copy before it begins, or fails.
enum ImageCheckpoint {
    /// After a drain committed: checkpoints when the WAL holds ``ImageState/checkpointPages``
    /// pages or more, and after an erase (`erased`) always, truncating the WAL: the log keeps
    /// the pages the erase overwrote, and only a checkpoint puts the overwritten ones in the file.
    /// An erase's checkpoint that fails is owed, and run by every later drain that commits until
    /// one succeeds (found by BatonSim, 2026-12-07: a sync fault failed the erase's checkpoint,
    /// and the next drains left the erased rows in the WAL and the file; 13 of seeds 0..999).
    /// A failure is kept (later checkpoints are guarded); the drain stands.
    static func afterCommit(_ state: ImageState, erased: Bool = false) -> DrainCheckpoint {
        guard let connection = state.connection else { return .none }
        if erased || state.eraseCheckpointOwed, !state.rules.eraseNotCheckpointed {
            let truncating = erased || !state.rules.owedEraseCheckpointPassive
            let checkpoint = run(state, connection: connection, truncating: truncating)
            state.eraseCheckpointOwed = checkpoint == .failed && !state.rules.eraseCheckpointForgotten
            return checkpoint
        }
        let due = state.rules.checkpointOnlyAtThreshold
            ? connection.walFrames == state.checkpointPages : connection.walFrames >= state.checkpointPages
        guard due else { return .none }
        return run(state, connection: connection, truncating: false)
    }

    /// Before the connection closes, once this process saw a failure: its own guarded
    /// checkpoint, and SQLite's close never checkpoints. Otherwise nothing: the close checkpoints.
    static func beforeClose(_ state: ImageState) {
        guard state.checkpointsGuarded, let connection = state.connection, !connection.isClosed else { return }
        _ = run(state, connection: connection, truncating: true)
    }

    /// A drain or a checkpoint failed: its syncs may have dropped WAL pages.
    static func noteFailedWrite(_ state: ImageState) {
        guard state.rules.guardsCheckpointAfterFailure, !state.checkpointsGuarded else { return }
        state.checkpointsGuarded = true
        // From now on no close checkpoints without a copy (an abandon, a close from a read's body).
        state.connection?.keepWALAtClose()
    }

    /// Before a drain begins: finishes the checkpoint a copy of this process still guards and
    /// deletes the copy. The error to fail the drain with while the copy is still there.
    static func copyCleared(_ state: ImageState) -> SQLiteError? {
        guard state.walCopy != .none else { return nil }
        if let connection = state.connection { _ = run(state, connection: connection, truncating: false) }
        guard state.walCopy == .none else {
            return SQLiteError(extendedCode: .ioerr, message: "a checkpoint's copy of the WAL is still beside the image")
        }
        return nil
    }

    /// One checkpoint; guarded by a copy once this process saw a failure. Leaves
    /// ``ImageState/walCopy`` `.none` unless a copy may still be beside the image.
    private static func run(_ state: ImageState, connection: Connection, truncating: Bool) -> DrainCheckpoint {
        let vfs = state.vfs, door = state.door
        let guarded = state.checkpointsGuarded
        // The copy's name, only when a copy is taken or kept (a plain checkpoint needs none).
        var base = ""
        if guarded || state.walCopy != .none {
            guard let full = try? VFSFile.fullPath(state.path, vfs: vfs, door: door) else { return .failed }
            base = full
        }
        if guarded, state.walCopy != .guarding {
            // Nothing was checkpointed behind an unsure copy: taking it again is safe.
            state.walCopy = .unsure
            do {
                state.walCopy = try CheckpointCopy.take(base: base, vfs: vfs, door: door) ? .guarding : .none
            } catch {
                if (try? CheckpointCopy.remove(base: base, vfs: vfs, door: door)) != nil { state.walCopy = .none }
                return .failed
            }
        }
        let complete: Bool
        do {
            complete = try connection.checkpoint(truncating: truncating)
        } catch {
            noteFailedWrite(state)
            // The copy stays: the checkpoint may have written part of the file.
            return .failed
        }
        if state.walCopy == .guarding {
            guard (try? CheckpointCopy.remove(base: base, vfs: vfs, door: door)) != nil else { return .failed }
            state.walCopy = .none
        }
        if complete, state.checkpointsGuarded {
            // Every frame, the dropped ones too, is in the file and synced.
            state.checkpointsGuarded = false
            connection.keepWALAtClose(false)
        }
        return guarded ? .guarded : .plain
    }
}

/// Whether a copy of the WAL this process took may be beside the image.
enum WALCopyState {
    /// None.
    case none
    /// A copy was being taken and failed, and could not be deleted: it may be whole or not.
    /// Nothing was checkpointed behind it.
    case unsure
    /// A whole copy, synced: a checkpoint ran or may run behind it, and it stays until one has
    /// finished and the copy is deleted.
    case guarding
}
