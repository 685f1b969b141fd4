import Baton

// MARK: - The operation as the generator keeps it

/// An input value as written in the operation text.
indirect enum GenValue: Sendable {
    case int(Int)
    case float(Double)
    case string(String, block: Bool)
    case boolean(Bool)
    case null
    case enumValue(String)
    case list([GenValue])
    case object([(String, GenValue)])
    case variable(String)

    /// A structural description: equal for values written alike (spelling aside).
    var identity: String {
        switch self {
        case .int(let i): "i\(i)"
        case .float(let d): "f\(d)"
        case .string(let s, _): "s" + GenCanonical.render(.string(s))
        case .boolean(let b): "b\(b)"
        case .null: "null"
        case .enumValue(let name): "e" + name
        case .list(let items): "[" + items.map(\.identity).joined(separator: ",") + "]"
        case .object(let fields): "{" + fields.map { "\($0.0):\($0.1.identity)" }.joined(separator: ",") + "}"
        case .variable(let name): "$" + name
        }
    }

    /// The value as JSON when it mentions no variable (enum values become strings).
    var constant: JSONValue? {
        switch self {
        case .int(let i): return .int(i)
        case .float(let d): return .double(d)
        case .string(let s, _): return .string(s)
        case .boolean(let b): return .bool(b)
        case .null: return .null
        case .enumValue(let name): return .string(name)
        case .variable: return nil
        case .list(let items):
            var out: [JSONValue] = []
            for item in items {
                guard let value = item.constant else { return nil }
                out.append(value)
            }
            return .array(out)
        case .object(let fields):
            var out: [String: JSONValue] = [:]
            for (name, value) in fields {
                guard let json = value.constant else { return nil }
                out[name] = json
            }
            return .object(out)
        }
    }
}

/// `@include(if: …)` (`include` true) or `@skip(if: …)`.
struct GenDirective: Sendable {
    enum Condition: Sendable {
        case literal(Bool)
        case variable(String)
    }

    let include: Bool
    let condition: Condition
}

/// One field of a selection set.
struct GenFieldSelection: Sendable {
    var alias: String?
    let name: String
    let arguments: [(String, GenValue)]
    var directives: [GenDirective]
    /// Sub-selections of a composite field; `nil` for leaves.
    var selections: [GenSelection]?

    var responseKey: String { alias ?? name }
}

/// One entry of a selection set.
indirect enum GenSelection: Sendable {
    case field(GenFieldSelection)
    case inline(typeCondition: String?, directives: [GenDirective], selections: [GenSelection])
    case spread(name: String, directives: [GenDirective])
}

extension GenSelection {
    /// True for an unaliased `id` field.
    var isPlainID: Bool {
        if case .field(let field) = self { return field.name == "id" && field.alias == nil }
        return false
    }
}

/// A named fragment.
struct GenFragment: Sendable {
    let name: String
    let typeCondition: String
    let selections: [GenSelection]
}

/// A declared variable and what the property passes for it.
struct GenVariable: Sendable {
    let name: String
    let type: GenTypeRef
    let defaultValue: GenValue?
    /// The value in the variables object; `nil`: left out.
    let provided: JSONValue?
    /// Declared for `@include`/`@skip` (always has a Boolean value).
    let isCondition: Bool

    /// What the variable means during execution: the provided value, else the default, else absent.
    var effective: JSONValue? { provided ?? defaultValue?.constant }
}

/// One generated operation: its parts, its text and its variables.
struct GenOperation: Sendable {
    let kind: OperationKind
    let name: String?
    let variables: [GenVariable]
    let selections: [GenSelection]
    let fragments: [GenFragment]
    /// Per object type with an `id` field and per field name (`"Post.best"`): whether every
    /// selection on objects of that type reached through fields of that name selects `id`.
    let selectsID: [String: Bool]

    /// Whether objects of type `typename` reached through fields named `field` select `id`.
    func selectsID(_ typename: String, through field: String) -> Bool {
        selectsID[typename + "." + field] ?? false
    }
    /// The operation text (the operation, then its fragments).
    let text: String

