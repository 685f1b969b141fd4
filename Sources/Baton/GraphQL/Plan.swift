import Synchronization

/// The kind of an executable operation.
public enum OperationKind: String, Sendable {
    case query, mutation, subscription
}

/// The variables of one execution of an operation: checked against its declarations, with
/// defaults applied.
///
/// Only ``Plan/variables(_:)`` makes them, after checking every value against its declared type
/// (the spec's CoerceVariableValues), so whatever takes `Variables` (ingest, and the store's
/// `check`, `read` and `retain`) keys fields by arguments that fit the operation: `{}` for
/// `$id: ID!` never reaches a storage key as `character`. Ingest checks again when it is given
/// variables made by a plan with other declarations.
public struct Variables: Hashable, Sendable {
    /// The values by variable name; undeclared variables are dropped, absent ones left out.
    public let values: [String: JSONValue]
    /// The declarations of the plan that checked `values` (``Plan/variableSignature``).
    let signature: String

    /// Variables taken as they are, unchecked: for plan building and the store's own walks.
    package init(_ values: [String: JSONValue] = [:]) {
        self.values = values
        self.signature = ""
    }

    init(checked values: [String: JSONValue], signature: String) {
        self.values = values
        self.signature = signature
    }

    /// The variables as canonical JSON (keys sorted).
    public var canonicalJSON: String { CanonicalJSON.render(.object(values)) }

    public static func == (lhs: Variables, rhs: Variables) -> Bool { lhs.values == rhs.values }

    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

/// What the store walks for one operation: its selections resolved against the schema.
///
/// A plan is built once from a document and a schema (``Plan/build(document:schema:operationName:)``)
/// and is immutable, so ingest can use it off the main actor.
public final class Plan: Sendable {
    public let kind: OperationKind
    /// The operation's name, `nil` for an anonymous operation.
    public let name: String?
    /// The schema's root type for `kind` (`Query`, `Mutation`, …).
    public let rootTypename: String
    public let variableDefinitions: [VariableDefinition]
    public let selections: SelectionSet
    /// The schema the plan was built against: variables are checked with its enums and input
    /// objects. `nil` for a plan made by hand, whose variables are checked against the built-in
    /// scalars only (other named types take any value).
    public let schema: Schema?
    /// The declarations in one line (`$id:ID!,$first:Int=10`): variables checked by one plan are
    /// good for any plan that declares the same.
    let variableSignature: String
    /// The shapes the last ingest built, for the next ingest under the same variables.
    let shapes = ShapeCacheSlot()
    /// False only under the `inputsNotCoerced` mutant: variables are kept as given.
    let coercesInputs: Bool
    /// The bug the plan puts back, if any: in its variables (`explicitNullTakesDefault`,
    /// `undeclaredVariablesKept`, and the rewrite's `idIntKeyedAsString` and
    /// `nestedInputNotCoerced`) or in the shapes its ingests build (`typenameAliasIgnored`).
    let mutant: Mutant?

    public convenience init(
        kind: OperationKind, name: String?, rootTypename: String,
        variableDefinitions: [VariableDefinition], selections: SelectionSet, schema: Schema? = nil
    ) {
        self.init(
            kind: kind, name: name, rootTypename: rootTypename, variableDefinitions: variableDefinitions,
            selections: selections, schema: schema, mutant: nil)
    }

    /// A plan whose variables may put a known bug back (`inputsNotCoerced`).
    init(
        kind: OperationKind, name: String?, rootTypename: String,
        variableDefinitions: [VariableDefinition], selections: SelectionSet, schema: Schema?, mutant: Mutant?
    ) {
        self.coercesInputs = !mutant.isOn(.inputsNotCoerced)
        self.mutant = mutant
        self.kind = kind
        self.name = name
        self.rootTypename = rootTypename
        self.variableDefinitions = variableDefinitions
        self.selections = selections
        self.schema = schema
        self.variableSignature = variableDefinitions.map { definition in
            "$" + definition.name + ":" + definition.type.description
                + (definition.defaultValue.map { "=" + CanonicalJSON.render($0) } ?? "")
        }.joined(separator: ",")
    }

    /// Drops the shapes the last ingest kept, so that the next ingest builds them anew (the
    /// benchmarks time that ingest beside the one that finds them kept).
    package func forgetShapes() {
        shapes.forget()
    }

