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
}