    var rootTypename: String { kind == .mutation ? "Mutation" : "Query" }
    var rootKey: String { kind == .mutation ? "client:root:mutation" : "client:root" }

    /// The variables the property passes, as a JSON object (absent ones left out).
    var providedVariables: [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for variable in variables {
            if let value = variable.provided { out[variable.name] = value }
        }
        return out
    }

    /// The variables object as JSON text (keys sorted).
    var variablesText: String { GenCanonical.render(.object(providedVariables)) }

    func variable(_ name: String) -> GenVariable? {
        variables.first { $0.name == name }
    }

    func fragment(_ name: String) -> GenFragment {
        guard let fragment = fragments.first(where: { $0.name == name }) else { preconditionFailure("no fragment \(name)") }
        return fragment
    }
}

// MARK: - Generation

/// Generates one operation and its variables from a seed.
///
/// Validity rules it keeps: a response key means one field with one set of arguments in the whole
/// operation (so fields sharing a key always merge); every selection on an abstract type selects
/// `__typename` unconditionally; for each object type with an `id` and each field name, either
/// every selection on objects of that type reached through fields of that name selects `id`
/// unconditionally or none does (so the objects a record's slot links to never depend on which
/// selection wrote the slot); fragments never form cycles and are all used; variables are all
/// declared and used, of the type of their position, `@include`/`@skip` variables `Boolean!` or
/// `Boolean` with a default.
struct GenOperationBuilder {
    static let maximumDepth = 4
    static let maximumFragments = 3

    let schema = GenSchema.shared
    var rng: GenRandom
    private var variables: [GenVariable] = []
    private var fragments: [GenFragment] = []
    /// The field depth each fragment was generated at: it may be spread at that depth or less.
    private var fragmentDepths: [Int] = []
    private var bindings: [Binding] = []
    private var bindingIndex: [String: Int] = [:]
    private var budget: Int
    private var selectsID: [String: Bool] = [:]
    private var counter = 0

    /// A response key's one meaning in the operation.
    private struct Binding {
        let alias: String?
        let name: String
        let arguments: [(String, GenValue)]
        let identity: String
    }

    static let aliasPool = [
        "a", "b", "c", "x1", "other", "name", "title", "first", "node", "_under", "k9", "camelCase",
        "LONG_ALIAS", "count", "user", "value", "ratio", "tags",
    ]

    init(seed: UInt64) {
        rng = GenRandom(seed: seed)
        budget = rng.int(10...45)
        // Whether `id` is selected depends on the object's type and the name of the field that
        // reaches it: a record's slot then always links to the same key, whichever selection
        // wrote it, while one type can be keyed by id through one field and by path through another.
        let schema = GenSchema.shared
        for type in schema.types where type.kind == .object || type.kind == .interface {
            for field in type.fields where schema.type(field.type.namedType).isComposite {
                for object in schema.possibleTypes(of: field.type.namedType) where schema.field("id", on: object) != nil {
                    let key = object + "." + field.name
                    if selectsID[key] == nil { selectsID[key] = rng.chance(75) }
                }
            }
        }
    }

    mutating func build() -> GenOperation {
        let kind: OperationKind = rng.chance(15) ? .mutation : .query
        let rootType = kind == .mutation ? "Mutation" : "Query"
        let named = rng.chance(75)
        var selections: [GenSelection] = []
        let count = rng.int(2...5)
        for _ in 0..<count {
            selections.append(contentsOf: selectionSet(on: rootType, depth: 0, withTypename: false, count: 1))
        }
        if rng.chance(5) { selections.append(.field(typenameField())) }
        let name = named ? rng.pick(["Op", "Generated", "q", "Mixed_Case9", "Read"]) + (kind == .mutation ? "Mutation" : "") : nil
        var printer = GenOperationPrinter(style: rng.split())
        let operationVariables = variables
        var text = printer.document(
            kind: kind, name: name, variables: operationVariables, selections: selections, fragments: fragments)
        if name != nil, rng.chance(15) {
            // Another operation in the document: the plan must pick this one by its name.
            let other = "query Other_\(rng.below(100))($seed: Int = 1) { __typename numbers(seed: $seed) }\n"
            text = rng.chance(50) ? other + text : text + other
        }
        return GenOperation(
            kind: kind, name: name, variables: operationVariables, selections: selections, fragments: fragments,
            selectsID: selectsID, text: text)
    }

