import Baton
import BatonSim
import Testing

/// GitHub names the object a mutation edits after its type (`closeIssue(input: {issueId:})`,
/// `deleteIssue(input: {issueId:})`): the server reads such an argument as the edited object's
/// id, not as a creation's input.
@Suite("Mutations whose id is named after the type it names")
struct TypedIDMutationTests {
    static let schema = """
        type Query { issue(id: ID!): Issue, repository(id: ID!): Repository }
        type Mutation {
          closeIssue(input: CloseIssueInput!): CloseIssuePayload
          lockIssue(issueId: ID!, reason: String): Issue
          deleteIssue(input: DeleteIssueInput!): DeleteIssuePayload
          createIssue(input: CreateIssueInput!): CreateIssuePayload
          addStar(input: AddStarInput!): AddStarPayload
          addComment(input: AddCommentInput!): AddCommentPayload
        }
        input AddCommentInput { subjectId: ID!, body: String }
        type AddCommentPayload { comment: Comment, subject: Starrable }
        type Comment { id: ID!, body: String }
        input AddStarInput { starrableId: ID!, clientMutationId: String }
        type AddStarPayload { clientMutationId: String, starrable: Starrable }
        interface Starrable { id: ID!, starred: Boolean }
        input CloseIssueInput { issueId: ID!, state: IssueState, clientMutationId: String }
        input DeleteIssueInput { issueId: ID!, clientMutationId: String }
        input CreateIssueInput { repositoryId: ID!, title: String!, clientMutationId: String }
        type CloseIssuePayload { clientMutationId: String, issue: Issue }
        type DeleteIssuePayload { clientMutationId: String }
        type CreateIssuePayload { issue: Issue }
        enum IssueState { OPEN, CLOSED }
        type Issue implements Starrable { id: ID!, title: String, state: IssueState, reason: String, starred: Boolean }
        type Repository implements Starrable { id: ID!, name: String, starred: Boolean }
        """
    static let operations: [(source: String, text: String)] = [
        ("Issue.graphql", "query Issue($id: ID!) { issue(id: $id) { id title state reason } }"),
        ("CloseIssue.graphql", "mutation CloseIssue($input: CloseIssueInput!) { closeIssue(input: $input) { clientMutationId issue { id state } } }"),
        ("LockIssue.graphql", "mutation LockIssue($id: ID!, $reason: String) { lockIssue(issueId: $id, reason: $reason) { id reason } }"),
        ("DeleteIssue.graphql", "mutation DeleteIssue($input: DeleteIssueInput!) { deleteIssue(input: $input) { clientMutationId } }"),
        ("CreateIssue.graphql", "mutation CreateIssue($input: CreateIssueInput!) { createIssue(input: $input) { issue { id title } } }"),
        ("AddStar.graphql", "mutation AddStar($input: AddStarInput!) { addStar(input: $input) { starrable { __typename id starred } } }"),
        ("AddComment.graphql", "mutation AddComment($input: AddCommentInput!) { addComment(input: $input) { comment { id body } subject { __typename id } } }"),
    ]

    static func world() throws -> World {
        try WorldFixtures.world("typed-ids", schema: schema, operations: operations, entities: ["Issue": 2...5, "Repository": 1...2], settings: WorldFixtures.quiet)
    }

