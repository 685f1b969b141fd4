/// Application versions: the image remembers which version of the app opened it last, and a
/// launch of another version keeps the file but wipes every row (docs/design.md, "Another
/// application version wipes rows"), while the generation goes on counting. The simulator's
/// upgrade event launches the next version.
extension Oracle {
    /// The version the simulator's first process runs.
    package static let firstAppVersion = "sim-1"

    /// The version the simulator's `number`th app version runs (1 is the first).
    package static func appVersion(_ number: Int) -> String {
        "sim-\(number)"
    }
}

extension OracleImage {
    /// True when a launch of `appVersion` wipes this state: another version opened it last.
    package func wipes(under appVersion: String) -> Bool {
        guard let previous = self.appVersion else { return false }
        return previous != appVersion
    }

    /// This state as a launch of `appVersion` leaves it before counting itself: its rows kept when
    /// that version opened it last, none when another version did; marked as `appVersion`'s
    /// either way (a file with no image yet is created empty).
    package func opened(by appVersion: String) -> OracleImage {
        if wipes(under: appVersion) { return OracleImage(generation: generation, appVersion: appVersion) }
        var opened = self
        opened.appVersion = appVersion
        return opened
    }

    /// How a launch of `appVersion` may report opening this state.
    package func expectedOpening(under appVersion: String) -> OracleOpening {
        guard let previous = self.appVersion else { return .created }
        return previous == appVersion ? .opened : .wiped(previousVersion: previous)
    }
}

/// What a launch must say it did with the file, as the model expects it.
package enum OracleOpening: Hashable, Sendable {
    /// The file held no image: created anew (or deleted and started again).
    case created
    /// The file was this version's: opened with its rows.
    case opened
    /// Another version opened the file last: its rows wiped.
    case wiped(previousVersion: String)
}