    // MARK: Selection sets

    /// A selection set on `typeName` whose fields sit at `depth` (0: the root's fields).
    ///
    /// `nesting` counts the fragments this set sits in since the last field: fragments nest at
    /// most two deep between fields, so operations spend their size on fields.
    private mutating func selectionSet(
        on typeName: String, depth: Int, withTypename: Bool, nesting: Int = 0, count: Int? = nil
    ) -> [GenSelection] {
        let type = schema.type(typeName)
        var out: [GenSelection] = []
        if withTypename { out.append(typenameSelection(on: type)) }
        let count = count ?? (budget > 0 ? rng.int(nesting > 0 ? 1...2 : 1...4) : 1)
        let fragments = nesting < 2 && budget > 0 ? 2 : 0
        for _ in 0..<count {
            switch rng.weighted([type.kind == .union ? 0 : 14, fragments, fragments, 1]) {
            case 0:
                out.append(.field(field(on: type, depth: depth)))
            case 1:
                out.append(inlineFragment(in: type, depth: depth, nesting: nesting + 1))
            case 2:
                if let spread = spread(in: type, depth: depth, nesting: nesting + 1) { out.append(spread) }
            default:
                var typename = typenameField()
                typename.directives = directives()
                out.append(.field(typename))
            }
        }
        if out.isEmpty {
            out.append(.field(type.kind == .union ? typenameField() : field(on: type, depth: depth, leafOnly: true)))
        }
        return out
    }

    /// An unconditional `__typename` for a selection on an abstract type: a field, or the field
    /// inside a fragment that always applies there (no type condition, the type itself, or an
    /// abstract type every possible type of this one belongs to).
    private mutating func typenameSelection(on type: GenType) -> GenSelection {
        let typename = GenSelection.field(typenameField())
        let possible = schema.possibleTypes(of: type.name)
        let covering = schema.compositeTypes.map(\.name).filter { candidate in
            candidate != type.name && possible.allSatisfy { schema.isPossible($0, of: candidate) }
        }
        switch rng.weighted([14, 2, 2, 1, covering.isEmpty ? 0 : 3]) {
        case 1:
            return .inline(typeCondition: nil, directives: [], selections: [typename])
        case 2:
            return .inline(typeCondition: type.name, directives: [], selections: [typename])
        case 4:
            let aliased = rng.chance(60) ? GenSelection.field(typenameField(aliased: true)) : typename
            return .inline(typeCondition: rng.pick(covering), directives: [], selections: [aliased])
        case 3 where fragments.count < GenOperationBuilder.maximumFragments:
            counter += 1
            fragments.append(GenFragment(name: "TypeOf\(type.name)\(counter)", typeCondition: type.name, selections: [typename]))
            fragmentDepths.append(-1)
            return .spread(name: fragments[fragments.count - 1].name, directives: [])
        default:
            return typename
        }
    }

    /// `__typename`, sometimes (or, with `aliased`, always) under an alias.
    private mutating func typenameField(aliased: Bool = false) -> GenFieldSelection {
        var alias: String?
        if aliased || rng.chance(25) {
            alias = bindableAlias(for: "__typename()", preferred: rng.pick(["t", "kind", "type", "typeName"]))
        }
        bind(alias: alias, name: "__typename", arguments: [], identity: "__typename()")
        return GenFieldSelection(alias: alias, name: "__typename", arguments: [], directives: [], selections: nil)
    }

