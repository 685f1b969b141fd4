import Foundation
import Synchronization

/// The files this process has open as images: one image per file per process.
///
/// Keyed by VFS name and path (for the default VFS, the absolute, standardized path), so the
/// simulator's files and real files never collide.
enum ImageFileRegistry {
    private static let open = Mutex<Set<String>>([])

    /// The registry key of `path` under `vfs`.
    static func key(path: String, vfs: String?) -> String {
        let resolved: String
        if vfs == nil {
            let url = URL(fileURLWithPath: path)
            let directory = url.deletingLastPathComponent().resolvingSymlinksInPath()
            resolved = directory.appendingPathComponent(url.lastPathComponent).standardizedFileURL.path
        } else {
            resolved = path
        }
        return (vfs ?? "") + "\u{0}" + resolved
    }

    /// Claims `key`; throws ``ImageError/alreadyOpen(path:)`` while another image holds it.
    static func claim(_ key: String, path: String) throws(ImageError) {
        let claimed = open.withLock { $0.insert(key).inserted }
        if !claimed { throw ImageError.alreadyOpen(path: path) }
    }

    /// Gives `key` back.
    static func release(_ key: String) {
        _ = open.withLock { $0.remove(key) }
    }
}

/// Why an image could not be opened.
public enum ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// This process already has an image open on the file; close it first.
    case alreadyOpen(path: String)
    /// Another process has the image open and did not let it go within the wait.
    case inUse(path: String)
    /// SQLite would not put the file in WAL mode (it answered another journal mode).
    case journalModeNotWAL(String)
    /// The file could not be created with mode 0600.
    case cannotCreateFile(path: String, errno: Int32)
    /// A file opened for inspection is not an image (garbage, damage, another format).
    case notAnImage(path: String, ImageDiscardReason)
    /// The file was deleted and started again, and still could not be used.
    case recreateFailed(path: String)
    /// SQLite failed.
    case sqlite(SQLiteError)

    public var description: String {
        switch self {
        case .alreadyOpen(let path): "an image is already open on \(path) in this process; close it first"
        case .inUse(let path): "another process has the image \(path) open"
        case .journalModeNotWAL(let mode): "SQLite answered journal_mode=\(mode), not wal"
        case .cannotCreateFile(let path, let code): "cannot create \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .notAnImage(let path, let reason): "\(path) is not an image (\(reason))"
        case .recreateFailed(let path): "\(path) was recreated and still cannot be used"
        case .sqlite(let error): error.description
        }
    }
}
