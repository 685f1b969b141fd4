import Baton

/// One operation of the world as the oracle walks it: its syntax, with each selection set made an
/// object of its own (so walks can remember "this record under this set") and fragment spreads
/// pointing at one shared set per fragment.
package final class OracleOperation: Sendable {
    package let name: String
    package let kind: OperationKind
    /// The schema's root type for `kind`.
    package let rootTypename: String
    /// The record the operation starts from.
    package let rootKey: OracleText
    package let declarations: [Document.VariableDeclaration]
    package let selections: OracleSelectionSet
    /// What response walks of this operation worked out, per variables (see ``TextWalkMemos``).
    let walkMemos = TextWalkMemos<TextWalk.Memo>()
    /// What response walks worked out that depends on the `@include`/`@skip` variables alone,
    /// per their values (``conditionIdentity(_:)``).
    let shapeMemos = TextWalkMemos<TextWalk.Shapes>()
    /// The variables some `@include(if:)` or `@skip(if:)` of the operation names, sorted.
    let conditionVariables: [String]
    /// The last variables resolved, and the identity under them.
    private let identityMemo = OracleIdentityMemo()
    /// The schema's fields as the walks read them (shared by the operations of one oracle).
    let catalog: OracleFieldCatalog
    /// Coerces the variables to their declared types.
    let coercion: OracleCoercion

    package init(_ operation: WorldOperation, schema: Schema, catalog: OracleFieldCatalog? = nil) {
        self.catalog = catalog ?? OracleFieldCatalog(schema: schema)
        name = operation.name
        kind = operation.kind
        rootTypename = schema.rootTypeName(for: operation.kind) ?? "Query"
        rootKey = OracleKeys.root(of: operation.kind)
        declarations = operation.syntax.variables
        coercion = OracleCoercion(schema: schema)
        var builder = OracleSelectionBuilder(fragments: operation.fragments, schema: schema)
        selections = builder.set(operation.syntax.selections, on: rootTypename)
        conditionVariables = selections.conditionVariables().sorted()
    }

    /// What decides which fields apply under `variables` (already resolved): per condition
    /// variable, `1` for true, `0` for anything else (``OracleSelectionSet/included(_:_:)``
    /// reads anything but a Boolean as false).
    func conditionIdentity(_ variables: [String: JSONValue]) -> OracleText {
        OracleText(String(conditionVariables.map { name -> Character in
            if case .bool(true)? = variables[name] { "1" } else { "0" }
        }))
    }

    /// The variables this operation runs with (declared defaults applied, undeclared dropped,
    /// each coerced to its declared type).
    package func variables(_ provided: [String: JSONValue]) -> [String: JSONValue] {
        coercion.coerce(variables: OracleArguments.variables(declared: declarations, provided: provided), declared: declarations)
    }

    /// ``variables(_:)`` and ``identity(_:)`` for `provided`, remembered for the next call with
    /// the same variables.
    func resolved(_ provided: [String: JSONValue]) -> (variables: [String: JSONValue], identity: OracleText) {
        let result = identityMemo.resolve(provided) {
            let variables = self.variables(provided)
            return (variables, self.identity(variables))
        }
        return (result.resolved, result.identity)
    }

    /// `Name{"canonical":"variables"}` under `variables` (already resolved).
    package func identity(_ variables: [String: JSONValue]) -> OracleText {
        OracleKeys.operationIdentity(name: name, variables: variables)
    }
}

