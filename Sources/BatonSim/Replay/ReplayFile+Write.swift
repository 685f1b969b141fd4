import Baton
import Foundation

extension ReplayFile {
    /// The name a failing run's replay file takes: `seed-N.json`, or `seed-N-MUTANT.json`.
    package static func fileName(seed: UInt64, mutant: Mutant?) -> String {
        "seed-\(seed)" + (mutant.map { "-" + $0.rawValue } ?? "") + ".json"
    }

    /// The path of the file `name` in `directory`.
    package static func path(in directory: String, name: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + name
    }

    /// Writes the file as `name` into `directory` (made if missing) and returns its path.
    package func write(into directory: String, name: String) throws(WriteError) -> String {
        let path = Self.path(in: directory, name: name)
        try FileWriting.makeDirectory(directory)
        try FileWriting.write(Array(render().utf8), to: path)
        return path
    }
}
