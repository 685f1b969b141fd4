import Baton

/// Executes one operation against the server's state, as the GraphQL specification's execution
/// section says: field collection in document order through fragments, `@include`/`@skip`,
/// merging by response key, arguments with variables, completion with non-null propagation.
struct Executor {
    /// What the execution is for.
    enum Mode {
        /// A real answer: fields fail at the configured rates, pages are remembered.
        case answer
        /// A client's optimistic guess: nothing fails, renewed fields get guessed values.
        case optimistic
        /// A dry run for the drawer: nothing fails, connections reached are recorded.
        case probe
    }

    let world: World
    let schema: Schema
    let configuration: ServerConfiguration
    let salt: UInt64
    var state: ServerState
    let mode: Mode
    /// Draws which fields fail (answers only).
    var random: SimRandom
    let operation: WorldOperation
    let variables: [String: JSONValue]
    /// Arguments as the spec's input coercion makes them: `scale: 2` of a Float runs as 2.0.
    let coercion: OracleCoercion
    var errors: [RaisedError] = []
    /// Connections passed through (probes only).
    var reached: [ReachedConnection] = []
    /// True when a mutation field named an object the server does not have.
    var missedTarget = false
    /// Entity type numbers by name.
    let typeIndex: [String: Int]
    /// In a probe, the only fields worth executing: those on the way to connections paged by cursor
    /// variables.
    let probedFields: Set<GraphQLLocation>?
    /// False for a mutation or subscription all of whose fields are answered without an edit
    /// (``MutationEdit/answersOnly``): their objects are new at each execution and never asked
    /// for again, so they are not kept for drift, whose few places they would fill.
    let remembersPaths: Bool

    init(
        world: World, configuration: ServerConfiguration, salt: UInt64, state: ServerState, mode: Mode,
        random: SimRandom = SimRandom(seed: 0), operation: WorldOperation, variables: [String: JSONValue]
    ) {
        self.world = world
        schema = world.schema
        self.configuration = configuration
        self.salt = salt
        self.state = state
        self.mode = mode
        self.random = random
        self.operation = operation
        self.variables = variables
        coercion = OracleCoercion(schema: world.schema)
        typeIndex = world.analysis.entityTypeIndex
        if case .probe = mode {
            probedFields = world.analysis.cursorPaths[operation.name] ?? []
        } else {
            probedFields = nil
        }
        let edits = world.analysis.mutations[operation.name] ?? [:]
        remembersPaths = edits.isEmpty || !edits.values.allSatisfy(\.answersOnly)
    }

    /// The identity of the root object of `type`.
    static func rootIdentity(_ type: String) -> UInt64 {
        ServerHash.of("root:" + type)
    }

    mutating func run() -> ExecutionResult {
        guard let rootType = schema.rootTypeName(for: operation.kind) else {
            return ExecutionResult(data: nil, errors: [
                RaisedError(error: ProvenanceError(message: "the schema has no \(operation.kind.rawValue) type", path: []), location: nil, field: nil)
            ])
        }
        let root = ServerObject(
            type: rootType, identity: Self.rootIdentity(rootType), role: operation.kind == .query ? .plain : .mutationRoot)
        do {
            var path: [ProvenanceError.PathComponent] = []
            let data = try executeObject(root, selections: operation.syntax.selections, path: &path)
            return ExecutionResult(data: data, errors: errors)
        } catch let propagation as NullPropagation {
            // `data` is null: no error names a field of the response.
            record(propagation.error, at: propagation.location, field: nil)
            place(from: 0, on: nil)
            return ExecutionResult(
                data: nil, errors: errors, writtenData: configuration.leavesNullsInPlace ? propagation.written : nil)
        } catch {
            return ExecutionResult(data: nil, errors: errors)
        }
    }

    // MARK: - Objects and fields

