import Baton

// The contract between the server's executor (Truth) and the reference model (Oracle).
//
// The executor answers an operation with response bytes and, beside them, the provenance of
// every value: which server object each response object is, which field (with which resolved
// arguments) every value came from, and which field raised which error. The model keeps what the
// store has received from this, with its own record keys and storage keys; it never reads the
// store's change sets, plans or keys.
//
// Only the parser's syntax (`GraphQLDirective`) and `JSONValue` as a plain data type appear here.

/// One executed operation: the bytes the server sends and what they are made of.
package struct Execution: Sendable {
    /// The response exactly as sent (a JSON object with `data` and maybe `errors`).
    package var responseText: [UInt8]
    /// The provenance of `data`: `nil` when `data` is `null`.
    package var data: ProvenanceObject?
    /// Errors whose path names no field of the response (`data` null, or a path through a null
    /// parent after non-null propagation), in the order the response lists them.
    package var unplacedErrors: [ProvenanceError]
    /// Every error of the response's `errors`, placed or not, in the order written: when several
    /// name one field, the last written is the one a reader keeps.
    package var errors: [ProvenanceError]
    /// When `data` is null because a null reached it, and the server leaves nulls where they fall:
    /// the root object it wrote instead (see ``ProvenanceValue/nulled(written:)``).
    package var writtenData: ProvenanceValue?

    package init(
        responseText: [UInt8], data: ProvenanceObject?, unplacedErrors: [ProvenanceError] = [], errors: [ProvenanceError]? = nil,
        writtenData: ProvenanceValue? = nil
    ) {
        self.responseText = responseText
        self.data = data
        self.unplacedErrors = unplacedErrors
        self.errors = errors ?? unplacedErrors
        self.writtenData = writtenData
    }
}

/// One object of a response: the server object it is, and every field executed on it.
package struct ProvenanceObject: Hashable, Sendable {
    /// The object's concrete type (never an interface or union).
    package var typename: String
    /// The server's id of this object when its type has an `id` field and the object has one
    /// (`nil` otherwise). Whether the store can key the object by it is the model's business: the
    /// store keys an object `Type:id` only when the response carries a non-null `id` field.
    package var id: String?
    /// The fields executed on this object, in response order, one per response key (fields that
    /// share a response key are merged, as GraphQL's field collection does). `__typename` is
    /// included when selected.
    package var fields: [ProvenanceField]

    package init(typename: String, id: String?, fields: [ProvenanceField]) {
        self.typename = typename
        self.id = id
        self.fields = fields
    }
}

/// One executed field: what the schema calls it, the arguments it ran with, and its value.
package struct ProvenanceField: Hashable, Sendable {
    /// The alias, or the name.
    package var responseKey: String
    /// The schema field's name.
    package var name: String
    /// The arguments after variables were substituted and defaults applied: an argument the
    /// document does not give (or gives as an absent variable) is absent; an explicit `null` is
    /// `.null`. Enum values are strings. Input objects are `.object`, lists `.array`.
    package var arguments: [String: JSONValue]
    /// The directives written on the field in the document (`@connection`, `@deleteRecord`, …),
    /// as the parser gives them; the model interprets the client directives itself.
    package var directives: [GraphQLDirective]
    package var value: ProvenanceValue
    /// The errors whose paths name this field, in the response's order: the one it raised (its
    /// value is then `.null`), or those its list's items raised (each `null` at its place, its
    /// path ending in the item's index).
    package var errors: [ProvenanceError]

    package init(
        responseKey: String, name: String, arguments: [String: JSONValue], directives: [GraphQLDirective] = [],
        value: ProvenanceValue, errors: [ProvenanceError] = []
    ) {
        self.responseKey = responseKey
        self.name = name
        self.arguments = arguments
        self.directives = directives
        self.value = value
        self.errors = errors
    }
}

/// A field's value as the server produced it.
package indirect enum ProvenanceValue: Hashable, Sendable {
    case null
    /// A leaf: `.bool`, `.int`, `.double` or `.string` (IDs, enums and custom scalars are strings).
    case scalar(JSONValue)
    case list([ProvenanceValue])
    case object(ProvenanceObject)
    /// `null` in the data: a null from below propagated here, as the specification says. A server
    /// that leaves nulls where they fall wrote `written` instead: the object or list around a
    /// null that stands in a non-null place, which a client must null here itself (see
    /// ``ServerConfiguration/leavesNullsInPlace``).
    case nulled(written: ProvenanceValue)

    /// True for `null` in the data, whatever the server wrote.
    package var isNull: Bool {
        switch self {
        case .null, .nulled: true
        default: false
        }
    }
}

/// An error of the response's `errors`, with the path it names.
package struct ProvenanceError: Hashable, Sendable {
    package enum PathComponent: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    package var message: String
    /// The response path (response keys and list indices) the error names.
    package var path: [PathComponent]
    /// For an error a field holds (``ProvenanceField/errors``, and the same error in
    /// ``Execution/errors``): where, among the elements of the field's list value, the element it
    /// is about stands; empty when it is about the field's own value or a field holds it not. The
    /// executor knows it: it is where the null that swallowed the error stands.
    package var elementIndices: [Int]
    /// The members of the error's `extensions` object, in the order drawn, when the server sent
    /// one. A list, not a dictionary: two names equal to Swift's `==` and different in bytes
    /// (`é` precomposed and decomposed) are two members, as JSON makes them.
    package var extensions: [ProvenanceMember]?
    /// The error's members besides message, path and extensions, in the order drawn, when it has
    /// any: `locations` when the seed's style writes them, and what a server adds of its own at
    /// the error's top level (GitHub's `type`).
    package var otherMembers: [ProvenanceMember]?

    package init(
        message: String, path: [PathComponent], elementIndices: [Int] = [], extensions: [ProvenanceMember]? = nil,
        otherMembers: [ProvenanceMember]? = nil
    ) {
        self.message = message
        self.path = path
        self.elementIndices = elementIndices
        self.extensions = extensions
        self.otherMembers = otherMembers
    }
}

/// One `"name": value` member of an object the server wrote member by member.
package struct ProvenanceMember: Hashable, Sendable {
    package var name: String
    package var value: JSONValue

    package init(_ name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }
}