    @Test("issueId in an input object or as an argument names the issue edited; repositoryId in a creation's input does not")
    func analysis() throws {
        let mutations = try Self.world().analysis.mutations
        let close = try #require(mutations["CloseIssue"]?["closeIssue"])
        #expect(!close.creates && close.idArgument == ["input", "issueId"] && close.targetType == "Issue")
        #expect(close.setters.map(\.argumentPath) == [["input", "state"]])
        let lock = try #require(mutations["LockIssue"]?["lockIssue"])
        #expect(lock.idArgument == ["issueId"] && lock.setters.map(\.field) == ["reason"])
        // Deleted by its name (`delete` and the type), the id named after the type.
        let delete = try #require(mutations["DeleteIssue"]?["deleteIssue"])
        #expect(delete.deletes && delete.idArgument == ["input", "issueId"] && delete.targetType == "Issue")
        let create = try #require(mutations["CreateIssue"]?["createIssue"])
        #expect(create.creates && create.targetType == "Issue")
        #expect(try Self.world().analysis.variables["CloseIssue"]?["input"]?.inputIDField == "issueId")
        // A payload that returns an interface (GitHub's `addStar { starrable }`) edits an object
        // of any of its types with ids, named by `starrableId`.
        let star = try #require(mutations["AddStar"]?["addStar"])
        #expect(!star.creates && star.targetType == "Starrable" && star.targetTypes == ["Issue", "Repository"])
        #expect(star.idArgument == ["input", "starrableId"] && star.renewedFields == ["starred"])
        #expect(try Self.world().analysis.variables["AddStar"]?["input"]?.inputIDTypes == ["Issue", "Repository"])
        // Ids must then be unique across the types (`Issue_1`, `Repository_1`), as GitHub's are.
        #expect(try Self.world().analysis.looksUpAcrossTypes)
        // One that would create an object of an interface cannot: which type?
        #expect {
            try World.make(name: "abstract", schema: Self.schema + "\nextend type Mutation { makeStarrable(name: String): AddStarPayload }", operations: [
                ("M.graphql", "mutation M { makeStarrable(name: \"x\") { starrable { __typename id } } }"),
            ])
        } throws: { error in
            (error as? WorldError)?.description.contains("an interface or union, so the server cannot tell which of its types to create") == true
        }
    }

    @Test("closing edits the issue the input names (drawn among the issues), and deleting deletes it")
    func executes() throws {
        let world = try Self.world()
        var server = WorldFixtures.server(world)
        let issues = server.entityIDs(of: ["Issue"]).living
        let target = try #require(issues.first)
        let closed = server.execute(try #require(world.operation(named: "CloseIssue")), variables: [
            "input": .object(["issueId": .string(target), "state": .string("CLOSED")]),
        ])
        let issue = try #require(closed.data?["closeIssue"]?.value.object?["issue"]?.value.object)
        #expect(issue["id"]?.value == .scalar(.string(target)))
        #expect(issue["state"]?.value == .scalar(.string("CLOSED")))
        #expect(server.entityIDs(of: ["Issue"]).living == issues)
        let read = server.execute(try #require(world.operation(named: "Issue")), variables: ["id": .string(target)])
        #expect(read.data?["issue"]?.value.object?["state"]?.value == .scalar(.string("CLOSED")))

        // A payload field named like an id argument (`subject`, `subjectId`) answers the object
        // it names, here the issue commented on; null when it names none.
        let commented = server.execute(try #require(world.operation(named: "AddComment")), variables: [
            "input": .object(["subjectId": .string(target), "body": .string("+1")]),
        ])
        let subject = try #require(commented.data?["addComment"]?.value.object?["subject"]?.value.object)
        #expect(subject["__typename"]?.value == .scalar(.string("Issue")) && subject["id"]?.value == .scalar(.string(target)))
        #expect(commented.data?["addComment"]?.value.object?["comment"]?.value.object?["body"]?.value == .scalar(.string("+1")))
        let nowhere = server.execute(try #require(world.operation(named: "AddComment")), variables: [
            "input": .object(["subjectId": .string("Nothing_9")]),
        ])
        #expect(nowhere.data?["addComment"]?.value.object?["subject"]?.value == .null)

        // Starring a repository through the interface answers the repository itself.
        let repository = try #require(server.entityIDs(of: ["Repository"]).living.first)
        let starred = server.execute(try #require(world.operation(named: "AddStar")), variables: ["input": .object(["starrableId": .string(repository)])])
        let starrable = try #require(starred.data?["addStar"]?.value.object?["starrable"]?.value.object)
        #expect(starrable["__typename"]?.value == .scalar(.string("Repository")) && starrable["id"]?.value == .scalar(.string(repository)))

        _ = server.execute(try #require(world.operation(named: "DeleteIssue")), variables: ["input": .object(["issueId": .string(target)])])
        #expect(server.entityIDs(of: ["Issue"]).living == Array(issues.dropFirst()))

        // The drawer puts an issue's id (or now and then an unknown one) in the input's issueId.
        var drawer = VariableDrawer(random: SimRandom(seed: 5))
        let operation = try #require(world.operation(named: "CloseIssue"))
        var named = 0
        for _ in 0..<40 {
            guard case .object(let input)? = drawer.variables(for: operation, server: server)["input"],
                case .string(let id)? = input["issueId"]
            else { continue }
            if server.entityIDs(of: ["Issue"]).living.contains(id) { named += 1 }
        }
        #expect(named >= 20)
    }

    @MainActor
    @Test("its seeds run clean")
    func seeds() throws {
        let world = try Self.world()
        for seed: UInt64 in 0..<8 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 150, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
        }
    }
}

