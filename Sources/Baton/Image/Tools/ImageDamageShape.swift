/// What the damage sweep writes into an image before it damages it: a schema, the operations
/// the check asks for, the responses each launch writes, and the response written after the
/// damage.
package struct ImageDamageShape: Sendable {
    /// An operation the check asks for: a document with one operation, and its variables.
    package struct Operation: Sendable {
        package var document: String
        package var variables: [String: JSONValue]

        package init(document: String, variables: [String: JSONValue] = [:]) {
            self.document = document
            self.variables = variables
        }
    }

    /// A response to an operation (by its index in ``operations``).
    package struct Write: Sendable {
        package var operation: Int
        package var response: String

        package init(operation: Int, response: String) {
            self.operation = operation
            self.response = response
        }
    }

    package var name: String
    package var schema: String
    package var operations: [Operation]
    /// The launches that make the image: each checks every operation, then commits its writes.
    package var launches: [[Write]]
    /// The response written by the relaunch after the damage.
    package var rewrite: Write

    package init(name: String, schema: String, operations: [Operation], launches: [[Write]], rewrite: Write) {
        self.name = name
        self.schema = schema
        self.operations = operations
        self.launches = launches
        self.rewrite = rewrite
    }
}

extension ImageDamageShape {
    /// A shelf of books and their authors, with what the other fixtures lack: a union, a scalar
    /// list, a float, a boolean, an object without an id (a path key), lists of links with
    /// nulls, a field error, and text beyond ASCII. `size` scales the number of records.
    package static func shelf(size: Int, seed: UInt64) -> ImageDamageShape {
        let schema = """
            type Query { shelf(id: ID!): Shelf, search(term: String!, first: Int): [Result] }
            union Result = Book | Author
            type Shelf { id: ID!, title: String, tags: [String], rating: Float, open: Boolean, stats: Stats, books: [Book] }
            type Stats { count: Int, average: Float }
            type Book { id: ID!, title: String, subtitle: String, year: Int, price: Float, isbn: String, authors: [Author] }
            type Author { id: ID!, name: String, born: Int, books: [Book] }
            """
        let shelfScreen = Operation(document: """
            query ShelfScreen($id: ID!) {
              shelf(id: $id) {
                id title tags rating open
                stats { count average }
                books { id title year price isbn authors { id name born } }
              }
            }
            """, variables: ["id": .string("s1")])
        let search = Operation(document: """
            query Search($term: String!, $first: Int) {
              search(term: $term, first: $first) {
                __typename
                ... on Book { id title subtitle }
                ... on Author { id name books { id title } }
              }
            }
            """, variables: ["term": .string("ü"), "first": .int(8)])
        let titles = ["Dune", "Die Blechtrommel", "百年の孤独", "Ça 🌍", "Solaris", "Kindred", "Ficciones", "Беги"]
        let books = max(2, size)
        let authors = max(2, size / 2)

        func author(_ index: Int, version: Int) -> JSONValue {
            .object(["id": .string("a\(index)"), "name": .string("Author \(index)·v\(version)"), "born": .int(1900 + index * 7)])
        }
        func book(_ index: Int, version: Int, random: inout SweepRandom) -> [String: JSONValue] {
            var authorList: [JSONValue] = (0..<random.within(1...3)).map { _ in author(random.below(authors), version: version) }
            if random.below(5) == 0 { authorList.append(.null) }
            return [
                "id": .string("b\(index)"), "title": .string(titles[index % titles.count] + " \(index)"),
                "year": random.below(6) == 0 ? .null : .int(1950 + random.below(70)),
                "price": .double(Double(random.within(100...9999)) / 100 + Double(version)),
                "isbn": .string("978-\(random.within(1_000_000...9_999_999))"), "authors": .array(authorList),
            ]
        }
        func shelfResponse(version: Int) -> String {
            var random = SweepRandom(seed: seed, stream: 1_000 + version)
            let list = (0..<books).map { JSONValue.object(book($0, version: version, random: &random)) }
            let shelf: JSONValue = .object([
                "id": .string("s1"), "title": .string("Shelf v\(version)"),
                "tags": .array(["sci-fi", "classic", "über"].prefix(random.within(0...3)).map { .string($0) }),
                "rating": .double(Double(random.within(0...50)) / 10), "open": .bool(random.below(2) == 0),
                "stats": .object(["count": .int(books), "average": .double(Double(random.within(0...999)) / 7)]),
                "books": .array(list),
            ])
            var response: [String: JSONValue] = ["data": .object(["shelf": shelf])]
            if version % 2 == 1 {
                response["errors"] = .array([.object([
                    "message": .string("price unavailable"),
                    "path": .array([.string("shelf"), .string("books"), .int(books / 2), .string("price")]),
                ])])
            }
            return CanonicalJSON.render(.object(response))
        }
        func searchResponse(version: Int) -> String {
            var random = SweepRandom(seed: seed, stream: 2_000 + version)
            let results: [JSONValue] = (0..<min(8, books + authors)).map { index in
                if index % 3 == 2 {
                    let id = random.below(authors)
                    return .object([
                        "__typename": .string("Author"), "id": .string("a\(id)"), "name": .string("Author \(id)·v\(version)"),
                        "books": .array([.object(["id": .string("b\(id % books)"), "title": .string(titles[id % books % titles.count] + " \(id % books)")])]),
                    ])
                }
                let id = random.below(books)
                return .object([
                    "__typename": .string("Book"), "id": .string("b\(id)"),
                    "title": .string(titles[id % titles.count] + " \(id)"), "subtitle": .string("Édition \(version)"),
                ])
            }
            return CanonicalJSON.render(.object(["data": .object(["search": .array(results)])]))
        }
        return ImageDamageShape(
            name: "shelf(\(size))", schema: schema, operations: [shelfScreen, search],
            launches: [
                [Write(operation: 0, response: shelfResponse(version: 1)), Write(operation: 1, response: searchResponse(version: 1))],
                [Write(operation: 1, response: searchResponse(version: 2))],
            ],
            rewrite: Write(operation: 0, response: shelfResponse(version: 3)))
    }

    /// Pages of a paginated operation (`$page: Int`): launch 1 writes page 1, launch 2 page 2,
    /// and the write after the damage page 3; the check asks for all three.
    package static func pages(name: String, schema: String, document: String, response: (Int) -> String) -> ImageDamageShape {
        let operations = (1...3).map { Operation(document: document, variables: ["page": .int($0)]) }
        return ImageDamageShape(
            name: name, schema: schema, operations: operations,
            launches: [[Write(operation: 0, response: response(1))], [Write(operation: 1, response: response(2))]],
            rewrite: Write(operation: 2, response: response(3)))
    }
}