    /// A field of `type` (an object or interface type).
    private mutating func field(on type: GenType, depth: Int, leafOnly: Bool = false) -> GenFieldSelection {
        budget -= 1
        let nestable = !leafOnly && depth < GenOperationBuilder.maximumDepth - 1 && budget > 0
        // Sometimes the very field some other selection already named: its key, name and arguments.
        if rng.chance(25) {
            let reusable = bindings.filter { binding in
                guard binding.name != "__typename", binding.name != "id",
                      let definition = schema.field(binding.name, on: type.name) else { return false }
                let composite = schema.type(definition.type.namedType).isComposite
                if composite && !nestable { return false }
                let known = binding.arguments.allSatisfy { argument in definition.arguments.contains { $0.name == argument.0 } }
                let required = definition.arguments.filter(\.type.isNonNull).allSatisfy { argument in
                    binding.arguments.contains { $0.0 == argument.name }
                }
                return known && required
            }
            if !reusable.isEmpty {
                let binding = rng.pick(reusable)
                let definition = schema.field(binding.name, on: type.name)!
                return GenFieldSelection(
                    alias: binding.alias, name: binding.name, arguments: binding.arguments, directives: directives(),
                    selections: subselections(of: definition, depth: depth))
            }
        }
        let leaves = type.fields.filter { $0.name != "id" && !schema.type($0.type.namedType).isComposite }
        let composites = type.fields.filter { schema.type($0.type.namedType).isComposite }
        let candidates = nestable && !composites.isEmpty && (leaves.isEmpty || rng.chance(depth == 0 ? 75 : 45)) ? composites : leaves
        guard !candidates.isEmpty else { return typenameField() }
        let definition = rng.pick(candidates)
        let arguments = self.arguments(for: definition)
        let identity = definition.name + "(" + arguments.map { "\($0.0):\($0.1.identity)" }.sorted().joined(separator: ",") + ")"
        var alias: String?
        if rng.chance(30) { alias = rng.pick(GenOperationBuilder.aliasPool) }
        alias = bindableAlias(for: identity, preferred: alias ?? definition.name)
        if alias == definition.name { alias = rng.chance(20) ? alias : nil }
        bind(alias: alias, name: definition.name, arguments: arguments, identity: identity)
        return GenFieldSelection(
            alias: alias, name: definition.name, arguments: arguments, directives: directives(),
            selections: subselections(of: definition, depth: depth))
    }

    /// `preferred` when it is free or already means `identity`, else a fresh alias.
    private mutating func bindableAlias(for identity: String, preferred: String) -> String {
        if let index = bindingIndex[preferred], bindings[index].identity != identity {
            counter += 1
            return "r\(counter)"
        }
        return preferred
    }

    private mutating func bind(alias: String?, name: String, arguments: [(String, GenValue)], identity: String) {
        let key = alias ?? name
        if let index = bindingIndex[key] {
            precondition(bindings[index].identity == identity, "response key \(key) bound twice")
            return
        }
        bindingIndex[key] = bindings.count
        bindings.append(Binding(alias: alias, name: name, arguments: arguments, identity: identity))
    }

    /// The sub-selections of a composite field (with `id` where the type's rule wants it), `nil` for a leaf.
    private mutating func subselections(of definition: GenField, depth: Int) -> [GenSelection]? {
        let named = schema.type(definition.type.namedType)
        guard named.isComposite else { return nil }
        var selections = selectionSet(on: named.name, depth: depth + 1, withTypename: named.isAbstract)
        addIdentity(to: &selections, on: named, through: definition.name)
        return selections
    }

