@testable import Baton
import BatonSim
import Foundation
import Testing

/// `BatchKind.local`: the runtime's own writes of what the image already holds (as hydration's).
/// The commit hands nothing to the writer; a later server commit's snapshot of the same record
/// carries every cell memory holds, these included.
@MainActor
@Suite("Local commits and the image")
struct LocalCommitTests {
    let ops = try! Operations(persistenceSDL)
    let screen = "query Screen($id: ID!) { character(id: $id) { id name status species image } }"
    let statusOnly = "query Status($id: ID!) { character(id: $id) { id status } }"

    func response(name: String) -> String {
        #"{"data":{"character":{"id":"1","name":"\#(name)","status":"Alive","species":"Human","image":"1.png"}}}"#
    }

    /// A launch that commits Rick from the server, drains, then writes `name` locally, runs
    /// `after`, and quits; then the name a relaunch's check reads.
    func nameAfterRelaunch(local name: String, after: (Launch) throws -> Void) throws -> JSONValue? {
        let directory = TemporaryDirectory()
        let plan = try ops.plan(screen)
        let variables = try plan.variables(["id": .string("1")])
        let first = try Launch(directory.imagePath)
        try ops.commit(first.store, plan, ["id": .string("1")], response(name: "Rick"))
        first.drain()
        first.store.commit(try Ingest.normalize(plan: plan, variables: variables, response: Array(response(name: name).utf8)), kind: .local)
        #expect(first.image.writer.drain() == .nothingToDo, "a local commit hands the writer nothing")
        try after(first)
        first.quit()
        let second = try Launch(directory.imagePath)
        #expect(second.store.check(plan, variables: variables).isAvailable)
        guard case .object(let data) = second.store.read(plan, variables: variables).data,
              case .object(let character)? = data["character"] else { return nil }
        return character["name"]
    }

    @Test("a local commit alone never reaches the image")
    func localStaysInMemory() throws {
        #expect(try nameAfterRelaunch(local: "Rick (edited here)") { _ in } == .string("Rick"))
    }

    @Test("a later server snapshot of the record carries the local cells with it")
    func laterSnapshotCarriesLocalCells() throws {
        let name = try nameAfterRelaunch(local: "Rick (edited here)") { launch in
            try ops.commit(launch.store, try ops.plan(statusOnly), ["id": .string("1")], #"{"data":{"character":{"id":"1","status":"Dead"}}}"#)
        }
        #expect(name == .string("Rick (edited here)"))
    }
}
