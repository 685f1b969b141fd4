import Foundation

/// A file or folder that could not be written, with the system's reason.
package struct WriteError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}

/// Writing files with errors that say what failed and why (`strerror`), never silently.
package enum FileWriting {
    /// Makes `path` and its parents unless it is already a folder.
    package static func makeDirectory(_ path: String) throws(WriteError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw WriteError(message: "\(path) is a file, not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw WriteError(message: "cannot make the folder \(path): \(reason(error))")
        }
    }

    /// Writes `bytes` to `path` through a temporary file renamed over it, so a reader never sees
    /// half a file.
    package static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let temporary = path + ".partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw WriteError(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw WriteError(message: "cannot write \(path): \(reason)")
            }
            written += result
        }
        guard close(descriptor) == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(message: "cannot write \(path): \(reason)")
        }
    }

    /// Whether `path` could be written now: an existing file (or folder) must be writable; a
    /// missing file needs a writable folder to hold it, a missing folder a writable ancestor to
    /// be made in. Nil when it could; else the reason.
    package static func problem(writing path: String, isDirectory: Bool) -> String? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue != isDirectory {
                return isDirectory ? "\(path) is a file, not a folder" : "\(path) is a folder"
            }
            return access(path, W_OK) == 0 ? nil : "\(path) is not writable (\(String(cString: strerror(errno))))"
        }
        var parent = parentFolder(path)
        if isDirectory {
            while !FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder) { parent = parentFolder(parent) }
        } else if !FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder) {
            return "cannot write \(path): there is no folder \(parent)"
        }
        guard isFolder.boolValue else { return "cannot write \(path): \(parent) is a file, not a folder" }
        guard access(parent, W_OK | X_OK) == 0 else {
            return "cannot write \(path): the folder \(parent) is not writable (\(String(cString: strerror(errno))))"
        }
        return nil
    }

    private static func parentFolder(_ path: String) -> String {
        let up = (path as NSString).deletingLastPathComponent
        return up.isEmpty ? "." : up
    }

    private static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }
}