/// A selection set as written: fields and fragments, in document order.
package final class OracleSelectionSet: Sendable {
    package enum Item: Sendable {
        case field(OracleField)
        /// An inline fragment or a spread: applies when the record's type meets the condition.
        case fragment(typeCondition: String?, directives: [GraphQLDirective], OracleSelectionSet)
    }

    package let items: [Item]
    /// The type the set is written on: a field's type, or a fragment's condition.
    package let writtenOn: String

    init(items: [Item], writtenOn: String) {
        self.items = items
        self.writtenOn = writtenOn
    }

    /// The variables the `@include(if:)` and `@skip(if:)` of this set and the sets below it name.
    func conditionVariables() -> Set<String> {
        var names = Set<String>()
        var visited = Set<ObjectIdentifier>()
        collectConditionVariables(into: &names, visited: &visited)
        return names
    }

    private func collectConditionVariables(into names: inout Set<String>, visited: inout Set<ObjectIdentifier>) {
        guard visited.insert(ObjectIdentifier(self)).inserted else { return }
        func add(_ directives: [GraphQLDirective]) {
            for directive in directives where directive.name == "include" || directive.name == "skip" {
                if case .variable(let name, _)? = directive.argument("if")?.value { names.insert(name) }
            }
        }
        for item in items {
            switch item {
            case .field(let field):
                add(field.node.directives)
                field.selections?.collectConditionVariables(into: &names, visited: &visited)
            case .fragment(_, let directives, let set):
                add(directives)
                set.collectConditionVariables(into: &names, visited: &visited)
            }
        }
    }

    /// The fields that apply to a record of `typename`, in document order, fragments expanded in
    /// place, `@include`/`@skip` decided by `variables`. Fields sharing a response key all stay.
    package func fields(for typename: String, variables: [String: JSONValue], schema: Schema) -> [OracleField] {
        var out: [OracleField] = []
        collect(into: &out, typename: typename, variables: variables, schema: schema)
        return out
    }

    private func collect(into out: inout [OracleField], typename: String, variables: [String: JSONValue], schema: Schema) {
        for item in items {
            switch item {
            case .field(let field):
                if OracleSelectionSet.included(field.node.directives, variables) { out.append(field) }
            case .fragment(let condition, let directives, let set):
                guard OracleSelectionSet.included(directives, variables) else { continue }
                if let condition, !Self.applies(condition, to: typename, within: writtenOn, schema: schema) { continue }
                set.collect(into: &out, typename: typename, variables: variables, schema: schema)
            }
        }
    }

    /// Whether a fragment on `condition`, written within a set on `parent`, applies to a record
    /// of `typename`: when the type meets the condition (GraphQL's rule), and also whenever the
    /// condition covers every type `parent` can be (the parent itself, or a condition every one
    /// of its possible types meets). The second half decides nothing more for a type the schema
    /// lists among `parent`'s possible types; it decides what a type outside them reads (one a
    /// server's newer schema added: docs/design.md, "Bad input"): only what applies to every type
    /// the field can be.
    static func applies(_ condition: String, to typename: String, within parent: String, schema: Schema) -> Bool {
        if condition == typename || schema.isPossibleType(typename, of: condition) { return true }
        if condition == parent { return true }
        let covered = schema.possibleTypeSet(of: parent)
        return !covered.isEmpty && covered.isSubset(of: schema.possibleTypeSet(of: condition))
    }

    /// True when a record of `typename` is outside the types a set written on `parent` can meet:
    /// neither `parent` itself nor one of its possible types. Its fields are then read by their
    /// definitions on `parent`, where they are written.
    static func isForeign(_ typename: String, to parent: String, schema: Schema) -> Bool {
        typename != parent && !schema.isPossibleType(typename, of: parent)
    }

    /// False when `@skip(if:)` is true or `@include(if:)` is false; a variable that is not a
    /// Boolean counts as false.
    static func included(_ directives: [GraphQLDirective], _ variables: [String: JSONValue]) -> Bool {
        for directive in directives where directive.name == "include" || directive.name == "skip" {
            guard let argument = directive.argument("if") else { continue }
            let on: Bool
            switch argument.value {
            case .boolean(let b): on = b
            case .variable(let name, _): if case .bool(let b)? = variables[name] { on = b } else { on = false }
            default: on = false
            }
            if on != (directive.name == "include") { return false }
        }
        return true
    }

    /// The fields of several sets for one record, one per response key in first-seen order, each
    /// with the sub-selections of every field under that key (read-back and response walks).
    package static func merged(
        _ sets: [OracleSelectionSet], for typename: String, variables: [String: JSONValue], schema: Schema
    ) -> [OracleMergedField] {
        var merged: [OracleMergedField] = []
        var index: [OracleText: Int] = [:]
        for set in sets {
            for field in set.fields(for: typename, variables: variables, schema: schema) {
                let key = OracleText(field.node.responseKey)
                if let at = index[key] {
                    if let sub = field.selections { merged[at].subselections.append(sub) }
                    merged[at].all.append(field)
                } else {
                    index[key] = merged.count
                    merged.append(OracleMergedField(field: field, subselections: field.selections.map { [$0] } ?? [], all: [field]))
                }
            }
        }
        return merged
    }
}

/// A field node of an operation, with its sub-selections as a set of their own.
package final class OracleField: Sendable {
    package let node: Document.FieldNode
    package let selections: OracleSelectionSet?
    /// `@connection(key:, filters:)` as written on the field.
    package let connection: OracleConnectionDirective?
    /// `@deleteRecord(typename:)` as written on the field.
    package let deleteRecord: OracleDeleteDirective?
    /// The schema's definition of the field on the type of the set it is written in (`nil` for
    /// `__typename` and fields the schema lacks): its arguments' types coerce what is written.
    let definition: Schema.Field?
    /// The type of the set the field is written in.
    let parentType: String
    let coercion: OracleCoercion

    init(node: Document.FieldNode, selections: OracleSelectionSet?, definition: Schema.Field?, parentType: String, coercion: OracleCoercion) {
        self.node = node
        self.selections = selections
        self.definition = definition
        self.parentType = parentType
        self.coercion = coercion
        connection = OracleConnectionDirective(node.directives)
        deleteRecord = OracleDeleteDirective(node.directives)
    }

    package var name: String { node.name }
    package var isTypename: Bool { node.name == "__typename" }

    /// The field's arguments under `variables`, resolved and coerced to their declared types.
    package func arguments(_ variables: [String: JSONValue]) -> [String: JSONValue] {
        coercion.coerce(arguments: OracleArguments.resolve(node.arguments, variables), of: definition)
    }

    /// The field's storage key under `variables`.
    package func slot(_ variables: [String: JSONValue]) -> OracleText {
        OracleKeys.fieldSlot(name: node.name, arguments: arguments(variables))
    }

    /// The slot the walks read: a connection field reads its client record through
    /// `__key_connection(filters)`, any other field its storage key.
    package func readSlot(_ variables: [String: JSONValue]) -> OracleText {
        guard let connection else { return slot(variables) }
        return OracleKeys.connectionSlot(
            key: connection.key, filters: connection.filters, arguments: arguments(variables))
    }
}

