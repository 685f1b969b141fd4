@testable import Baton
import Testing

/// A small introspection result, as a server answers the introspection query: every kind of type,
/// arguments with defaults, an interface, a union, an input object, a directive, renamed roots.
private let introspection = #"""
{"data":{"__schema":{
  "queryType":{"name":"Root"},"mutationType":{"name":"Change"},"subscriptionType":null,
  "types":[
    {"kind":"OBJECT","name":"Root","fields":[
      {"name":"node","args":[{"name":"id","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"ID","ofType":null}},"defaultValue":null}],
       "type":{"kind":"INTERFACE","name":"Node","ofType":null}},
      {"name":"search","args":[{"name":"first","type":{"kind":"SCALAR","name":"Int","ofType":null},"defaultValue":"10"},
                               {"name":"filter","type":{"kind":"INPUT_OBJECT","name":"Filter","ofType":null},"defaultValue":"{kind: NOTE}"}],
       "type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"LIST","name":null,"ofType":{"kind":"UNION","name":"Result","ofType":null}}}}],
     "interfaces":[]},
    {"kind":"OBJECT","name":"Change","fields":[{"name":"touch","args":[],"type":{"kind":"SCALAR","name":"Boolean","ofType":null}}],"interfaces":[]},
    {"kind":"INTERFACE","name":"Node","fields":[{"name":"id","args":[],"type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"ID","ofType":null}}}],
     "interfaces":[],"possibleTypes":[{"kind":"OBJECT","name":"Note"}]},
    {"kind":"OBJECT","name":"Note","fields":[
      {"name":"id","args":[],"type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"ID","ofType":null}}},
      {"name":"meta","args":[],"type":{"kind":"SCALAR","name":"JSON","ofType":null}},
      {"name":"kind","args":[],"type":{"kind":"ENUM","name":"Kind","ofType":null}}],
     "interfaces":[{"kind":"INTERFACE","name":"Node","ofType":null}]},
    {"kind":"OBJECT","name":"Tag","fields":[{"name":"label","args":[],"type":{"kind":"SCALAR","name":"String","ofType":null}}],"interfaces":[]},
    {"kind":"UNION","name":"Result","possibleTypes":[{"kind":"OBJECT","name":"Note"},{"kind":"OBJECT","name":"Tag"}]},
    {"kind":"ENUM","name":"Kind","enumValues":[{"name":"NOTE","isDeprecated":false},{"name":"TAG","isDeprecated":true}]},
    {"kind":"INPUT_OBJECT","name":"Filter","inputFields":[{"name":"kind","type":{"kind":"ENUM","name":"Kind","ofType":null},"defaultValue":null}]},
    {"kind":"SCALAR","name":"JSON"},
    {"kind":"SCALAR","name":"String"},
    {"kind":"OBJECT","name":"__Type","fields":[{"name":"name","args":[],"type":{"kind":"SCALAR","name":"String","ofType":null}}],"interfaces":[]}
  ],
  "directives":[
    {"name":"include","locations":["FIELD","FRAGMENT_SPREAD","INLINE_FRAGMENT"],"args":[{"name":"if","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"Boolean","ofType":null}},"defaultValue":null}]},
    {"name":"cacheControl","locations":["FIELD_DEFINITION","OBJECT"],"args":[{"name":"maxAge","type":{"kind":"SCALAR","name":"Int","ofType":null},"defaultValue":null}]}
  ]}}}
"""#

@Suite("A schema given as an introspection result (schema.json)")
struct IntrospectionSchemaTests {
    @Test("every kind of type, arguments with defaults, interfaces, unions, inputs and directives read as their SDL")
    func readsEveryKind() throws {
        let schema = try Schema.parse(introspection)
        #expect(schema.queryTypeName == "Root" && schema.mutationTypeName == "Change" && schema.subscriptionTypeName == nil)
        #expect(schema.type(named: "Node")?.kind == .interface)
        #expect(schema.possibleTypes(of: "Node") == ["Note"])
        #expect(Set(schema.possibleTypes(of: "Result")) == ["Note", "Tag"])
        #expect(schema.type(named: "Kind")?.enumValues.map(\.name) == ["NOTE", "TAG"])
        #expect(schema.type(named: "Filter")?.inputFields.map(\.name) == ["kind"])
        #expect(schema.type(named: "JSON")?.kind == .scalar)
        #expect(schema.type(named: "__Type") == nil)
        let search = try #require(schema.field("search", on: "Root"))
        #expect(search.type == .nonNull(.list(.named("Result"))))
        #expect(search.arguments.map(\.name) == ["first", "filter"])
        #expect(search.arguments.first?.defaultValue == .int(10))
        #expect(schema.field("id", on: "Note")?.type == .nonNull(.named("ID")))
        // The same SDL written by hand reads the same.
        #expect(try IntrospectionSDL.sdl(from: introspection).contains("type Note implements Node {"))
        // Without the `data` wrapper too.
        let bare = introspection.replacingOccurrences(of: #"{"data":{"__schema""#, with: #"{"__schema""#).dropLast(2) + "}"
        #expect(try Schema.parse(String(bare)).queryTypeName == "Root")
    }

    @Test("a result that is no introspection, or says something no schema can, is one clear error")
    func refusals() {
        let cases: [(text: String, says: String)] = [
            ("{\"data\":{}}", "expected __schema"),
            ("{\"data\":", "is no JSON"),
            (#"{"__schema":{"types":[{"kind":"OBJECT","name":"Bad Name","fields":[]}]}}"#, "a type's name is no GraphQL name"),
            (#"{"__schema":{"types":[{"kind":"WIDGET","name":"W"}]}}"#, "unknown kind WIDGET"),
            (#"{"__schema":{"types":[{"kind":"UNION","name":"U","possibleTypes":[]}]}}"#, "union U has no possible types"),
            (#"{"__schema":{"queryType":{"name":"Q"},"types":[{"kind":"OBJECT","name":"Q","fields":[{"name":"a","args":[],"type":{"kind":"OBJECT","name":"Missing"}}]}]}}"#,
             "the schema it describes does not hold together"),
            (#"{"__schema":{"types":[{"kind":"OBJECT","name":"Q","fields":[{"name":"a","args":[],"type":{"kind":"LIST"}}]}]}}"#, "Q.a has no type"),
        ]
        for (text, says) in cases {
            do {
                _ = try Schema.parse(text)
                Issue.record("\(text): read")
            } catch let error as GraphQLError {
                #expect(error.message.hasPrefix("introspection result: ") && error.message.contains(says), "\(text): \(error.message)")
            } catch {
                Issue.record("\(text): \(error)")
            }
        }
    }
}
