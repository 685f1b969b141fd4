/// A process that dies while it opens the image (``SimEvent/openCrash(operations:powerLossSeed:build:)``).
///
/// An open commits at most two transactions, in this order (docs/design.md, "Opening"): a file
/// with no image of this version is created or wiped and marked as this version's, then the
/// launch is counted (a file of an older format is moved into the current one in the same
/// transaction). A process that dies part way leaves the state it found, or that state marked,
/// or that state counted, as committed; a power loss then may keep any of them, or an older
/// state not yet durable. The model does not ask where the crash struck: the next launch must
/// find one of these.
extension Oracle {
    /// The states committed from the last one known durable up to each state a relaunch may find
    /// after `end`, oldest first: after a quit or a kill the one history that led to the image;
    /// after a power loss (everything then durable) each state alone.
    func allowedChains(after end: ProcessEnd) -> [[OracleImage]] {
        switch end {
        case .quit, .kill:
            var chain = Array(states[durable...])
            chain[chain.count - 1] = image.adding(dormant)
            return [chain] + failedDrainStates.map { chain + [$0] }
        case .powerLoss:
            return states[durable...].map { [$0] } + failedDrainStates.map { [$0] }
        case .corruption:
            return [[.empty(generation: 0)]]
        case .openCrash:
            return crashChains
        }
    }

    /// A process of `appVersion` died opening the image after the last one ended as `end`; with
    /// `powerLoss` the machine lost power as it died.
    package mutating func openCrashed(after end: ProcessEnd, appVersion: String, powerLoss: Bool) {
        landChains(after: end, appVersion: appVersion, powerLoss: powerLoss)
        coverage.openCrashes += 1
    }

    /// The running process's open failed (the disk was full): it may have committed what a
    /// dying open may, so the next launch may find any of those states (as after
    /// ``openCrashed(after:appVersion:powerLoss:)`` by a kill), and the process goes on without
    /// an image: what it queued is dropped, later commits queue nothing, checks read nothing.
    package mutating func openFailed(after end: ProcessEnd, appVersion: String) {
        landChains(after: end, appVersion: appVersion, powerLoss: false)
        goOnWithoutImage()
    }

    /// The running process could open no file of the image (a locked device): nothing in the
    /// file changed, so the next launch finds a state the last end left, and the process goes on
    /// without an image, as after ``openFailed(after:appVersion:)``. `end` is nil before the
    /// first launch: there is no file, and the next launch is the first.
    package mutating func openRefused(after end: ProcessEnd?) {
        if let end {
            crashChains = allowedChains(after: end)
            crashCommitted = []
            crashFollowedCorruption = end == .corruption || (end == .openCrash && crashFollowedCorruption)
            failedDrainStates = []
        }
        goOnWithoutImage()
    }

    /// The process goes on without an image: what it queued is dropped, later commits queue
    /// nothing, checks read nothing.
    private mutating func goOnWithoutImage() {
        hasImage = false
        queue = []
        touches = OracleTouches()
        writerMustWipe = false
        eraseMustWipe = false
        evictionDone = true
    }

    private mutating func landChains(after end: ProcessEnd, appVersion: String, powerLoss: Bool) {
        var chains: [[OracleImage]] = []
        crashCommitted = []
        for chain in allowedChains(after: end) {
            let found = chain[chain.count - 1]
            var committed = chain
            if found.appVersion != appVersion { committed.append(found.opened(by: appVersion)) }
            var counted = found.opened(by: appVersion)
            counted.generation = found.generation + 1
            committed.append(counted)
            crashCommitted += committed[chain.count...]
            if powerLoss {
                for state in committed where !chains.contains([state]) { chains.append([state]) }
            } else {
                for count in chain.count...committed.count { chains.append(Array(committed.prefix(count))) }
            }
        }
        crashFollowedCorruption = end == .corruption || (end == .openCrash && crashFollowedCorruption)
        crashChains = chains
        failedDrainStates = []
    }

    /// The power went while no process ran, after an open that died: every state one of the
    /// histories committed may be what the disk kept, and it is all durable now.
    package mutating func powerLostAfterOpenCrash() {
        var chains: [[OracleImage]] = []
        for chain in crashChains {
            for state in chain where !chains.contains([state]) { chains.append([state]) }
        }
        crashChains = chains
    }
}
