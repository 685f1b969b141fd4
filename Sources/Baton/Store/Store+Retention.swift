/// A retained operation: its records are protected from collection until released (and then
/// until it leaves the release buffer).
@MainActor
public final class RetainToken {
    let id: Int
    let root: RetainedRoot
    public internal(set) var isReleased = false

    init(id: Int, root: RetainedRoot) {
        self.id = id
        self.root = root
    }
}

/// An operation plus variables that something retains.
struct RetainedRoot {
    let plan: Plan
    let variables: Variables
}

/// The retained roots and the release buffer.
struct Retention {
    var retained: [Int: RetainedRoot] = [:]
    /// Released roots still protecting their records, oldest first.
    var buffer: [RetainedRoot] = []
    var nextID = 1

    /// Every root that protects records now, retained first (by id), then the buffer.
    var protecting: [RetainedRoot] {
        retained.keys.sorted().map { retained[$0]! } + buffer
    }
}

extension Store {
    /// Retains `plan` under `variables`: its records survive collection until the token is released.
    public func retain(_ plan: Plan, variables: Variables) -> RetainToken {
        let id = retention.nextID
        retention.nextID += 1
        let root = RetainedRoot(plan: plan, variables: variables)
        retention.retained[id] = root
        return RetainToken(id: id, root: root)
    }

    /// Releases `token`: its root waits in the release buffer, and the oldest buffered root leaves
    /// when the buffer is full (a root that leaves makes collection necessary).
    public func release(_ token: RetainToken) {
        guard !token.isReleased, let root = retention.retained.removeValue(forKey: token.id) else { return }
        token.isReleased = true
        retention.buffer.append(root)
        if retention.buffer.count > configuration.releaseBufferSize {
            if configuration.mutant.isOn(.releaseBufferDropsNewest) {
                retention.buffer.removeLast(retention.buffer.count - configuration.releaseBufferSize)
            } else {
                retention.buffer.removeFirst(retention.buffer.count - configuration.releaseBufferSize)
            }
            noteCollectionNeeded()
        }
    }

    /// The number of retained roots and of roots waiting in the release buffer.
    public var retainedCount: (retained: Int, buffered: Int) {
        (retention.retained.count, retention.buffer.count)
    }

    /// Notes that collection is needed; with automatic collection, schedules one pass on the main
    /// actor after the current turn (a burst of commits and releases collects once).
    func noteCollectionNeeded() {
        needsCollection = true
        guard configuration.collectsAutomatically, !collectionScheduled else { return }
        collectionScheduled = true
        guard configuration.turnEnds == .mainActorTask else { return }
        Task { @MainActor [weak self] in
            self?.endTurn()
        }
    }

    /// The end of the main actor's turn: runs the pass automatic collection scheduled, unless a
    /// pass ran since it was needed. Returns what the pass did, `nil` when none ran.
    @discardableResult
    package func endTurn() -> CollectionResult? {
        guard collectionScheduled else { return nil }
        collectionScheduled = false
        return needsCollection ? collect() : nil
    }
}

/// Who ends the main actor's turn for automatic collection.
package enum TurnEnd: Sendable {
    /// A task on the main actor, enqueued when the pass is scheduled (production).
    case mainActorTask
    /// Whoever drives the store calls ``Store/endTurn()`` after each turn (the simulator).
    case caller
}