/// Relay's TodoMVC removes a todo with `removeTodo(input: {id, userId}) { deletedTodoId @deleteRecord
/// user { id totalCount } }`: the deleted field's name says what is deleted, and the input's
/// `userId` names a user (found trying relay-examples' todo app, 2026-12-07: the server read the
/// payload's user as the object deleted, drew user ids for `id` and todo ids for `userId`, and so
/// never deleted anything).
@Suite("Deletions named by the deleted field")
struct DeletedFieldNameTests {
    static let schema = """
        type Query { user(id: ID!): User, todo(id: ID!): Todo }
        type Mutation { removeTodo(input: RemoveTodoInput!): RemoveTodoPayload }
        input RemoveTodoInput { id: ID!, userId: ID!, clientMutationId: String }
        type RemoveTodoPayload { deletedTodoId: ID!, user: User!, clientMutationId: String }
        type User { id: ID!, totalCount: Int }
        type Todo { id: ID!, text: String, complete: Boolean }
        """
    static let operations: [(source: String, text: String)] = [
        ("Todo.graphql", "query Todo($id: ID!) { todo(id: $id) { id text complete } }"),
        ("User.graphql", "query User($id: ID!) { user(id: $id) { id totalCount } }"),
        ("RemoveTodo.graphql", "mutation RemoveTodo($input: RemoveTodoInput!) { removeTodo(input: $input) { deletedTodoId @deleteRecord user { id totalCount } } }"),
    ]

    static func world() throws -> World {
        try WorldFixtures.world("todo", schema: schema, operations: operations, entities: ["User": 1...2, "Todo": 3...6], settings: WorldFixtures.quiet)
    }

    @Test("the todo is the deleted type, its id the input's id; the drawer puts a todo's id there and a user's in userId")
    func analysisAndDraws() throws {
        let world = try Self.world()
        let remove = try #require(world.analysis.mutations["RemoveTodo"]?["removeTodo"])
        #expect(remove.deletes && remove.targetType == "Todo" && remove.idArgument == ["input", "id"])
        let server = WorldFixtures.server(world)
        let todos = Set(server.entityIDs(of: ["Todo"]).living)
        let users = Set(server.entityIDs(of: ["User"]).living)
        var drawer = VariableDrawer(random: SimRandom(seed: 7))
        let operation = try #require(world.operation(named: "RemoveTodo"))
        var todoIDs = 0
        var userIDs = 0
        for _ in 0..<40 {
            guard case .object(let input)? = drawer.variables(for: operation, server: server)["input"] else { continue }
            if case .string(let id)? = input["id"], todos.contains(id) { todoIDs += 1 }
            if case .string(let id)? = input["userId"], users.contains(id) { userIDs += 1 }
            if case .string(let id)? = input["id"] { #expect(!users.contains(id) || todos.contains(id), "a user's id \(id) in the todo's place") }
        }
        #expect(todoIDs >= 20 && userIDs >= 20, "todo ids \(todoIDs), user ids \(userIDs) of 40")
    }

    @Test("the server deletes the todo and answers its record key")
    func serverDeletes() throws {
        let world = try Self.world()
        var server = WorldFixtures.server(world)
        let todo = try #require(server.entityIDs(of: ["Todo"]).living.first)
        let user = try #require(server.entityIDs(of: ["User"]).living.first)
        let removed = server.execute(
            try #require(world.operation(named: "RemoveTodo")), variables: ["input": .object(["id": .string(todo), "userId": .string(user)])])
        #expect(server.entityIDs(of: ["Todo"]).deleted == [todo])
        let payload = try #require(removed.data?["removeTodo"]?.value.object)
        #expect(payload["deletedTodoId"]?.value == .scalar(.string("Todo:\(todo)")))
    }

    @MainActor
    @Test("its seeds run clean and delete todos")
    func seeds() throws {
        let world = try Self.world()
        var deletions = 0
        for seed: UInt64 in 0..<6 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 150, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
            deletions += outcome.coverage.model.deletions
        }
        #expect(deletions > 0)
    }
}