    /// The record the operation starts from.
    public var rootKey: RecordKey {
        switch kind {
        case .query: .queryRoot
        case .mutation: .mutationRoot
        case .subscription: .subscriptionRoot
        }
    }

    /// Checks `provided` against the declared variables and fills in defaults: the variables of
    /// one execution of the operation (the spec's CoerceVariableValues).
    ///
    /// A non-null variable without a default must be given, and not as null; every given value
    /// must fit its type: `Int` a whole number in 32 bits, `Float` any number, `ID` a string or
    /// a whole number, `String` and `Boolean` their JSON kinds, an enum one of its values (as a
    /// string), an input object only its fields with every required one present, a list a JSON
    /// array of fitting items or a single fitting item. Values are then coerced as ``InputRewrite``
    /// says (`2` for a `Float` is `2.0`, a single item for a list a list of one; an `ID` given as
    /// `4` stays `4` in storage keys); variables the operation does not declare are dropped.
    ///
    /// - Throws: ``VariableError`` naming the first variable (in declaration order) that does not
    ///   fit, and where inside its value: `$id: expected ID!, got nothing`.
    public func variables(_ provided: [String: JSONValue] = [:]) throws(VariableError) -> Variables {
        let coercion = InputCoercion(schema: schema)
        let rewrite = InputRewrite(schema: schema, mutant: mutant)
        var values: [String: JSONValue] = [:]
        for definition in variableDefinitions {
            var value = provided[definition.name]
            // Only a variable not given takes its default: an explicit null stays null.
            if value == nil || (value == .null && mutant.isOn(.explicitNullTakesDefault)) { value = definition.defaultValue ?? value }
            do throws(InputProblem) {
                try coercion.check(value, as: definition.type)
            } catch {
                throw VariableError(variable: definition.name, path: error.path, message: error.message)
            }
            if let value { values[definition.name] = coercesInputs ? rewrite.json(value, as: definition.type) : value }
        }
        if mutant.isOn(.undeclaredVariablesKept) {
            for (name, value) in provided where !variableDefinitions.contains(where: { $0.name == name }) { values[name] = value }
        }
        return Variables(checked: values, signature: variableSignature)
    }

    /// The identity fetch times and retention are kept under: `Name{"canonical":"variables"}`.
    public func identity(_ variables: Variables) -> OperationIdentity {
        OperationIdentity((name ?? "anonymous") + variables.canonicalJSON)
    }
}

/// A declared variable of an operation.
public struct VariableDefinition: Sendable {
    public let name: String
    /// The declared type (`[ID!]!`).
    public let type: GraphQLTypeReference
    /// The default, checked against `type` when the plan was built.
    public let defaultValue: JSONValue?

    public init(name: String, type: GraphQLTypeReference, defaultValue: JSONValue?) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

/// A selection set; fragments are already inlined.
public final class SelectionSet: Sendable {
    public let selections: [Selection]
    /// True when some `@include`/`@skip` on a variable sits in this set (at any depth of fragments):
    /// then the applicable fields depend on the variables and are not cached.
    private let dependsOnVariables: Bool
    /// True only under the `absentConditionKeeps` mutant: a condition variable that is no
    /// Boolean lets its selections in, whether `@include` or `@skip` names it.
    private let nonBooleanConditionsPass: Bool
    /// The applicable fields per type name, for sets whose fields do not depend on variables.
    private let cache = Mutex<[String: [FieldSelection]]>([:])
    /// The merged fields per type name (read-back), under the same rule as `cache`.
    let mergedCache = Mutex<[String: [MergedField]]>([:])
    /// True when the applicable fields do not depend on variables, so per-type caches are exact.
    var isCacheable: Bool { !dependsOnVariables }

    public init(_ selections: [Selection]) {
        self.selections = selections
        dependsOnVariables = Self.dependsOnVariables(selections, throughFragments: true)
        nonBooleanConditionsPass = false
    }

    /// A set whose fragments hide their conditions from it (the mutant
    /// `fragmentConditionsHidden`): its fields are cached as if no variable changed them; or whose
    /// conditions let a variable that is no Boolean in (the mutant `absentConditionKeeps`).
    package init(_ selections: [Selection], fragmentsHideConditions: Bool, nonBooleanConditionsPass: Bool = false) {
        self.selections = selections
        dependsOnVariables = Self.dependsOnVariables(selections, throughFragments: !fragmentsHideConditions)
        self.nonBooleanConditionsPass = nonBooleanConditionsPass
    }