    /// The fields of `selections` that apply to `object`, merged by response key.
    mutating func executeObject(
        _ object: ServerObject, selections: [Document.SelectionNode], path: inout [ProvenanceError.PathComponent]
    ) throws -> ProvenanceObject {
        var groups: [FieldGroup] = []
        var entered: [String] = []
        collectFields(on: object.type, selections, into: &groups, entered: &entered)
        var fields: [ProvenanceField] = []
        fields.reserveCapacity(groups.count)
        // A null that propagates out of here takes the object with it: whatever nullable place
        // swallows it takes the errors raised inside (their paths step through its null).
        for (position, group) in groups.enumerated() {
            path.append(.key(group.responseKey))
            defer { path.removeLast() }
            do {
                fields.append(try executeField(group, on: object, path: &path))
            } catch var propagation as NullPropagation {
                // Written in place, the object holds the fields completed so far, the null (or
                // what holds it) and, so that a reader can type and key it, the `__typename`s and
                // `id`s after it (the server stops at the failure; those two it knows anyway).
                fields.append(ProvenanceField(
                    responseKey: group.responseKey, name: group.nodes[0].name, arguments: [:], value: propagation.written))
                for later in groups[(position + 1)...] {
                    switch later.nodes[0].name {
                    case "__typename":
                        fields.append(ProvenanceField(
                            responseKey: later.responseKey, name: "__typename", arguments: [:], value: .scalar(.string(object.type))))
                    case "id" where object.entity != nil:
                        guard let definition = schema.field("id", on: object.type) else { continue }
                        fields.append(ProvenanceField(
                            responseKey: later.responseKey, name: "id", arguments: [:],
                            value: object.id.map { .scalar(Self.idValue($0, as: definition.type)) } ?? .null))
                    default:
                        continue
                    }
                }
                propagation.written = .object(ProvenanceObject(typename: object.type, id: object.id, fields: fields))
                throw propagation
            }
        }
        return ProvenanceObject(typename: object.type, id: object.id, fields: fields)
    }

    /// The nodes that share one response key.
    struct FieldGroup {
        let responseKey: String
        var nodes: [Document.FieldNode]

        var directives: [GraphQLDirective] { nodes.count == 1 ? nodes[0].directives : nodes.flatMap(\.directives) }
        var selections: [Document.SelectionNode] {
            nodes.count == 1 ? nodes[0].selections ?? [] : nodes.flatMap { $0.selections ?? [] }
        }
    }

    /// The specification's CollectFields: document order, `@skip`/`@include`, fragments whose type
    /// condition the object's type satisfies, each named fragment once per selection set.
    func collectFields(
        on type: String, _ selections: [Document.SelectionNode], into groups: inout [FieldGroup], entered: inout [String]
    ) {
        for selection in selections {
            switch selection {
            case .field(let node):
                guard isIncluded(node.directives), probedFields?.contains(node.location) ?? true else { continue }
                if let index = groups.firstIndex(where: { $0.responseKey == node.responseKey }) {
                    groups[index].nodes.append(node)
                } else {
                    groups.append(FieldGroup(responseKey: node.responseKey, nodes: [node]))
                }
            case .inlineFragment(let inline):
                guard isIncluded(inline.directives) else { continue }
                if let condition = inline.typeCondition, !schema.isPossibleType(type, of: condition) { continue }
                collectFields(on: type, inline.selections, into: &groups, entered: &entered)
            case .fragmentSpread(let spread):
                guard isIncluded(spread.directives), !entered.contains(spread.name),
                    let fragment = operation.fragments[spread.name], schema.isPossibleType(type, of: fragment.typeCondition)
                else { continue }
                entered.append(spread.name)
                collectFields(on: type, fragment.selections, into: &groups, entered: &entered)
            }
        }
    }

    /// False when `@skip(if: true)` or `@include(if: false)`; a variable that is absent and has no
    /// default counts as false.
    func isIncluded(_ directives: [GraphQLDirective]) -> Bool {
        for directive in directives where directive.name == "skip" || directive.name == "include" {
            var condition = false
            if let value = directive.argument("if")?.value, case .bool(let flag)? = argumentJSON(value) {
                condition = flag
            }
            if directive.name == "skip" && condition { return false }
            if directive.name == "include" && !condition { return false }
        }
        return true
    }

