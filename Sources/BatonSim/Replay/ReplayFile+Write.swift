import Foundation

extension ReplayFile {
    /// Writes the file as `name` into `directory` (made if missing) and returns its path.
    package func write(into directory: String, name: String) throws(WriteError) -> String {
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + name
        try FileWriting.makeDirectory(directory)
        try FileWriting.write(Array(render().utf8), to: path)
        return path
    }
}
