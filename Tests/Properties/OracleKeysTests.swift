import Baton
import BatonSim
import Testing

@Suite("Oracle: record keys, storage keys and operation identities")
struct OracleKeysTests {
    typealias K = OracleKeys

    @Test("arguments are sorted by the bytes of their names, whatever order they come in")
    func argumentOrder() {
        #expect(K.fieldSlot(name: "f", arguments: ["b": .int(2), "a": .string("x"), "B": .bool(true)]) == #"f(B:true,a:"x",b:2)"#)
        #expect(K.fieldSlot(name: "f", arguments: ["é": .int(1), "z": .int(2)]) == "f(z:2,é:1)")
    }

    @Test("an explicit null is a value at every depth, another slot than an absent argument")
    func nulls() {
        #expect(K.fieldSlot(name: "f", arguments: ["a": .null]) == "f(a:null)")
        #expect(K.fieldSlot(name: "f", arguments: [:]) == "f")
        let nested: JSONValue = .object(["x": .null, "y": .object(["z": .null, "w": .int(1)]), "list": .array([.null, .object(["q": .null])])])
        #expect(K.fieldSlot(name: "f", arguments: ["a": .null, "b": nested])
            == #"f(a:null,b:{"list":[null,{"q":null}],"x":null,"y":{"w":1,"z":null}})"#)
    }

    @Test("values are canonical JSON: keys sorted by bytes, doubles as Swift prints them, strings escaped")
    func canonicalValues() {
        #expect(K.fieldSlot(name: "f", arguments: ["d": .double(1.0), "e": .double(1e-7), "i": .int(-3)]) == "f(d:1.0,e:1e-07,i:-3)")
        let text = "q\"\\\n\r\t\u{08}\u{0C}\u{01}\u{1F}é😀"
        #expect(K.fieldSlot(name: "f", arguments: ["s": .string(text)]) == OracleText("f(s:\"q\\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u001f" + "é😀\")"))
        #expect(K.fieldSlot(name: "f", arguments: ["o": .object(["b": .int(1), "a": .array([.bool(false)])])]) == #"f(o:{"a":[false],"b":1})"#)
    }

    @Test("keys compare by bytes: é precomposed and decomposed are two keys")
    func unicodeBytes() {
        let precomposed = OracleText("Character:\u{E9}")
        let decomposed = OracleText("Character:e\u{301}")
        #expect(precomposed.string == decomposed.string)  // Swift's own == folds them…
        #expect(precomposed != decomposed)  // …the oracle does not
        #expect(Set([precomposed, decomposed]).count == 2)
        #expect(K.fieldSlot(name: "f", arguments: ["s": .string("\u{E9}")]) != K.fieldSlot(name: "f", arguments: ["s": .string("e\u{301}")]))
        #expect(OracleText("a") < OracleText("b") && OracleText("Z") < OracleText("a") && OracleText("é") > OracleText("z"))
    }

    @Test("entity, path and nested list keys")
    func recordKeys() {
        #expect(K.entity(typename: "Character", id: "1") == "Character:1")
        #expect(K.entity(typename: "Character", id: "1:location") == #"Character:1\:location"#)
        #expect(K.entity(typename: "Character", id: #"a\b"#) == #"Character:a\\b"#)
        #expect(K.entity(typename: "client", id: "root") == #"client:\root"#)
        #expect(K.entity(typename: "client", id: "root") != K.queryRoot)
        #expect(K.entity(typename: "client", id: "roots") == "client:roots")
        #expect(K.path(parent: "Character:1", storageKey: "location") == "Character:1:location")
        #expect(K.path(parent: "client:root", storageKey: #"search(order:"ASC")"#, index: 2) == #"client:root:search(order:"ASC"):2"#)
    }

    @Test("connection slots and records: filters, paging arguments, no double client prefix")
    func connections() {
        let arguments: [String: JSONValue] = ["first": .int(2), "after": .string("c1"), "kind": .string("x"), "other": .null]
        #expect(K.connectionSlot(key: "Feed", filters: nil, arguments: arguments) == #"__Feed_connection(kind:"x",other:null)"#)
        #expect(K.connectionSlot(key: "Feed", filters: [], arguments: arguments) == "__Feed_connection")
        #expect(K.connectionSlot(key: "Feed", filters: ["first"], arguments: arguments) == "__Feed_connection(first:2)")
        #expect(K.connectionRecord(parent: "Character:1", slot: "__N_connection") == "client:Character:1:__N_connection")
        #expect(K.connectionRecord(parent: "client:root", slot: "__N_connection") == "client:root:__N_connection")
        #expect(K.edgeCopyIndex("client:root:__N_connection:edges:12", of: "client:root:__N_connection") == 12)
        #expect(K.edgeCopyIndex("client:root:__N_connection:pageInfo", of: "client:root:__N_connection") == nil)
    }

    @Test("operation identity: declared defaults applied, undeclared variables dropped, explicit null kept")
    func identity() throws {
        let world = try OracleFixture.world()
        let search = OracleOperation(world.operation(named: "Search")!, schema: world.schema)
        #expect(search.identity(search.variables([:])) == #"Search{"order":"ASC"}"#)
        #expect(search.identity(search.variables(["order": .string("DESC"), "stray": .int(1)])) == #"Search{"order":"DESC"}"#)
        #expect(search.identity(search.variables(["filter": .null])) == #"Search{"filter":null,"order":"ASC"}"#)
    }

    @Test("a field's slot from syntax: variables resolved, absent variables dropped, nulls kept")
    func slotsFromSyntax() throws {
        let document = try Document.parse(#"query Q($n: String, $t: [String]) { search(filter: {name: $n, tags: $t, nested: {name: null, tags: ["a", $n]}}, order: DESC) { id } }"#)
        guard case .field(let node) = document.operations[0].selections[0] else { Issue.record("no field"); return }
        let arguments = OracleArguments.resolve(node.arguments, ["t": .array([.string("b")])])
        #expect(K.fieldSlot(name: node.name, arguments: arguments) == #"search(filter:{"nested":{"name":null,"tags":["a",null]},"tags":["b"]},order:"DESC")"#)
    }
}