    private static func dependsOnVariables(_ selections: [Selection], throughFragments: Bool) -> Bool {
        selections.contains { selection in
            switch selection {
            case .field: false
            case .condition: true
            case .fragment(_, let set): throughFragments && set.dependsOnVariables
            }
        }
    }

    /// The fields that apply to a record of type `typename` under `variables`, in document order,
    /// after type conditions and `@include`/`@skip`. Fields sharing a response key are all kept.
    ///
    /// Cached per type name when no condition depends on variables, so walks over shared named
    /// fragments stay linear.
    public func fields(for typename: String?, variables: Variables) -> [FieldSelection] {
        if !dependsOnVariables {
            let key = typename ?? ""
            if let cached = cache.withLock({ $0[key] }) { return cached }
            var out: [FieldSelection] = []
            collect(into: &out, typename: typename, variables: variables)
            cache.withLock { $0[key] = out }
            return out
        }
        var out: [FieldSelection] = []
        collect(into: &out, typename: typename, variables: variables)
        return out
    }

    private func collect(into out: inout [FieldSelection], typename: String?, variables: Variables) {
        for selection in selections {
            switch selection {
            case .field(let field):
                out.append(field)
            case .fragment(let possibleTypes, let set):
                if let possibleTypes {
                    guard let typename, possibleTypes.contains(typename) else { continue }
                }
                set.collect(into: &out, typename: typename, variables: variables)
            case .condition(let variable, let include, let set):
                // A value that is no Boolean (a nullable variable given as an explicit null) counts
                // as false, as Apollo Client and Relay read it, and as the server that drops the
                // field under `@include(if: null)` answers (docs/design.md, Variables).
                let value = variables.values[variable]
                let on: Bool = if case .bool(let b)? = value { b } else { nonBooleanConditionsPass ? include : false }
                if on == include {
                    set.collect(into: &out, typename: typename, variables: variables)
                }
            }
        }
    }
}

/// One entry of a selection set.
public enum Selection: Sendable {
    case field(FieldSelection)
    /// An inline fragment or an inlined fragment spread: applies when the record's type is one of
    /// `possibleTypes` (`nil`: always, as for a fragment on the parent's own type).
    case fragment(possibleTypes: Set<String>?, SelectionSet)
    /// `@include(if: $variable)` (`include` true) or `@skip(if: $variable)` (`include` false).
    /// Literal conditions are resolved when the plan is built.
    case condition(variable: String, include: Bool, SelectionSet)
}

/// The schema's facts about a field's type.
public struct FieldType: Sendable, Hashable {
    /// What the named type is.
    public enum Kind: Sendable, Hashable {
        case int, float, string, boolean, id
        /// A custom scalar: any JSON value.
        case customScalar
        case enumeration
        case object
        /// An interface or a union: the response must say `__typename`.
        case abstract
    }

    /// The named type (`Character` in `[Character]!`).
    public let namedType: String
    public let kind: Kind
    /// How many list wrappers surround the named type.
    public let listDepth: Int
    /// Which levels are non-null: bit `i` for level `i`, where level 0 is the field's own value,
    /// level 1 the items of its list, and level `listDepth` the named type (`[ID!]!` is `0b11`).
    /// Levels past 63 count as nullable.
    public let nonNullLevels: UInt64

    public init(namedType: String, kind: Kind, listDepth: Int, nonNullLevels: UInt64 = 0) {
        self.namedType = namedType
        self.kind = kind
        self.listDepth = listDepth
        self.nonNullLevels = nonNullLevels
    }

    /// True for objects, interfaces and unions: values are records.
    public var isComposite: Bool { kind == .object || kind == .abstract }

    /// True when the value at `level` (0: the field's own value) may not be null.
    public func isNonNull(atLevel level: Int) -> Bool {
        level < 64 && nonNullLevels & (1 << UInt64(level)) != 0
    }

    /// The type at `level` in GraphQL syntax: level 0 of `[ID!]!` is `[ID!]!`, level 1 is `ID!`.
    public func description(atLevel level: Int) -> String {
        var text = namedType + (isNonNull(atLevel: listDepth) ? "!" : "")
        var current = listDepth - 1
        while current >= level {
            text = "[" + text + "]" + (isNonNull(atLevel: current) ? "!" : "")
            current -= 1
        }
        return text
    }
}

/// `@connection(key:, filters:)` on a field.
public struct ConnectionDirective: Sendable, Hashable {
    public let key: String
    /// The arguments that identify the connection; `nil`: every argument but the paging ones.
    public let filters: [String]?

