import Baton
import BatonSim
import Testing

/// The model's account of an open that died: which states the next launch may find.
@Suite("Oracle: the states an open that died may leave")
struct OracleOpenCrashTests {
    typealias F = OracleFixture

    /// A model whose first launch (generation 1) drained Rick durably, then Morty not yet durably.
    static func twoDrains() throws -> Oracle {
        var oracle = try F.oracle()
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", ["id": .string("1")])
        oracle.drainCommitted(synced: true)
        try oracle.commit(F.header("2", name: "Morty", status: "Alive"), "Header", ["id": .string("2")])
        oracle.drainCommitted(synced: false)
        return oracle
    }

    @Test("killed: the state it found, or that state counted; never an older one")
    func killed() throws {
        var oracle = try Self.twoDrains()
        let image = oracle.image
        oracle.openCrashed(after: .kill, appVersion: Oracle.firstAppVersion, powerLoss: false)
        let allowed = oracle.allowedStates(after: .openCrash)
        #expect(allowed.count == 2)
        #expect(allowed.first == image)
        #expect(allowed.last?.generation == image.generation + 1)
        #expect(allowed.last?.records == image.records)
    }

    @Test("an update killed in its open: the state found, that state wiped and marked, or counted too")
    func updateKilled() throws {
        var oracle = try Self.twoDrains()
        let image = oracle.image
        oracle.openCrashed(after: .quit, appVersion: Oracle.appVersion(2), powerLoss: false)
        let allowed = oracle.allowedStates(after: .openCrash)
        #expect(allowed.count == 3)
        #expect(allowed[0] == image)
        #expect(allowed[1].records.isEmpty && allowed[1].appVersion == Oracle.appVersion(2) && allowed[1].generation == image.generation)
        #expect(allowed[2].records.isEmpty && allowed[2].generation == image.generation + 1)
    }

    @Test("powered off in its open: also the states not yet durable are lost, back to the last durable one")
    func poweredOff() throws {
        var oracle = try Self.twoDrains()
        let image = oracle.image
        oracle.openCrashed(after: .kill, appVersion: Oracle.firstAppVersion, powerLoss: true)
        let allowed = oracle.allowedStates(after: .openCrash)
        #expect(allowed.contains(image))
        #expect(allowed.contains { $0.records.count == image.records.count - 1 }, "the state before Morty's drain")
        #expect(allowed.contains { $0.generation == image.generation + 1 })
        // A launch that found the counted state keeps it; a later power loss returns to it at worst.
        let counted = try #require(allowed.firstIndex { $0.generation == image.generation + 1 })
        oracle.relaunched(found: counted, generation: image.generation + 2, after: .openCrash)
        #expect(oracle.allowedStates(after: .powerLoss).first?.generation == image.generation + 1)
    }

    @Test("the power goes while closed after an open that was killed: every state of every history")
    func powerLostWhileClosed() throws {
        var oracle = try Self.twoDrains()
        oracle.openCrashed(after: .kill, appVersion: Oracle.firstAppVersion, powerLoss: false)
        #expect(oracle.allowedStates(after: .openCrash).count == 2)
        oracle.powerLostAfterOpenCrash()
        let allowed = oracle.allowedStates(after: .openCrash)
        #expect(allowed.count == 3, "the durable state, Morty's drain, and the count")
    }
}