    /// Adds the unconditional `id` selections the rule asks for objects reached through `field`.
    private mutating func addIdentity(to selections: inout [GenSelection], on type: GenType, through field: String) {
        let possible = schema.possibleTypes(of: type.name)
        let wanting = possible.filter { selectsID[$0 + "." + field] == true }
        // Now and then an `id` that the variables drop, for a type whose objects here go without.
        for object in possible where selectsID[object + "." + field] == false && rng.chance(12) {
            let dropped = GenFieldSelection(alias: nil, name: "id", arguments: [], directives: [excludingDirective()], selections: nil)
            bind(alias: nil, name: "id", arguments: [], identity: "id()")
            let selection: GenSelection = type.kind == .object
                ? .field(dropped) : .inline(typeCondition: object, directives: [], selections: [.field(dropped)])
            selections.insert(selection, at: rng.below(selections.count + 1))
        }
        guard !wanting.isEmpty else { return }
        // `id`, sometimes `ident: id`, sometimes both.
        let plain = GenFieldSelection(alias: nil, name: "id", arguments: [], directives: [], selections: nil)
        var ids: [GenSelection] = [.field(plain)]
        if rng.chance(15) {
            let alias = bindableAlias(for: "id()", preferred: "ident")
            bind(alias: alias, name: "id", arguments: [], identity: "id()")
            let aliased = GenSelection.field(GenFieldSelection(alias: alias, name: "id", arguments: [], directives: [], selections: nil))
            ids = rng.chance(50) ? [aliased] : rng.shuffled([aliased, .field(plain)])
        }
        if ids.count > 1 || ids[0].isPlainID { bind(alias: nil, name: "id", arguments: [], identity: "id()") }
        var added: [GenSelection] = []
        if type.kind == .object {
            added = rng.chance(15) ? [.inline(typeCondition: nil, directives: [], selections: ids)] : ids
        } else if wanting.count == schema.possibleTypes(of: type.name).count, schema.field("id", on: type.name) != nil, rng.chance(60) {
            added = ids
        } else {
            added = wanting.map { .inline(typeCondition: $0, directives: [], selections: ids) }
        }
        for selection in added {
            selections.insert(selection, at: rng.below(selections.count + 1))
        }
    }


    // MARK: Fragments

    /// The composite types a fragment inside `parent` may be conditioned on.
    private func fragmentConditions(in parent: GenType) -> [String] {
        let possible = schema.possibleTypes(of: parent.name)
        return schema.compositeTypes.map(\.name).filter { candidate in
            schema.possibleTypes(of: candidate).contains { possible.contains($0) }
        }
    }

    private mutating func inlineFragment(in parent: GenType, depth: Int, nesting: Int) -> GenSelection {
        budget -= 1
        let condition: String? = rng.chance(20) ? nil : rng.pick(fragmentConditions(in: parent))
        let body = selectionSet(on: condition ?? parent.name, depth: depth, withTypename: false, nesting: nesting)
        return .inline(typeCondition: condition, directives: directives(), selections: body)
    }

    private mutating func spread(in parent: GenType, depth: Int, nesting: Int) -> GenSelection? {
        budget -= 1
        let conditions = fragmentConditions(in: parent)
        let reusable = fragments.indices.filter { conditions.contains(fragments[$0].typeCondition) && fragmentDepths[$0] >= depth }
        let index: Int
        if !reusable.isEmpty, rng.chance(50) || fragments.count >= GenOperationBuilder.maximumFragments {
            index = rng.pick(reusable)
        } else if fragments.count < GenOperationBuilder.maximumFragments {
            let condition = rng.pick(conditions)
            let body = selectionSet(
                on: condition, depth: depth, withTypename: schema.type(condition).isAbstract && rng.chance(30), nesting: nesting)
            counter += 1
            let name = rng.pick(["Parts", "F", "fragment_", "More"]) + String(counter)
            fragments.append(GenFragment(name: name, typeCondition: condition, selections: body))
            fragmentDepths.append(depth)
            index = fragments.count - 1
        } else {
            return nil
        }
        return .spread(name: fragments[index].name, directives: directives())
    }

    // MARK: Directives

    private mutating func directives() -> [GenDirective] {
        var out: [GenDirective] = []
        if rng.chance(8) { out.append(GenDirective(include: true, condition: condition())) }
        if rng.chance(7) { out.append(GenDirective(include: false, condition: condition())) }
        if out.count == 2, rng.chance(50) { out.reverse() }
        return out
    }

    /// A directive that drops its selection under the operation's variables.
    private mutating func excludingDirective() -> GenDirective {
        let condition = self.condition()
        let value: Bool
        switch condition {
        case .literal(let b):
            value = b
        case .variable(let name):
            guard case .bool(let b)? = variables.first(where: { $0.name == name })?.effective else {
                preconditionFailure("condition variable \(name) has no Boolean value")
            }
            value = b
        }
        return GenDirective(include: !value, condition: condition)
    }

