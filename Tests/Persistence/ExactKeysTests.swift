@testable import Baton
import Testing

/// Keys, storage keys, names and values compare by their bytes: `"é"` (one scalar) and `"e\u{301}"`
/// (two) are equal to Swift's `==` on `String`, and they are two ids, two arguments and two values
/// to the store and to SQLite (found by BatonSim's first seeds over generated ids).
@MainActor
@Suite("Keys and values compare by their bytes")
struct ExactKeysTests {
    let operations = try! Operations(persistenceSDL)
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test("the two spellings really are equal to String's ==")
    func premise() {
        #expect(Self.composed == Self.decomposed)
        #expect(!Self.composed.utf8.elementsEqual(Self.decomposed.utf8))
    }

    @Test("byte equality: the same bits, the same bytes in other storage, and the two spellings")
    func bytesEqual() {
        // Small strings (up to 15 bytes) and large ones, each equal to a copy made apart from it.
        for text in ["", "Episode:12", Self.composed, "Character:" + String(repeating: "9", count: 40)] {
            let apart = String(decoding: Array(text.utf8), as: UTF8.self)
            #expect(ExactText.bytesEqual(text, text))
            #expect(ExactText.bytesEqual(text, apart))
            #expect(RecordKey(text) == RecordKey(apart))
        }
        #expect(!ExactText.bytesEqual(Self.composed, Self.decomposed))
        #expect(!ExactText.bytesEqual("Episode:12", "Episode:13"))
        #expect(!ExactText.bytesEqual("Episode:1", "Episode:1 "))
        #expect(RecordKey("Character:" + Self.composed) != RecordKey("Character:" + Self.decomposed))
    }

    @Test("two entities whose ids differ only in composition are two records, each with its own name")
    func twoRecords() throws {
        let cast = try operations.plan("query C { episode(id: \"e\") { id characters { id name } } }")
        let store = Store(configuration: .init(collectsAutomatically: false))
        try operations.commit(store, cast, [:], #"{"data":{"episode":{"id":"e","characters":[{"id":"\#(Self.composed)","name":"composed"},{"id":"\#(Self.decomposed)","name":"decomposed"}]}}}"#)
        #expect(store.baseKeys.filter { $0.rawValue.hasPrefix("Character:") }.count == 2)
        #expect(store.data(of: RecordKey("Character:" + Self.composed))?.cells[SlotID.named("name")]?.value == .string("composed"))
        #expect(store.data(of: RecordKey("Character:" + Self.decomposed))?.cells[SlotID.named("name")]?.value == .string("decomposed"))
    }

    @Test("two arguments that differ only in composition are two slots")
    func twoSlots() {
        let a = SlotID.named("character(id:\"\(Self.composed)\")")
        let b = SlotID.named("character(id:\"\(Self.decomposed)\")")
        #expect(a != b)
        #expect(RecordKey(Self.composed) != RecordKey(Self.decomposed))
        #expect(OperationIdentity("Q{\"id\":\"\(Self.composed)\"}") != OperationIdentity("Q{\"id\":\"\(Self.decomposed)\"}"))
    }

    @Test("a value that changes only its composition is a change: kept, notified, and written to the image")
    func valueChange() throws {
        #expect(Value.string(Self.composed) != Value.string(Self.decomposed))
        let directory = TemporaryDirectory()
        let header = try operations.plan("query H { character(id: \"1\") { id name } }")
        let first = try Launch(directory.imagePath)
        try operations.commit(first.store, header, [:], #"{"data":{"character":{"id":"1","name":"\#(Self.composed)"}}}"#)
        first.drain()
        try operations.commit(first.store, header, [:], #"{"data":{"character":{"id":"1","name":"\#(Self.decomposed)"}}}"#)
        first.quit()
        let second = try Launch(directory.imagePath)
        #expect(second.store.check(header, variables: try header.variables()).isAvailable)
        guard case .string(let name)? = second.store.data(of: RecordKey("Character:1"))?.cells[SlotID.named("name")]?.value else {
            Issue.record("no name read back")
            return
        }
        #expect(name.utf8.elementsEqual(Self.decomposed.utf8))
        second.quit()
    }

    @Test("storage keys that differ only in composition keep their own names in the image")
    func twoNamesInTheImage() throws {
        let directory = TemporaryDirectory()
        let screen = try operations.plan("query S($id: ID!) { character(id: $id) { id name } }")
        let first = try Launch(directory.imagePath)
        // (Naming them by comparing the ids with `==` would name both "composed".)
        for (id, name) in [(Self.composed, "composed"), (Self.decomposed, "decomposed")] {
            try operations.commit(first.store, screen, ["id": .string(id)], #"{"data":{"character":{"id":"\#(id)","name":"\#(name)"}}}"#)
        }
        first.quit()
        let second = try Launch(directory.imagePath)
        for (id, name) in [(Self.composed, "composed"), (Self.decomposed, "decomposed")] {
            let variables = try screen.variables(["id": .string(id)])
            #expect(second.store.check(screen, variables: variables).isAvailable)
            let read = second.store.read(screen, variables: variables).data
            guard case .object(let data) = read, case .object(let character)? = data["character"],
                  case .string(let readID)? = character["id"], case .string(let readName)? = character["name"] else {
                Issue.record("nothing read back for \(name)")
                continue
            }
            #expect(readID.utf8.elementsEqual(id.utf8) && readName == name, "\(name)")
        }
        second.quit()
    }
}