    mutating func executeField(
        _ group: FieldGroup, on object: ServerObject, path: inout [ProvenanceError.PathComponent]
    ) throws -> ProvenanceField {
        let node = group.nodes[0]
        let directives = group.directives
        if node.name == "__typename" {
            return ProvenanceField(
                responseKey: group.responseKey, name: node.name, arguments: [:], directives: directives,
                value: .scalar(.string(object.type)))
        }
        let definition = schema.field(node.name, on: object.type)
        let arguments = coercion.coerce(arguments: self.arguments(node.arguments), of: definition)
        guard let definition else {
            let error = ProvenanceError(message: "\"\(object.type)\" has no field \"\(node.name)\"", path: path)
            record(error, at: node.location, field: path)
            return ProvenanceField(
                responseKey: group.responseKey, name: node.name, arguments: arguments, directives: directives, value: .null,
                errors: [error])
        }
        let firstError = errors.count
        do {
            let resolved = try resolve(definition, group: group, on: object, arguments: arguments, path: path)
            let value = try complete(
                definition.type, resolved, selections: group.selections, field: "\(object.type).\(node.name)",
                location: node.location, path: &path)
            return ProvenanceField(
                responseKey: group.responseKey, name: node.name, arguments: arguments, directives: directives, value: value,
                errors: errors(from: firstError, on: path))
        } catch let propagation as NullPropagation {
            if definition.type.isNonNull { throw propagation }
            // The field is null: the error that made it so, and whatever its value raised before
            // (a list's earlier items, the object's other fields), step through this null.
            record(propagation.error, at: propagation.location, field: path)
            place(from: firstError, on: path)
            return ProvenanceField(
                responseKey: group.responseKey, name: node.name, arguments: arguments, directives: directives,
                value: nulled(propagation), errors: errors(from: firstError, on: path))
        }
    }

