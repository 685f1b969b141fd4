import Baton
import Testing

private typealias B = Build

/// `thing { __typename ... on Kind { id name } ... on Other { id } }`, `Thing` a union.
private let unionPlan = B.query([
    B.object("thing", "Thing", abstract: true, [
        B.typename(),
        B.on(["Kind"], [B.leaf("id", .id), B.leaf("name")]),
        B.on(["Other"], [B.leaf("id", .id)]),
    ]),
])

/// `kind { __typename id }`, `kind` of the object type `Kind`.
private let objectPlan = B.query([B.object("kind", "Kind", [B.typename(), B.leaf("id", .id)])])

/// `kind { id meta }`, `kind` of the object type `Kind`, `meta` a JSON scalar: no `__typename`
/// selected, as the documents are that a network layer adds it to.
private let unselectedPlan = B.query([B.object("kind", "Kind", [B.leaf("id", .id), B.leaf("meta", .customScalar)])])

/// A type's name is ASCII (the GraphQL grammar's `Name`), so a `__typename` is compared by its
/// bytes: Swift's `==` takes `\u212Aind` (a Kelvin sign, canonically a `K`) for `Kind`, and the
/// store once filed such an object as a `Kind` and read the `Kind` fragment's fields from it.
@MainActor
@Suite("Ingest: a __typename is a GraphQL name, compared by its bytes")
struct IngestTypenameSpellingTests {
    @Test("a Kelvin sign, written escaped or as it is, names no type: the response is refused")
    func kelvinSignIsNoName() {
        for spelling in [#"\u212Aind"#, "\u{212A}ind"] {
            let error = ingestError(unionPlan, #"{"data":{"thing":{"__typename":"\#(spelling)","id":"1","name":"n"}}}"#)
            #expect(error?.kind == .typenameNotAName("\u{212A}ind"), "\(spelling)")
            #expect(error?.message == #"__typename "\u212Aind" is not a GraphQL name"#)
        }
    }

    @Test("other texts that are no names are refused too; an unknown name is a type the schema does not know")
    func namesAndNonNames() throws {
        for text in ["", "Kind ", #"Kind\u0301"#, "Kindé", "1Kind", "Ki-nd"] {
            let error = ingestError(unionPlan, #"{"data":{"thing":{"__typename":"\#(text)","id":"1"}}}"#)
            #expect(error.map { if case .typenameNotAName = $0.kind { true } else { false } } == true, "\(text)")
        }
        // `kind` is a name: a type the client's schema lacks, so no fragment applies.
        let unknown = try ingest(unionPlan, #"{"data":{"thing":{"__typename":"kind","id":"1","name":"n"}}}"#)
        #expect(unknown.records.contains { $0.key == RecordKey("Kind:1") } == false)
        // The name escaped is the same name.
        let escaped = try ingest(unionPlan, #"{"data":{"thing":{"__typename":"\u004Bind","id":"1","name":"n"}}}"#)
        #expect(escaped.value("Kind:1", "name") == .string("n"))
    }

    @Test("a long text that is no name is shown cut, in ASCII")
    func longNonNameIsCut() {
        let long = String(repeating: "\u{E9}", count: 5000)
        let error = ingestError(unionPlan, #"{"data":{"thing":{"__typename":"\#(long)","id":"1"}}}"#)
        #expect(error?.message == "__typename \"" + String(repeating: "\\u00E9", count: 40) + "\\u2026\" is not a GraphQL name")
    }

    @Test("under an object type, a Kelvin spelling contradicts the schema's type and says what it holds")
    func kelvinContradictsObjectType() throws {
        let error = ingestError(objectPlan, #"{"data":{"kind":{"__typename":"\u212Aind","id":"1"}}}"#)
        #expect(error?.kind == .typenameMismatch(expected: "Kind", found: "\u{212A}ind"))
        #expect(error?.message == #"__typename "\u212Aind" contradicts the schema's type Kind"#)
        #expect(try ingest(objectPlan, #"{"data":{"kind":{"__typename":"\u004Bind","id":"1"}}}"#).records.count == 2)
    }

    /// A network layer (Apollo's) adds `__typename` to every selection set of the document it
    /// sends, and the store is handed the document without: the member is still the server's word
    /// on the object's type. Until 2026-12-06 the store passed over it while the model checked it;
    /// recorded responses of the apollo-kotlin calendar, garbled, found the difference.
    @Test("a __typename the selection does not name must agree too; inside a JSON scalar it is data")
    func unselectedTypenameChecked() throws {
        let agreeing = try ingest(unselectedPlan, #"{"data":{"kind":{"__typename":"Kind","id":"1","meta":null}}}"#)
        #expect(agreeing.value("Kind:1", "id") == .string("1"))
        #expect(try ingest(unselectedPlan, #"{"data":{"__typename":"Query","kind":{"\u005f_typename":"Kind","id":"1","meta":null}}}"#)
            .records.count == 2)
        let cases: [(json: String, kind: IngestError.Kind)] = [
            (#"{"data":{"kind":{"id":"1","__typename":"Ghost","meta":null}}}"#, .typenameMismatch(expected: "Kind", found: "Ghost")),
            (#"{"data":{"kind":{"id":"1","meta":null,"__typename":"Kind "}}}"#, .typenameMismatch(expected: "Kind", found: "Kind ")),
            (#"{"data":{"kind":{"\u005f_typename":"\u212Aind","id":"1","meta":null}}}"#, .typenameMismatch(expected: "Kind", found: "\u{212A}ind")),
            (#"{"data":{"__typename":"Mutation","kind":{"id":"1","meta":null}}}"#, .typenameMismatch(expected: "Query", found: "Mutation")),
        ]
        for (json, kind) in cases {
            #expect(ingestError(unselectedPlan, json)?.kind == kind, "\(json)")
        }
        #expect(ingestError(unselectedPlan, #"{"data":{"kind":{"id":"1","__typename":null,"meta":null}}}"#) != nil)
        #expect(ingestError(unselectedPlan, #"{"data":{"kind":{"id":"1","__typename":"Kind","__typename":"Kind","meta":null}}}"#) != nil)
        // Inside a JSON scalar, or an error's extensions, a `__typename` is plain data.
        let inScalar = try ingest(unselectedPlan, #"{"data":{"kind":{"id":"1","meta":{"__typename":"Ghost"}}}}"#)
        #expect(inScalar.value("Kind:1", "meta") == .object(#"{"__typename":"Ghost"}"#))
        #expect(ingestError(unselectedPlan, #"{"data":{"kind":{"id":"1","meta":null}},"errors":[{"message":"m","extensions":{"__typename":5}}]}"#) == nil)
    }
}