/// The fields of one record under one response key.
package struct OracleMergedField: Sendable {
    /// The first field under the key: its name and arguments speak for all of them.
    package var field: OracleField
    package var subselections: [OracleSelectionSet]
    package var all: [OracleField]
}

/// `@connection(key: "K", filters: ["a"])`, or Apollo's `filter: ["a"]`.
package struct OracleConnectionDirective: Hashable, Sendable {
    package var key: String
    /// The arguments that identify the connection; `nil`: every argument but the paging ones.
    package var filters: [String]?

    package init(key: String, filters: [String]?) {
        self.key = key
        self.filters = filters
    }

    /// The directive among `directives`, if written with a string key.
    package init?(_ directives: [GraphQLDirective]) {
        guard let directive = directives.first(where: { $0.name == "connection" }),
            case .string(let key)? = directive.argument("key")?.value
        else { return nil }
        self.key = key
        switch (directive.argument("filters") ?? directive.argument("filter"))?.value {
        case .list(let items)?:
            filters = items.compactMap { if case .string(let name) = $0 { name } else { nil } }
        case .string(let name)?:
            filters = [name]
        default:
            filters = nil
        }
    }
}

/// `@deleteRecord` or `@deleteRecord(typename: "T")`.
package struct OracleDeleteDirective: Hashable, Sendable {
    /// With a type, a value `v` deletes `T:v`; without, the value is the record's key.
    package var typename: String?

    package init(typename: String?) {
        self.typename = typename
    }

    /// The directive among `directives`, if written.
    package init?(_ directives: [GraphQLDirective]) {
        guard let directive = directives.first(where: { $0.name == "deleteRecord" }) else { return nil }
        if case .string(let name)? = directive.argument("typename")?.value {
            typename = name
        } else {
            typename = nil
        }
    }
}

/// Turns an operation's syntax into ``OracleSelectionSet``s, one shared set per fragment; each
/// field knows its definition on the type of the set it is written in.
struct OracleSelectionBuilder {
    let fragments: [String: Document.Fragment]
    let schema: Schema
    let coercion: OracleCoercion
    private var built: [String: OracleSelectionSet] = [:]
    private var building: Set<String> = []

    init(fragments: [String: Document.Fragment], schema: Schema) {
        self.fragments = fragments
        self.schema = schema
        coercion = OracleCoercion(schema: schema)
    }

    /// The set of `nodes`, written on the type `typename`.
    mutating func set(_ nodes: [Document.SelectionNode], on typename: String) -> OracleSelectionSet {
        var items: [OracleSelectionSet.Item] = []
        for node in nodes {
            switch node {
            case .field(let field):
                let definition = schema.field(field.name, on: typename)
                let inner = definition?.type.namedType ?? typename
                items.append(.field(OracleField(
                    node: field, selections: field.selections.map { set($0, on: inner) }, definition: definition,
                    parentType: typename, coercion: coercion)))
            case .inlineFragment(let fragment):
                items.append(.fragment(
                    typeCondition: fragment.typeCondition, directives: fragment.directives,
                    set(fragment.selections, on: fragment.typeCondition ?? typename)))
            case .fragmentSpread(let spread):
                guard let fragment = fragments[spread.name] else { continue }
                items.append(.fragment(typeCondition: fragment.typeCondition, directives: spread.directives, fragmentSet(fragment)))
            }
        }
        return OracleSelectionSet(items: items, writtenOn: typename)
    }

    /// The shared set of a named fragment; a spread inside its own fragment (a cycle, which
    /// GraphQL forbids) contributes nothing.
    private mutating func fragmentSet(_ fragment: Document.Fragment) -> OracleSelectionSet {
        if let done = built[fragment.name] { return done }
        guard building.insert(fragment.name).inserted else { return OracleSelectionSet(items: [], writtenOn: fragment.typeCondition) }
        let result = set(fragment.selections, on: fragment.typeCondition)
        building.remove(fragment.name)
        built[fragment.name] = result
        return result
    }
}
