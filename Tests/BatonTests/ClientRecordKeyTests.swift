import Baton
import Testing

/// Which keys name a connection's client record, told by their bytes.
@Suite("Connections: client record keys")
struct ClientRecordKeyTests {
    @Test("a connection's client record is one; its edge copies, its page info, paths and entities are not", arguments: [
        ("client:Character:1:__N_notes_connection", true),
        ("client:root:__Feed_connection(kind:\"x\",other:null)", true),
        (ConnectionPage.clientRecordKey(parent: RecordKey("client:root"), connectionStorageKey: "__F_connection").rawValue, true),
        (ConnectionPage.clientRecordKey(parent: RecordKey("Repo:é"), connectionStorageKey: "__é_connection(q:\"ü\")").rawValue, true),
        ("client:Character:1:__N_notes_connection:edges:0", false),
        ("client:Character:1:__N_notes_connection:pageInfo", false),
        ("client:root:repository(name:\"apollo-ios\"):issues:0", false),
        ("client:root", false),
        ("client:", false),
        ("client", false),
        ("", false),
        ("Character:1:__N_notes_connection", false),
        ("clients:root:__N_connection", false),
        ("client:root:__N_connectio", false),
        ("client:root:_N_connection", false),
        // Filter values hold any text: the slot is told from the end of the key (until
        // 2026-12-06 a value with `_connection:` hid its connection from collection).
        ("client:root:__Search_connection(query:\"is_connection:true\")", true),
        ("client:root:__Search_connection(query:\"a)b\\\"_connection(\")", true),
        ("client:Repo:1:__Issues_connection(labels:[\"x_connection:y\"],states:[\"OPEN\"])", true),
        ("client:root:__my_connection_list_connection", true),
        // A label the simulator's drawer sends, spelling a whole connection slot of its own.
        ("client:Repo:1:__IssueList_issues_connection(labels:[\"x:__a_connection({\\\"b\\\":1})\"])", true),
        ("client:Repo:1:__IssueList_issues_connection(labels:[\"x:__a_connection({\\\"b\\\":1})\"]):edges:1", false),
        ("client:root:__Search_connection(query:\"is_connection:true\"):edges:0", false),
        ("client:root:__Search_connection(query:\"a\"):edges:0", false),
        ("client:root:__Search_connection(query:\"a\"):pageInfo", false),
        ("client:root:__Search_connection:meta_connection", false),
        ("client:root:__Search_connection(q:1):child_connection(a:1)", false),
        ("client:root:search(query:\"__x_connection\")", false),
        ("client:root:__Search_connection(query:\"open\"", false),
        // A plain field whose argument's string holds `_connection(` and an escaped quote: read
        // forward from there, the string's brackets paired with the key's own, and until
        // 2026-12-06 the field's record passed for a connection, whose edges collection kept
        // (apollo-kotlin's calendar `items(args:)`, seed 212524337; GitHub's search box).
        ("client:root:items(args:{\"after\":\"x:__a_connection({\\\"b\\\":1})\",\"filterBy\":{\"deleted\":false}})", false),
        ("client:root:search(first:3,query:\"std::__pool_connection(\\\"size\\\")\",type:ISSUE)", false),
        ("client:root:__S_connection(query:\"std::__pool_connection(\\\"size\\\")\",type:ISSUE)", true),
        ("client:root:__S_connection(query:\"ends with a backslash \\\\\")", true),
        ("client:root:items(args:{\"q\":\"\\\\\"})", false),
    ])
    func recognised(key: String, expected: Bool) {
        #expect(ConnectionPage.isClientRecordKey(RecordKey(key)) == expected, "\(key)")
    }
}