    private mutating func condition() -> GenDirective.Condition {
        if rng.chance(35) { return .literal(rng.chance(50)) }
        let existing = variables.filter(\.isCondition)
        if !existing.isEmpty, rng.chance(50) { return .variable(rng.pick(existing).name) }
        counter += 1
        let name = rng.pick(["show", "hide", "cond", "with_extra"]) + String(counter)
        if rng.chance(60) {
            variables.append(GenVariable(
                name: name, type: GenTypeRef("Boolean!"), defaultValue: nil, provided: .bool(rng.chance(50)), isCondition: true))
        } else {
            let fallback = rng.chance(50)
            variables.append(GenVariable(
                name: name, type: GenTypeRef("Boolean"), defaultValue: .boolean(fallback),
                provided: rng.chance(50) ? nil : .bool(rng.chance(50)), isCondition: true))
        }
        return .variable(name)
    }

    // MARK: Arguments and variables

    private mutating func arguments(for field: GenField) -> [(String, GenValue)] {
        var out: [(String, GenValue)] = []
        for argument in field.arguments where argument.type.isNonNull || rng.chance(45) {
            out.append((argument.name, inputValue(argument.type, depth: 0, variablesAllowed: true)))
        }
        return rng.chance(25) ? rng.shuffled(out) : out
    }

    /// A value for a position of type `type`.
    private mutating func inputValue(_ type: GenTypeRef, depth: Int, variablesAllowed: Bool) -> GenValue {
        if variablesAllowed, rng.chance(depth == 0 ? 30 : 15) {
            return .variable(variable(for: type))
        }
        if case .nonNull(let inner) = type { return literal(inner, depth: depth, variablesAllowed: variablesAllowed) }
        if rng.chance(8) { return .null }
        return literal(type, depth: depth, variablesAllowed: variablesAllowed)
    }

    /// A non-null literal of `type` (itself nullable: the outer `!` is stripped).
    private mutating func literal(_ type: GenTypeRef, depth: Int, variablesAllowed: Bool) -> GenValue {
        switch type {
        case .nonNull(let inner):
            return literal(inner, depth: depth, variablesAllowed: variablesAllowed)
        case .list(let inner):
            // Input coercion takes a single item for a list; a variable may not stand for it.
            if rng.chance(6) { return inputValue(inner, depth: depth + 1, variablesAllowed: false) }
            let count = depth >= 3 ? 0 : rng.int(0...3)
            return .list((0..<count).map { _ in inputValue(inner, depth: depth + 1, variablesAllowed: variablesAllowed) })
        case .named(let name):
            let named = schema.type(name)
            switch named.kind {
            case .enumeration:
                return .enumValue(rng.pick(named.values))
            case .input:
                var fields: [(String, GenValue)] = []
                for field in named.inputFields where rng.chance(50) {
                    let nested = schema.type(field.type.namedType).kind == .input
                    if nested && depth >= 2 { continue }
                    fields.append((field.name, inputValue(field.type, depth: depth + 1, variablesAllowed: variablesAllowed)))
                }
                return .object(rng.chance(30) ? rng.shuffled(fields) : fields)
            case .scalar:
                switch name {
                case "Int": return .int(GenValues.int(&rng))
                case "Float": return rng.chance(75) ? .float(GenValues.double(&rng)) : .int(rng.int(-5...5))
                case "String":
                    let text = rng.chance(10) ? GenValues.lines(&rng) : GenValues.string(&rng)
                    return .string(text, block: GenOperationPrinter.canBeBlockString(text) && rng.chance(25))
                case "Boolean": return .boolean(rng.chance(50))
                case "ID": return rng.chance(70) ? .string(GenValues.id(&rng), block: false) : .int(rng.int(0...99))
                default: return customLiteral(depth: depth)
                }
            default:
                preconditionFailure("\(name) is not an input type")
            }
        }
    }

