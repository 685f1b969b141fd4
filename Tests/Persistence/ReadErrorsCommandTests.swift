import Baton
import Foundation
import Testing

/// `baton read` and `baton image read` print a response's field errors beside its data, and the
/// image keeps them across a launch.
@Suite("Command line: field errors read back")
struct ReadErrorsCommandTests {
    @Test("read and image read print the stored errors at the read's paths, the same before and after the image")
    func errorsPrinted() throws {
        let directory = try ImageTestDirectory()
        let (schema, document, response) = try Self.operationFiles(
            directory, schema: "type Query { search(q: String): [Item] }\ntype Item { id: ID!, title: String }\n",
            document: "query S { found: search(q: \"x\") { id title } }\n")
        let image = directory.path("app.image")
        try #"""
        {"data":{"found":[{"id":"1","title":null},null,{"id":"3","title":"c"},null]},
         "errors":[{"message":"title hidden","path":["found",0,"title"],"extensions":{"code":"FORBIDDEN"}},
                   {"message":"item hidden","path":["found",1]},
                   {"message":"item gone","path":["found",3]}]}
        """#.write(toFile: response, atomically: true, encoding: .utf8)
        let operation = ["--schema", schema, "--document", document]

        let read = try BatonProcess.run(["read"] + operation + ["--response", response])
        #expect(read.status == 0, "\(read)")
        let fromResponse = try Self.errors(read.output)
        #expect(fromResponse == [
            // Both items' errors sit on the list's field, each read back at its element.
            .object(["message": .string("item hidden"), "path": .array([.string("found"), .int(1)])]),
            .object(["message": .string("item gone"), "path": .array([.string("found"), .int(3)])]),
            .object([
                "message": .string("title hidden"), "path": .array([.string("found"), .int(0), .string("title")]),
                "extensions": .object(["code": .string("FORBIDDEN")]),
            ]),
        ])

        let write = try BatonProcess.run(["image", "write", "--image", image] + operation + ["--response", response])
        #expect(write.status == 0, "\(write)")
        let fromImage = try BatonProcess.run(["image", "read", "--image", image] + operation)
        #expect(fromImage.status == 0, "\(fromImage)")
        #expect(try Self.errors(fromImage.output) == fromResponse)
    }

    @Test("errors that name no field of the data are said on stderr, by read, normalize and image write")
    func unplacedErrorsSaid() throws {
        let directory = try ImageTestDirectory()
        let (schema, document, response) = try Self.operationFiles(
            directory, schema: "type Query { item(id: ID!): Item }\ntype Item { id: ID!, title: String }\n",
            document: "query I { item(id: \"1\") { id title } }\n")
        let operation = ["--schema", schema, "--document", document, "--response", response]

        // A response without data: the request failed as a whole.
        try #"{"errors":[{"message":"rate limited"}]}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let read = try BatonProcess.run(["read"] + operation)
        #expect(read.status == 2, "\(read)")
        #expect(read.errors.contains(#"baton: note: the response's error "rate limited" names no field of the data, so no cell keeps it"#), "\(read)")

        // An error naming a field the document does not select, beside two the data keeps: the
        // null's own, and one whose path steps through that null (a non-null field's, propagated).
        try #"""
        {"data":{"item":null},"errors":[{"message":"item gone","path":["item"]},{"message":"title hidden","path":["item","title"]},
                                        {"message":"elsewhere","path":["other"]}]}
        """#.write(toFile: response, atomically: true, encoding: .utf8)
        for command in [["read"], ["normalize"], ["image", "write", "--image", directory.path("app.image")]] {
            let run = try BatonProcess.run(command + operation)
            #expect(run.status == 0, "\(command): \(run)")
            #expect(run.errors.contains(#"baton: note: the response's error "elsewhere" (at other) names no field of the data"#), "\(command): \(run)")
            #expect(!run.errors.contains("item gone"), "\(command): \(run)")
            #expect(!run.errors.contains("title hidden"), "\(command): \(run)")
        }
        // Both stay beside the null: a read of the image gives both back at the field that is null.
        let fromImage = try BatonProcess.run(["image", "read", "--image", directory.path("app.image"), "--schema", schema, "--document", document])
        #expect(fromImage.status == 0, "\(fromImage)")
        #expect(try Self.errors(fromImage.output) == [
            .object(["message": .string("item gone"), "path": .array([.string("item")])]),
            .object(["message": .string("title hidden"), "path": .array([.string("item")])]),
        ])
    }

    @Test("a read that misses says where: every field the response left out, in the order read")
    func missingPlacesSaid() throws {
        let directory = try ImageTestDirectory()
        let (schema, document, response) = try Self.operationFiles(
            directory, schema: "type Query { item(id: ID!): Item }\ntype Item { id: ID!, title: String, tags: [Tag] }\ntype Tag { name: String }\n",
            document: "query I { item(id: \"1\") { id title tags { name } } }\n")
        try #"{"data":{"item":{"id":"1","tags":[{"name":"a"},{}]}}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let read = try BatonProcess.run(["read", "--schema", schema, "--document", document, "--response", response])
        #expect(read.status == 2, "\(read)")
        #expect(read.errors.contains("baton: note: the store holds nothing at item.title, item.tags.1.name"), "\(read)")

        try #"{"data":{"item":{"id":"1","title":"t","tags":[]}}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let complete = try BatonProcess.run(["read", "--schema", schema, "--document", document, "--response", response])
        #expect(complete.status == 0, "\(complete)")
        #expect(!complete.errors.contains("holds nothing"), "\(complete)")
    }

    /// An operation's files in `directory`: the schema and the document written, the response's
    /// path named (each test writes its responses).
    private static func operationFiles(
        _ directory: ImageTestDirectory, schema: String, document: String
    ) throws -> (schema: String, document: String, response: String) {
        let files = (schema: directory.path("schema.graphql"), document: directory.path("query.graphql"),
                     response: directory.path("response.json"))
        try schema.write(toFile: files.schema, atomically: true, encoding: .utf8)
        try document.write(toFile: files.document, atomically: true, encoding: .utf8)
        return files
    }

    /// The `errors` member of printed JSON.
    private static func errors(_ output: String) throws -> [JSONValue] {
        guard case .object(let members) = try JSONValue.parse(output), case .array(let errors)? = members["errors"] else {
            Issue.record("no errors printed: \(output)")
            return []
        }
        return errors
    }
}