    public init(key: String, filters: [String]?) {
        self.key = key
        self.filters = filters
    }

    /// The paging arguments, never part of a connection's identity.
    public static let pagingArguments: Set<String> = ["first", "last", "after", "before"]
}

/// `@deleteRecord` on an id field of a mutation payload.
public struct DeleteRecordDirective: Sendable, Hashable {
    /// With `typename`, a value `v` deletes `typename:v`; without, the value is the record key.
    public let typename: String?

    public init(typename: String?) {
        self.typename = typename
    }
}

/// An argument value as written: literals and variables, nested in lists and objects.
public indirect enum ArgumentValue: Sendable, Hashable {
    case literal(JSONValue)
    case variable(String)
    case list([ArgumentValue])
    case object([ArgumentField])

    /// The value under `variables`; `nil` when it is (or resolves to) an absent variable.
    public func resolve(_ variables: Variables) -> JSONValue? {
        resolve(variables, absentMembersNull: false)
    }

    /// `absentMembersNull` only under the `absentInputMemberKeyedNull` mutant: an input object's
    /// member whose variable is absent is kept as `null` instead of left out.
    func resolve(_ variables: Variables, absentMembersNull: Bool) -> JSONValue? {
        switch self {
        case .literal(let value):
            return value
        case .variable(let name):
            return variables.values[name]
        case .list(let items):
            return .array(items.map { $0.resolve(variables, absentMembersNull: absentMembersNull) ?? .null })
        case .object(let fields):
            var members: [String: JSONValue] = [:]
            for field in fields {
                if let value = field.value.resolve(variables, absentMembersNull: absentMembersNull) {
                    members[field.name] = value
                } else if absentMembersNull {
                    members[field.name] = .null
                }
            }
            return .object(members)
        }
    }

    /// True when the value mentions no variable.
    public var isStatic: Bool {
        switch self {
        case .literal: true
        case .variable: false
        case .list(let items): items.allSatisfy(\.isStatic)
        case .object(let fields): fields.allSatisfy(\.value.isStatic)
        }
    }
}

/// One named member of an argument or input object.
public struct ArgumentField: Sendable, Hashable {
    public let name: String
    public let value: ArgumentValue

    public init(name: String, value: ArgumentValue) {
        self.name = name
        self.value = value
    }
}

/// A field of a selection set, resolved against the schema.
public final class FieldSelection: Sendable {
    /// The alias, or the name when there is none.
    public let responseKey: String
    public let name: String
    /// The arguments, sorted by name.
    public let arguments: [ArgumentField]
    public let type: FieldType
    /// The sub-selections of a composite field; `nil` for leaves.
    public let selections: SelectionSet?
    public let connection: ConnectionDirective?
    public let deleteRecord: DeleteRecordDirective?
    /// The storage key and slot when no argument mentions a variable (computed once).
    public let staticStorageKey: String?
    public let staticSlot: SlotID?
    /// False only under the `storageKeyArgumentsUnsorted` mutant: keys keep the document's order.
    let sortsArguments: Bool
    /// True only under the `nullArgumentsDropped` mutant: keys leave null arguments out.
    let dropsNullArguments: Bool
    /// True only under the `absentInputMemberKeyedNull` mutant.
    let keysAbsentMembersNull: Bool

    public convenience init(
        responseKey: String, name: String, arguments: [ArgumentField], type: FieldType,
        selections: SelectionSet?, connection: ConnectionDirective? = nil,
        deleteRecord: DeleteRecordDirective? = nil
    ) {
        self.init(
            responseKey: responseKey, name: name, arguments: arguments, type: type, selections: selections,
            connection: connection, deleteRecord: deleteRecord, mutant: nil)
    }

