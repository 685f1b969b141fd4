import Baton

/// A server's response as an event carries it.
package enum ResponseBody: Hashable, Sendable {
    /// The response as JSON (hand-written scenarios, and files written before exact texts were kept).
    case json(JSONValue)
    /// The response's exact text, as the server sent it: escapes, spacing and member order
    /// included, so a replay feeds the store the very bytes of the run.
    case text(String)

    /// The bytes the store ingests.
    package var bytes: [UInt8] {
        switch self {
        case .json(let value): Array(CanonicalJSON.render(value).utf8)
        case .text(let text): Array(text.utf8)
        }
    }

    /// Two bodies are one when the store ingests the same bytes: a text that is its own canonical
    /// JSON reads back from a replay file as JSON.
    package static func == (lhs: ResponseBody, rhs: ResponseBody) -> Bool {
        lhs.bytes == rhs.bytes
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
    }
}

/// One step of a simulated schedule. Events carry everything they need (responses as JSON), so a
/// recorded schedule replays without the generator, and a shrunk or hand-edited one still runs:
/// an event that no longer makes sense (releasing a token never retained) does nothing.
package enum SimEvent: Hashable, Sendable {
    /// A server response for `operation` is ingested and committed (a mutation's plain answer too).
    case response(operation: String, variables: [String: JSONValue], body: ResponseBody)
    /// A mutation's optimistic response is committed as layer `layer`.
    case optimistic(layer: Int, operation: String, variables: [String: JSONValue], body: ResponseBody)
    /// The server answers the mutation of layer `layer`.
    case answer(layer: Int, operation: String, variables: [String: JSONValue], body: ResponseBody)
    /// The mutation of layer `layer` failed: its layer is reverted.
    case fail(layer: Int)
    case retain(token: Int, operation: String, variables: [String: JSONValue])
    case release(token: Int)
    /// The availability check; `expiration` in seconds, if one applies.
    case check(operation: String, variables: [String: JSONValue], expiration: Double?)
    case collect
    /// The writer drains everything queued in one transaction.
    case drain
    /// The process dies after `steps` row writes of a drain, before its commit.
    case drainPartway(steps: Int)
    /// The writer starts a drain on a thread of its own, as production's background queue does,
    /// and the drain is held right after it took its work: the events after it run on the main
    /// actor while the drain is in flight (its work taken, nothing written), until ``drainEnds``
    /// or an event that needs the image's lock (a check, a drain, anything that ends the
    /// process) lets it finish first.
    case drainBegins
    /// The drain in flight (``drainBegins``) goes on and finishes, checked as a drain is.
    case drainEnds
    /// The device's clock moves by `seconds`; a negative step sets it back (the user, or the
    /// network's time, corrected it), so fetches stamped before may lie ahead of it.
    case advanceClock(seconds: Double)
    case invalidate
    /// The user logs out: the store forgets every record, layer and fetch time at once, and the
    /// image is erased at the writer's next drain, leaving none of the erased rows' bytes in the
    /// file or its WAL.
    case erase
    /// The writer drains, the image closes, the process ends.
    case quit
    /// The process is killed: the OS keeps everything written.
    case kill
    /// The machine loses power: each unsynced write is kept, dropped or torn, chosen by `seed`.
    case powerLoss(seed: UInt64)
    /// A new process opens the image and makes a new store.
    case relaunch
    /// A new process of `build` (as ``openCrash(operations:powerLossSeed:build:)`` names it:
    /// the same build, the app's next version, or a build one image format newer) makes its store
    /// at once and opens the image in the background, as an app does with `OpeningImage`: the
    /// running process quits (when one runs), commits buffer until
    /// the open is done, and the open is done when an event first needs the image (a check
    /// waits for it, a drain or a quit runs after it). A kill or a power loss before then ends
    /// a process that never touched the file; an open that meets a full disk fails, and the
    /// store runs without an image.
    case relaunchOpeningLater(build: LaunchBuild = .same)
    /// A new process on a locked device (after a reboot, before the user unlocked it): no file
    /// of the image can be opened while it opens, so its store runs without an image, and the
    /// file must stay exactly as it was.
    case relaunchLocked
    /// The app is updated: the running process quits (when one runs), and a process of the next
    /// app version opens the image, which wipes the rows an older version wrote.
    case upgrade
    /// The app's next build, of the same version, brings a Baton one image format newer: the
    /// running process quits (when one runs), the file is made the format before (6, whose `used`
    /// stamps are launches themselves), and a process of the new build opens it, which moves its
    /// stamps and marks it 7, keeping every row.
    case formatUpgrade
    /// A new process dies while it opens the image: the running process quits (when one runs),
    /// and the next opens the image until `operations` of its disk-changing operations (writes,
    /// syncs, truncations, file creations and deletions) have happened; the next never does. It
    /// dies by a kill or, with `powerLossSeed`, a power loss. The process is of the same build, or
    /// of the app's next version (as ``upgrade`` launches, and the versions after it run that one
    /// too), or a build one image format newer (the file made the previous format first, as
    /// ``formatUpgrade`` does). An open that finishes sooner is killed (or loses power) right
    /// after. No process runs afterwards: the next launch must find a state the open could have
    /// left.
    case openCrash(operations: Int, powerLossSeed: UInt64?, build: LaunchBuild)
    /// The process quits and dies part way: its last drain and its close (SQLite's checkpoint)
    /// run until `operations` of their disk changes have happened, and the next never does. It
    /// dies by a kill or, with `powerLossSeed`, a power loss; a quit that finishes sooner is a
    /// clean quit.
    case quitCrash(operations: Int, powerLossSeed: UInt64?)
    /// A write, sync or read of the disk fails with `code` (`ioerr` or `full`): the next one, or,
    /// with a `skip`, the one after `skip` more of that kind succeed (the sweep places its faults
    /// this way, and a placed fault launches no process). A read fault targets the next check's
    /// reads, as ``readFault(code:skip:)`` does.
    case fault(on: String, code: String, skip: Int? = nil)
    /// The next check that reads the disk far enough has one read fail with `code` (`ioerr`, or
    /// `busy`: "not now"), after `skip` of its reads succeed: the row being read is a miss for
    /// that walk, never wrong data, and its record does not become hydrated.
    case readFault(code: String, skip: Int)
    /// The disk is full for the next `events` events of this process (or until it ends): writes,
    /// syncs and truncations fail with `SQLITE_FULL`, then space returns.
    case diskFull(events: Int)
    /// Bits flip in the image at rest: the process is killed (or, with `afterQuit`, quits
    /// cleanly: a last drain, the file closed and checkpointed), the OS writes its cache back,
    /// and `seed` picks rows whose bytes in the main file get one flipped bit each.
    case bitRot(seed: UInt64, afterQuit: Bool = false)
    /// The process dies and the image is replaced by garbage (from `seed`), its WAL gone.
    case corruptFile(seed: UInt64)

    /// The event's kind, as the replay format names it.
    package var kind: String {
        switch self {
        case .response: "response"
        case .optimistic: "optimistic"
        case .answer: "answer"
        case .fail: "fail"
        case .retain: "retain"
        case .release: "release"
        case .check: "check"
        case .collect: "collect"
        case .drain: "drain"
        case .drainPartway: "drainPartway"
        case .drainBegins: "drainBegins"
        case .drainEnds: "drainEnds"
        case .advanceClock: "advanceClock"
        case .invalidate: "invalidate"
        case .erase: "erase"
        case .quit: "quit"
        case .kill: "kill"
        case .powerLoss: "powerLoss"
        case .relaunch: "relaunch"
        case .relaunchOpeningLater: "relaunchOpeningLater"
        case .relaunchLocked: "relaunchLocked"
        case .upgrade: "upgrade"
        case .formatUpgrade: "formatUpgrade"
        case .openCrash: "openCrash"
        case .quitCrash: "quitCrash"
        case .fault: "fault"
        case .corruptFile: "corruptFile"
        case .readFault: "readFault"
        case .diskFull: "diskFull"
        case .bitRot: "bitRot"
        }
    }

    /// True for events that end the process.
    package var endsProcess: Bool {
        switch self {
        case .quit, .kill, .powerLoss, .drainPartway, .corruptFile, .bitRot, .openCrash, .quitCrash: true
        default: false
        }
    }

    /// True for a crash inside the store's own call (its open or its quit), which the simulator
    /// skips while a disk fault is armed.
    package var isCrashPoint: Bool {
        switch self {
        case .openCrash, .quitCrash: true
        default: false
        }
    }

    /// True for events that launch a process of their own (quitting the running one first).
    package var launches: Bool {
        switch self {
        case .relaunch, .relaunchOpeningLater, .relaunchLocked, .upgrade, .formatUpgrade: true
        default: false
        }
    }

    /// True for events that run while a process's image still opens in the background: they
    /// touch memory, the clock or the disk's arming alone, or end the process without its file.
    /// Any other event first finishes the open (``relaunchOpeningLater``).
    package var runsBeforeTheOpen: Bool {
        switch self {
        case .response, .optimistic, .answer, .fail, .retain, .release, .collect, .advanceClock, .invalidate, .erase,
             .kill, .powerLoss, .corruptFile, .readFault, .fault, .diskFull:
            // A full disk before the open makes the open fail: the store then runs without an
            // image, as production's `OpeningImage` leaves it.
            true
        case .check, .drain, .drainPartway, .drainBegins, .drainEnds, .quit, .relaunch, .relaunchOpeningLater, .relaunchLocked, .upgrade, .formatUpgrade,
             .openCrash, .quitCrash, .bitRot:
            false
        }
    }

    /// True for events that run while a drain is in flight (``drainBegins``): the main actor's
    /// work that never waits for the image's lock (commits queue their batches under the
    /// writer's own lock, collection asks it for the keys still pending, an erase drops the
    /// queue and writes its mark), and the disk's arming. Any other event waits for the drain:
    /// the simulator finishes it first.
    package var runsWhileDrainInFlight: Bool {
        switch self {
        case .response, .optimistic, .answer, .fail, .retain, .release, .collect, .advanceClock, .invalidate, .erase,
             .fault, .readFault, .diskFull, .drainEnds:
            true
        case .check, .drain, .drainPartway, .drainBegins, .quit, .kill, .powerLoss, .relaunch, .relaunchOpeningLater,
             .relaunchLocked, .upgrade, .formatUpgrade, .openCrash, .quitCrash, .corruptFile, .bitRot:
            false
        }
    }

    /// True for events that only arm the disk (read faults, a full disk, a fault placed by its
    /// `skip`): they need no process, so they do not launch one (a sweep puts a fault right
    /// before a relaunch). A plain `fault` launches one, as it always did.
    package var armsDisk: Bool {
        switch self {
        case .readFault, .diskFull: true
        case .fault(_, _, let skip): skip != nil
        default: false
        }
    }

    /// A one-line description for traces.
    package var summary: String {
        func op(_ name: String, _ variables: [String: JSONValue]) -> String {
            name + Legible.text(CanonicalJSON.render(.object(variables)))
        }
        switch self {
        case .response(let o, let v, _): return "response " + op(o, v)
        case .optimistic(let l, let o, let v, _): return "optimistic layer \(l) " + op(o, v)
        case .answer(let l, let o, let v, _): return "answer layer \(l) " + op(o, v)
        case .fail(let l): return "fail layer \(l)"
        case .retain(let t, let o, let v): return "retain token \(t) " + op(o, v)
        case .release(let t): return "release token \(t)"
        case .check(let o, let v, let e): return "check " + op(o, v) + (e.map { " expiration \($0)" } ?? "")
        case .collect: return "collect"
        case .drain: return "drain"
        case .drainPartway(let s): return "drain partway after \(s) writes, then die"
        case .drainBegins: return "a drain begins on the writer's thread and is held once it took its work"
        case .drainEnds: return "the drain in flight finishes"
        case .advanceClock(let s): return "advance clock \(s)s"
        case .invalidate: return "invalidate"
        case .erase: return "erase (the user logs out)"
        case .quit: return "quit"
        case .kill: return "kill"
        case .powerLoss(let s): return "power loss seed \(s)"
        case .relaunch: return "relaunch"
        case .relaunchLocked: return "relaunch on a locked device"
        case .relaunchOpeningLater(let build):
            let process = build == .same ? "relaunch" : "relaunch of " + build.processName
            return process + ", the image opening in the background"
        case .upgrade: return "upgrade to the next app version"
        case .formatUpgrade: return "upgrade to a build one image format newer"
        case .openCrash(let operations, let seed, let build):
            return build.processName + " dies opening the image after \(operations) disk changes, "
                + (seed.map { "power loss seed \($0)" } ?? "killed")
        case .quitCrash(let operations, let seed):
            return "quit, dying after \(operations) disk changes, " + (seed.map { "power loss seed \($0)" } ?? "killed")
        case .fault(let on, let code, let skip): return "fault \(code) on next \(on)" + (skip.map { " after \($0) more" } ?? "")
        case .readFault(let code, let skip): return "read fault \(code) in the next check's reads after \(skip)"
        case .diskFull(let events): return "disk full for \(events) events"
        case .bitRot(let seed, let afterQuit): return "bits rot in the image at rest\(afterQuit ? " after a quit" : ""), seed \(seed)"
        case .corruptFile(let seed): return "image file overwritten with garbage, seed \(seed)"
        }
    }
}

/// Which build a launch runs, beside the one that ran last.
public enum LaunchBuild: String, Sendable, Hashable, CaseIterable {
    /// The same build.
    case same
    /// The app's next version: its open wipes the rows the older one wrote.
    case appUpgrade = "app"
    /// The same app version, with a Baton one image format newer: the file is made the previous
    /// format first, and its open moves it into the current one.
    case formatUpgrade = "format"

    /// The process, as a trace line names it.
    var processName: String {
        switch self {
        case .same: "a process"
        case .appUpgrade: "the next app version"
        case .formatUpgrade: "a build one image format newer"
        }
    }
}
