import Baton

/// An object the executor completes: its concrete type, the identity its values hash from, and
/// what it is to the server.
struct ServerObject {
    enum Role {
        /// An entity, a path object or the query root: fields are generated.
        case plain
        /// A page of a connection, one of its edges, or its page info.
        case connection(AnsweredPage)
        case edge(AnsweredPage, Int)
        case pageInfo(AnsweredPage)
        /// The mutation root: each field edits, then answers its payload.
        case mutationRoot
        /// A mutation's payload object: fields of the edited type answer the edited entity.
        case payload(MutationTarget)
    }

    /// The concrete object type (never an interface or union).
    let type: String
    let identity: UInt64
    var entity: EntityRef?
    /// The server's id, for an entity that has one.
    var id: String?
    var role: Role = .plain
}

/// One page of a connection as answered: the nodes between the paging arguments and their cursors.
struct AnsweredPage {
    let shape: ConnectionShape
    /// The key of the server list the page comes from.
    let listKey: UInt64
    /// The identity of the connection object (the field with all its arguments).
    let identity: UInt64
    let nodes: [NodeRef]
    let cursors: [String]
    /// Living nodes in the whole list.
    let total: Int
    let hasNextPage: Bool
    let hasPreviousPage: Bool
}

/// The entity a mutation field edited, for its payload.
struct MutationTarget {
    /// The entities the edit applied to, each with the id that named it: one, or for a bulk edit
    /// (``MutationEdit/many``) any number.
    let edited: [(entity: EntityRef, id: String)]
    let edit: MutationEdit
    /// The ids the field's arguments (and their input objects' fields) give under names ending
    /// in `Id` (`subjectId`), by name: a payload field named like one (`subject`) answers the
    /// object it names.
    var namedIDs: [String: String] = [:]
}

/// A field's value before completion: leaves are final, objects still have their selections to run.
indirect enum Resolved {
    case null
    case scalar(JSONValue)
    case object(ServerObject)
    case list([Resolved])
}

/// A null in a non-null place, travelling to the nearest nullable field or list item, with the
/// error that caused it.
struct NullPropagation: Error {
    let error: ProvenanceError
    let location: GraphQLLocation?
    /// What a server that leaves nulls where they fall (``ServerConfiguration/leavesNullsInPlace``)
    /// writes at the place the null has travelled to so far: `null` where it arose, then the
    /// object or list around it, as far as it was completed.
    var written: ProvenanceValue = .null
}

/// An error of the response, with where the document asked for the field and the field it
/// belongs to in the response.
struct RaisedError {
    /// The error, with the element of its field it is about (``ProvenanceError/elementIndices``).
    var error: ProvenanceError
    let location: GraphQLLocation?
    /// The response path (no trailing list indices) of the field the error belongs to: the field
    /// its path names, or the field holding a null its path steps through (the null it caused,
    /// or one that swallowed it); `nil` when it belongs to none (`data` itself became null).
    var field: [ProvenanceError.PathComponent]?

    /// True when the error belongs to a field of the response.
    var placed: Bool { field != nil }
}

/// What one execution produced, before it is spelled as JSON.
struct ExecutionResult {
    var data: ProvenanceObject?
    var errors: [RaisedError]
    /// When a null reached `data` and the server leaves nulls where they fall: the root object it
    /// writes instead of `null`.
    var writtenData: ProvenanceValue?
    /// A request error: the server refused the request before executing it, so the response has
    /// no `data` member and its errors no `path` (the specification's "request error").
    var refused = false
}

/// A connection a probe execution passed through, for the variable drawer: which variables page it,
/// and the cursors a client could hold for it.
package struct ReachedConnection: Sendable {
    /// The server's list behind the connection (what ``Server/growFront(of:)`` grows).
    package let listKey: UInt64
    /// The variables given as `after` and `before` there, if any.
    package let afterVariable: String?
    package let beforeVariable: String?
    /// Every cursor of the list as it is now, in order.
    package let cursors: [String]
    /// The cursors of the last page the server answered for this list.
    package let lastPage: PageCursorsValue?
    /// Cursors that no longer name a node of the list (deleted nodes, positions past the end).
    package let staleCursors: [String]
}

/// The start and end cursors of a page, as the drawer sees them.
package struct PageCursorsValue: Sendable, Hashable {
    package let start: String?
    package let end: String?
}