    /// A literal for the `JSON` scalar: an object of literals (enum-like names become strings).
    private mutating func customLiteral(depth: Int) -> GenValue {
        var fields: [(String, GenValue)] = []
        var names = rng.shuffled(["a", "b", "z", "key", "Zeta", "_x", "n2"])
        for _ in 0..<rng.int(0...3) {
            let name = names.removeLast()
            let value: GenValue
            switch rng.below(depth >= 2 ? 6 : 8) {
            case 0: value = .int(GenValues.wideInt(&rng))
            case 1: value = .float(GenValues.double(&rng))
            case 2: value = .string(GenValues.string(&rng), block: false)
            case 3: value = .boolean(rng.chance(50))
            case 4: value = .null
            case 5: value = .enumValue(rng.pick(["RED", "SOME_NAME", "on"]))
            case 6: value = .list([.int(1), .string("two", block: false), .null])
            default: value = customLiteral(depth: depth + 1)
            }
            fields.append((name, value))
        }
        return .object(fields)
    }

    /// A variable usable at a position of type `type`: an existing one or a new declaration.
    private mutating func variable(for type: GenTypeRef) -> String {
        let fitting = variables.filter { !$0.isCondition && ($0.type == type || $0.type == .nonNull(type)) }
        if !fitting.isEmpty, rng.chance(35) { return rng.pick(fitting).name }
        counter += 1
        let name = rng.pick(["v", "id", "first", "text", "input", "filter_", "Arg"]) + String(counter)
        var declared = type
        if !type.isNonNull, rng.chance(25) { declared = .nonNull(type) }
        var defaultValue: GenValue?
        if !declared.isNonNull, rng.chance(35) {
            defaultValue = inputValue(declared, depth: 1, variablesAllowed: false)
        }
        let provided: JSONValue?
        if declared.isNonNull {
            provided = variableValue(declared, depth: 0)
        } else if defaultValue != nil {
            provided = rng.chance(45) ? nil : variableValue(declared, depth: 0)
        } else {
            provided = rng.chance(20) ? nil : variableValue(declared, depth: 0)
        }
        variables.append(GenVariable(name: name, type: declared, defaultValue: defaultValue, provided: provided, isCondition: false))
        return name
    }

    /// A JSON value for a variable of type `type`.
    private mutating func variableValue(_ type: GenTypeRef, depth: Int) -> JSONValue {
        switch type {
        case .nonNull(let inner):
            return nonNullVariableValue(inner, depth: depth)
        default:
            return rng.chance(10) ? .null : nonNullVariableValue(type, depth: depth)
        }
    }

    private mutating func nonNullVariableValue(_ type: GenTypeRef, depth: Int) -> JSONValue {
        switch type {
        case .nonNull(let inner):
            return nonNullVariableValue(inner, depth: depth)
        case .list(let inner):
            let count = depth >= 3 ? 0 : rng.int(0...3)
            return .array((0..<count).map { _ in variableValue(inner, depth: depth + 1) })
        case .named(let name):
            let named = schema.type(name)
            switch named.kind {
            case .enumeration:
                return .string(rng.pick(named.values))
            case .input:
                var members: [String: JSONValue] = [:]
                for field in named.inputFields where rng.chance(50) {
                    if schema.type(field.type.namedType).kind == .input && depth >= 2 { continue }
                    members[field.name] = variableValue(field.type, depth: depth + 1)
                }
                return .object(members)
            case .scalar:
                switch name {
                case "Int": return .int(GenValues.int(&rng))
                case "Float": return rng.chance(75) ? .double(GenValues.double(&rng)) : .int(rng.int(-5...5))
                case "String": return .string(GenValues.string(&rng))
                case "Boolean": return .bool(rng.chance(50))
                case "ID": return rng.chance(70) ? .string(GenValues.id(&rng)) : .int(rng.int(0...99))
                default: return GenValues.customObject(&rng, depth: 1).jsonValue
                }
            default:
                preconditionFailure("\(name) is not an input type")
            }
        }
    }
}