    /// The specification's CompleteValue: a null in a non-null place raises an error and travels up;
    /// a nullable list item absorbs a null from below.
    mutating func complete(
        _ type: GraphQLTypeReference, _ resolved: Resolved, selections: [Document.SelectionNode], field: String,
        location: GraphQLLocation, path: inout [ProvenanceError.PathComponent]
    ) throws -> ProvenanceValue {
        switch type {
        case .nonNull(let inner):
            let value = try complete(inner, resolved, selections: selections, field: field, location: location, path: &path)
            if value == .null {
                throw NullPropagation(
                    error: ProvenanceError(message: "Cannot return null for non-nullable field \(field).", path: path),
                    location: location)
            }
            return value
        case .list(let inner):
            guard case .list(let items) = resolved else { return .null }
            var values: [ProvenanceValue] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                if !inner.isNonNull, case .answer = mode, configuration.itemErrorRate > 0, random.chance(configuration.itemErrorRate) {
                    // The item's own failure: null at its place, the error's path ending in its index.
                    record(ProvenanceError(message: "item \(index) of \(field) is unavailable (simulated failure)", path: path),
                           at: location, field: Self.field(of: path), element: Self.element(of: path))
                    values.append(.null)
                    continue
                }
                let firstError = errors.count
                do {
                    values.append(try complete(inner, item, selections: selections, field: field, location: location, path: &path))
                } catch var propagation as NullPropagation {
                    if inner.isNonNull {
                        // Written in place, the list holds its items so far and the null (or what holds it).
                        propagation.written = .list(values + [propagation.written])
                        throw propagation
                    }
                    // The item is null: its errors step through it, so they belong to the list's field.
                    record(propagation.error, at: propagation.location, field: Self.field(of: path))
                    place(from: firstError, on: Self.field(of: path), element: Self.element(of: path))
                    values.append(nulled(propagation))
                }
            }
            return .list(values)
        case .named:
            switch resolved {
            case .null, .list: return .null
            case .scalar(let value): return .scalar(value)
            case .object(let object): return .object(try executeObject(object, selections: selections, path: &path))
            }
        }
    }

    // MARK: - Errors

    /// Records `error` as belonging to the field at `field`, about its element at `element` (no
    /// indices: about the field's own value).
    mutating func record(
        _ error: ProvenanceError, at location: GraphQLLocation?, field: [ProvenanceError.PathComponent]?, element: [Int] = []
    ) {
        var error = error
        error.elementIndices = element
        error.otherMembers = otherMembers(of: error, at: location)
        errors.append(RaisedError(error: error, location: location, field: field))
    }

    /// The members an error carries besides message, path and extensions: its `locations` when
    /// the seed's style writes them, then what its hash draws (``ErrorExtensions/drawOtherMembers(_:trickyRate:)``).
    func otherMembers(of error: ProvenanceError, at location: GraphQLLocation?) -> [ProvenanceMember]? {
        var members: [ProvenanceMember] = []
        if configuration.json.errorLocations, let location {
            members.append(ProvenanceMember("locations", .array([.object(["line": .int(location.line), "column": .int(location.column)])])))
        }
        let hash = Self.hash(of: error.message, at: error.path, seed: salt ^ 0x6F74_6865_7273)
        members += ErrorExtensions.drawOtherMembers(hash, trickyRate: configuration.trickyStringRate)
        return members.isEmpty ? nil : members
    }

    /// The hash an error's draws come from: its message and path, under `seed`.
    static func hash(of message: String, at path: [ProvenanceError.PathComponent], seed: UInt64) -> UInt64 {
        var hash = ServerHash(seed)
        hash.add(message)
        for component in path {
            switch component {
            case .key(let key): hash.add(key)
            case .index(let index): hash.add(index)
            }
        }
        return hash.value
    }

    /// The errors raised since `start` that belong to the field at `fieldPath`, in the order
    /// they were raised.
    func errors(from start: Int, on fieldPath: [ProvenanceError.PathComponent]) -> [ProvenanceError] {
        errors[start...].compactMap { $0.field == fieldPath ? $0.error : nil }
    }

    /// Gives the errors raised since `start` to the field at `fieldPath` (nil: to no field), when
    /// a null swallowed the value they were raised in: the field's own null, or its element's at
    /// `element`.
    mutating func place(from start: Int, on fieldPath: [ProvenanceError.PathComponent]?, element: [Int] = []) {
        for index in start..<errors.count {
            errors[index].field = fieldPath
            errors[index].error.elementIndices = element
        }
    }

    /// The indices a path inside a list value ends with: where its element stands.
    static func element(of path: [ProvenanceError.PathComponent]) -> [Int] {
        path[field(of: path).count...].compactMap { if case .index(let index) = $0 { index } else { nil } }
    }

    /// The field a path inside a list value belongs to: the path without its trailing indices.
    static func field(of path: [ProvenanceError.PathComponent]) -> [ProvenanceError.PathComponent] {
        var field = path
        while case .index? = field.last { field.removeLast() }
        return field
    }

    /// The value of a nullable place a null propagated to: `null`, which a server that leaves
    /// nulls where they fall writes as the object or list that holds the null.
    func nulled(_ propagation: NullPropagation) -> ProvenanceValue {
        configuration.leavesNullsInPlace ? .nulled(written: propagation.written) : .null
    }

    /// Throws the error an answer gives for a field that fails, with the extensions its hash
    /// draws (``ErrorExtensions``).
    func fail(_ message: String, at location: GraphQLLocation?, path: [ProvenanceError.PathComponent]) -> NullPropagation {
        let hash = Self.hash(of: message, at: path, seed: salt)
        let extensions = ErrorExtensions.draw(hash, trickyRate: configuration.trickyStringRate)
        return NullPropagation(error: ProvenanceError(message: message, path: path, extensions: extensions), location: location)
    }
}
