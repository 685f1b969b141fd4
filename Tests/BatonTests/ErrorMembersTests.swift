import Baton
import Testing

/// An error's members besides its message, path and extensions (`locations`, and a server's own:
/// GitHub puts `"type": "FORBIDDEN"` at an error's top level) are kept as the response gave them
/// and read back beside the message. Until 2026-12-06 they were dropped.
@MainActor
@Suite("Field errors keep their other members")
struct ErrorMembersTests {
    let plan = try! StoreFixture.plan("query P { list: characters(page: 1) { results { id name } } }")

    let response = #"""
    {"data":{"list":{"results":[{"id":"1","name":null},{"id":"2","name":null},{"id":"3","name":null}]}},
     "errors":[
        {"type":"FORBIDDEN","message":"hidden","locations":[{"line":1,"column":52}],"path":["list","results",0,"name"]},
        {"message":"plain","path":["list","results",1,"name"],"extensions":{"code":"X"}},
        {"message":"odd","path":["list","results",2,"name"],"\u0074ype":null,"café":{"b":[1,12345678901234567890123]},"cafe\u0301":2}]}
    """#

    @Test("ingest keeps them as one canonical object, names by their bytes; none is nil")
    func ingested() throws {
        let store = Store(configuration: .init(collectsAutomatically: false))
        try StoreFixture.commit(store, plan, [:], response)
        let errors = store.read(plan, variables: Variables([:])).errors.map(\.error)
        #expect(errors.map(\.message) == ["hidden", "plain", "odd"])
        #expect(errors[0].otherMembers == #"{"locations":[{"column":52,"line":1}],"type":"FORBIDDEN"}"#)
        #expect(errors[1].otherMembers == nil)
        #expect(errors[2].otherMembers == #"{"cafe\#u{301}":2,"café":{"b":[1,12345678901234567890123]},"type":null}"#)
    }

    @Test("read back as a response, they stand beside the message, path and extensions")
    func readBack() throws {
        let store = Store(configuration: .init(collectsAutomatically: false))
        try StoreFixture.commit(store, plan, [:], response)
        let json = store.read(plan, variables: Variables([:])).errors.map(\.json)
        guard case .object(let first) = json[0] else {
            Issue.record("not an object: \(json[0])")
            return
        }
        #expect(first["type"] == .string("FORBIDDEN"))
        #expect(first["locations"] == .array([.object(["line": .int(1), "column": .int(52)])]))
        #expect(first["message"] == .string("hidden"))
        #expect(first["path"] == .array([.string("list"), .string("results"), .int(0), .string("name")]))
        guard case .object(let second) = json[1] else { return }
        #expect(Set(second.keys) == ["message", "path", "extensions"])
    }
}
