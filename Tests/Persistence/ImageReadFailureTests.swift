@testable import Baton
import Testing

/// A row read that fails during the check (busy, locked, an I/O error) is a miss for that walk and
/// never marks the record hydrated: its next partial snapshot merges over the row.
@MainActor
@Suite("A read that fails during the check loses nothing")
struct ImageReadFailureTests {
    let operations = try! Operations(persistenceSDL)

    /// Three launches: a screen written; a check whose row read fails, then a header for the same
    /// record; a check that must still find every field of the screen.
    private func run(code: SQLiteResultCode, mutant: Mutant?) throws -> (secondCheck: Availability, thirdCheck: Availability, species: Value?) {
        let directory = TemporaryDirectory()
        let screen = try operations.plan("query S { character(id: \"1\") { id name status species } }")
        let header = try operations.plan("query H { character(id: \"1\") { id name status } }")
        let first = try Launch(directory.imagePath)
        try operations.commit(first.store, screen, [:], #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive","species":"Human"}}}"#)
        first.quit()

        let faults = FaultInjector()
        var configuration = ImageConfiguration(executor: ManualWriterExecutor(), faults: faults)
        #if BATON_MUTANTS
        configuration.mutant = mutant.flatMap(ImageMutant.init(mutant:))
        #endif
        let image = try Image.open(path: directory.imagePath, appVersion: "persistence-tests", configuration: configuration)
        let store = Store(image: image, clock: TestClock(), configuration: .init(collectsAutomatically: false, mutant: mutant))
        // The check's walk reads the root field (the first step), then the record's row: fail that.
        faults.fail(.step, nth: 2, with: code)
        let secondCheck = store.check(screen, variables: try screen.variables())
        #expect(faults.fired.count == 1)
        faults.disarm()
        try operations.commit(store, header, [:], #"{"data":{"character":{"id":"1","name":"Rick Sanchez","status":"Alive"}}}"#)
        _ = image.writer.drain()
        image.close()

        let third = try Launch(directory.imagePath)
        let thirdCheck = third.store.check(screen, variables: try screen.variables())
        let species = third.store.data(of: RecordKey("Character:1"))?.cells[SlotID.named("species")]?.value
        third.quit()
        return (secondCheck, thirdCheck, species)
    }

    @Test("busy, an I/O error, out of memory: a miss, and the row keeps the fields the header did not carry",
          arguments: [SQLiteResultCode.busy, .ioerr, .nomem, .locked])
    func failedReadIsAMiss(code: SQLiteResultCode) throws {
        let outcome = try run(code: code, mutant: nil)
        #expect(outcome.secondCheck == .missing)
        #expect(outcome.thirdCheck.isAvailable)
        #expect(outcome.species == .string("Human"))
    }

    #if BATON_MUTANTS
    @Test("under the failedReadHydrates mutant the header's snapshot replaces the row and species is lost")
    func mutantLosesData() throws {
        let outcome = try run(code: .ioerr, mutant: .failedReadHydrates)
        #expect(outcome.thirdCheck == .missing)
        #expect(outcome.species == nil)
    }
    #endif
}