    /// A field whose storage keys may put a known bug back (`storageKeyArgumentsUnsorted`).
    package init(
        responseKey: String, name: String, arguments: [ArgumentField], type: FieldType,
        selections: SelectionSet?, connection: ConnectionDirective?, deleteRecord: DeleteRecordDirective?, mutant: Mutant?
    ) {
        sortsArguments = !mutant.isOn(.storageKeyArgumentsUnsorted)
        dropsNullArguments = mutant.isOn(.nullArgumentsDropped)
        keysAbsentMembersNull = mutant.isOn(.absentInputMemberKeyedNull)
        self.responseKey = responseKey
        self.name = name
        self.arguments = sortsArguments ? arguments.sorted { CanonicalJSON.utf8Less($0.name, $1.name) } : arguments
        self.type = type
        self.selections = selections
        self.connection = connection
        self.deleteRecord = deleteRecord
        if self.arguments.allSatisfy(\.value.isStatic) {
            let key = StorageKey.render(name: name, arguments: self.arguments, variables: Variables(), sorted: sortsArguments, dropsNulls: dropsNullArguments, absentMembersNull: keysAbsentMembersNull)
            staticStorageKey = key
            staticSlot = SlotID.named(key)
        } else {
            staticStorageKey = nil
            staticSlot = nil
        }
    }

    /// True for `__typename`, which reads the record's type rather than a slot.
    public var isTypename: Bool { name == "__typename" }

    /// The field's storage key under `variables`: `name(a:1,b:"x")`.
    public func storageKey(_ variables: Variables) -> String {
        staticStorageKey ?? StorageKey.render(
            name: name, arguments: arguments, variables: variables, sorted: sortsArguments, dropsNulls: dropsNullArguments,
            absentMembersNull: keysAbsentMembersNull)
    }

    /// The field's slot under `variables`.
    public func slot(_ variables: Variables) -> SlotID {
        staticSlot ?? SlotID.named(storageKey(variables))
    }

    /// The resolved value of argument `name`, `nil` when absent or null.
    public func argument(_ name: String, _ variables: Variables) -> JSONValue? {
        guard let field = arguments.first(where: { $0.name == name }) else { return nil }
        guard let value = field.value.resolve(variables), value != .null else { return nil }
        return value
    }

    /// The parent's slot name for a `@connection` field: `__key_connection(filters)`.
    public func connectionStorageKey(_ variables: Variables) -> String? {
        guard let connection else { return nil }
        let filtered = arguments.filter { argument in
            if let filters = connection.filters { return filters.contains(argument.name) }
            return !ConnectionDirective.pagingArguments.contains(argument.name)
        }
        return StorageKey.render(
            name: "__" + connection.key + "_connection", arguments: filtered, variables: variables, sorted: sortsArguments,
            dropsNulls: dropsNullArguments, absentMembersNull: keysAbsentMembersNull)
    }
}

/// Storage keys: a field's name and its arguments, as one string.
public enum StorageKey {
    /// `name(a:1,b:"x")`: arguments sorted by name, values as canonical JSON, absent variables
    /// left out at every depth of objects, parentheses dropped when none remain.
    ///
    /// A `null` the document or the variables give stays (`name(a:null)`): the spec's input
    /// coercion tells an explicit null from an argument left out (which takes the schema's
    /// default), so the two may be different values on the server.
    public static func render(name: String, arguments: [ArgumentField], variables: Variables) -> String {
        render(name: name, arguments: arguments, variables: variables, sorted: true, dropsNulls: false, absentMembersNull: false)
    }

    /// `sorted: false` only under the `storageKeyArgumentsUnsorted` mutant, `dropsNulls: true`
    /// only under `nullArgumentsDropped`, `absentMembersNull: true` only under
    /// `absentInputMemberKeyedNull`.
    static func render(
        name: String, arguments: [ArgumentField], variables: Variables, sorted: Bool, dropsNulls: Bool, absentMembersNull: Bool
    ) -> String {
        var parts: [(String, String)] = []
        for argument in arguments {
            guard var value = argument.value.resolve(variables, absentMembersNull: absentMembersNull) else { continue }
            if dropsNulls {
                guard let pruned = prune(value) else { continue }
                value = pruned
            }
            parts.append((argument.name, CanonicalJSON.render(value)))
        }
        if parts.isEmpty { return name }
        if sorted { parts.sort { CanonicalJSON.utf8Less($0.0, $1.0) } }
        return name + "(" + parts.map { $0.0 + ":" + $0.1 }.joined(separator: ",") + ")"
    }

    /// Drops nulls from objects at every depth; `nil` when the value itself is null (the rule
    /// until 2026-12-05, kept for the `nullArgumentsDropped` mutant).
    static func prune(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .null:
            return nil
        case .object(let members):
            var kept: [String: JSONValue] = [:]
            for (key, member) in members {
                if let pruned = prune(member) { kept[key] = pruned }
            }
            return .object(kept)
        case .array(let items):
            return .array(items.map { prune($0) ?? .null })
        default:
            return value
        }
    }
}
