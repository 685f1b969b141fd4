/// The answer of the availability check.
public enum Availability: Hashable, Sendable {
    /// Whether the data is young enough.
    public enum Freshness: Hashable, Sendable {
        case fresh, stale
    }

    /// Where the data came from.
    public enum Source: Hashable, Sendable {
        /// Memory held everything.
        case memory
        /// Memory lacked something and the image's rows filled it.
        case image
    }

    /// Every selected field is present; `fetchTime` is the operation's last fetch, if known.
    case available(Freshness, fetchTime: Double?, source: Source)
    /// Some selected record or field is absent.
    case missing

    /// True for `.available`.
    public var isAvailable: Bool {
        if case .available = self { return true }
        return false
    }
}
