/// A drain that took its work and has not finished (``SimEvent/drainBegins``): what it took, and
/// what happened to the queue behind it.
package struct OracleDrainInFlight: Sendable {
    /// The batches it took, in queue order, and the check's stamps it took with them.
    package var batches: [OracleBatch]
    var touches: OracleTouches
    /// Whether it must empty the image first, and whether that is an erase's wipe: what the
    /// queue asked when it took its work.
    var wipe: Bool
    var erase: Bool
    /// An erase or an overflow dropped the queue while it was in flight: a failure does not put
    /// its work back (the queue moved on), and a commit does not end the wipe they asked for.
    var overtaken = false
    /// An erase came while it was in flight, and whether that erase's mark is durable (its
    /// promise, ``Oracle/erasePromised``).
    var erasedMeanwhile = false
    var promisedMeanwhile = false
    /// The writer's state behind the drain, kept aside while the drain's end is checked
    /// (``Oracle/enterDrainInFlight()``).
    package var later: Later?

    package struct Later: Sendable {
        var queue: [OracleBatch]
        var touches: OracleTouches
        var writerMustWipe: Bool
        var eraseMustWipe: Bool
    }

    var itemCount: Int { batches.reduce(0) { $0 + $1.itemCount } }
}

extension Oracle {
    /// The writer took everything queued into flight, with the check's stamps; the queue starts
    /// empty behind it. What it must wipe stays asked until it commits.
    package mutating func drainBegan() {
        drainInFlight = OracleDrainInFlight(batches: queue, touches: touches, wipe: writerMustWipe, erase: eraseMustWipe)
        queue = []
        touches = OracleTouches()
        coverage.drainsHeld += 1
    }

    /// The queue's epoch moved under the drain in flight (an overflow or an erase dropped it).
    mutating func drainOvertaken(byErase: Bool, promised: Bool) {
        guard drainInFlight != nil else { return }
        drainInFlight?.overtaken = true
        if byErase {
            drainInFlight?.erasedMeanwhile = true
            drainInFlight?.promisedMeanwhile = promised
            coverage.erasesDuringDrains += 1
        }
    }

    /// The drain in flight is about to finish: the writer's state is set to what the drain
    /// took, so that a drain's checks (``hasWriterWork``, ``drainCommitted(synced:)``,
    /// ``drainFailed(diskFull:)``) judge it; ``leaveDrainInFlight(committed:)`` then puts back
    /// what came behind it.
    package mutating func enterDrainInFlight() {
        guard var flight = drainInFlight, flight.later == nil else { return }
        flight.later = OracleDrainInFlight.Later(
            queue: queue, touches: touches, writerMustWipe: writerMustWipe, eraseMustWipe: eraseMustWipe)
        queue = flight.batches
        touches = flight.touches
        writerMustWipe = flight.wipe
        eraseMustWipe = flight.erase
        drainInFlight = flight
    }

    /// The drain in flight ended (`committed`: its transaction committed). What was queued behind
    /// it stays queued; a failed drain's work goes back in front of it unless an overflow or an
    /// erase dropped the queue meanwhile; the wipe an overflow or an erase asked for meanwhile
    /// is still owed after a commit.
    package mutating func leaveDrainInFlight(committed: Bool) {
        guard let flight = drainInFlight, let later = flight.later else { return }
        drainInFlight = nil
        if committed {
            queue = later.queue
            touches = later.touches
            writerMustWipe = flight.overtaken && later.writerMustWipe
            eraseMustWipe = flight.overtaken && later.eraseMustWipe
            // The drain finished an erase before the one that came meanwhile: that one promises now.
            if flight.erasedMeanwhile { erasePromised = flight.promisedMeanwhile }
        } else {
            queue = (flight.overtaken ? [] : flight.batches) + later.queue
            touches = flight.touches.merging(later.touches)
            writerMustWipe = later.writerMustWipe
            eraseMustWipe = later.eraseMustWipe
        }
    }

    /// The drain in flight failed.
    package mutating func heldDrainFailed() {
        coverage.heldDrainsFailed += 1
    }

    /// True while an erase's wipe is still owed behind the drain in flight: an erase came while
    /// it was in flight, or an overflow did while it carried an erase's own wipe (the queue's
    /// epoch moved, so its commit does not end the erase: the next drain wipes as an erase
    /// again). That drain's end leaves the mark beside the file (seed 621175018 of the default
    /// world at 2,000 events: an overflow while an erase's drain was in flight, where the model
    /// took the mark for deleted).
    package var eraseWaitsBehindDrain: Bool {
        guard let flight = drainInFlight, flight.overtaken else { return false }
        return flight.erasedMeanwhile || (flight.later?.eraseMustWipe ?? eraseMustWipe)
    }
}

extension OracleTouches {
    /// Both sets of stamps.
    func merging(_ other: OracleTouches) -> OracleTouches {
        OracleTouches(
            records: records.union(other.records), rootFields: rootFields.union(other.rootFields),
            fetches: fetches.union(other.fetches))
    }
}
