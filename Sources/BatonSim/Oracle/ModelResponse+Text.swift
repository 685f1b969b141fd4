import Baton

extension ModelResponse {
    /// What a response's text tells the oracle: parsed by the oracle's own JSON parser and walked
    /// against the operation's syntax and the schema (replay files carry literal bodies).
    ///
    /// The same rules as ``from(_:operation:schema:)``, plus what only text can say: an object's
    /// type comes from the schema, or from `__typename` for an interface or union (required
    /// there, and when given for an object type it must name that type); errors with a path land
    /// on the field the path names (trailing list indices dropped, a field absent from `data`
    /// getting a null cell), the last of several winning; others are unplaced.
    package static func normalize(
        text: [UInt8], operation: WorldOperation, variables: [String: JSONValue], schema: Schema
    ) throws(OracleResponseError) -> ModelResponse {
        try normalize(text: text, operation: OracleOperation(operation, schema: schema), variables: variables, schema: schema)
    }

    /// ``normalize(text:operation:variables:schema:)`` for an operation already compiled
    /// (``Oracle/operation(_:)`` keeps one per operation of the world).
    package static func normalize(
        text: [UInt8], operation compiled: OracleOperation, variables: [String: JSONValue], schema: Schema
    ) throws(OracleResponseError) -> ModelResponse {
        let json: OracleJSON
        do {
            json = try OracleJSONParser.parse(text)
        } catch {
            throw OracleResponseError("malformed JSON: \(error)")
        }
        guard case .object = json else { throw OracleResponseError("the response is not a JSON object") }
        if let name = json.repeatedName(deep: false) { throw OracleResponseError("member \(name) given twice at the top of the response") }
        // What the walk works out depends on the operation and on its variables alone: storage
        // keys on all of them (responses under the same variables share those, keyed by the
        // variables' canonical text), which fields apply on the `@include`/`@skip` ones only
        // (responses under the same conditions share those, ``TextWalk/Shapes``).
        let (resolved, identity) = compiled.resolved(variables)
        let conditions = compiled.conditionIdentity(resolved)
        var walk = TextWalk(
            schema: schema, catalog: compiled.catalog, variables: resolved, memo: compiled.walkMemos.take(identity) ?? TextWalk.Memo(),
            shapes: compiled.shapeMemos.take(conditions) ?? TextWalk.Shapes())
        defer {
            compiled.walkMemos.keep(walk.memo, for: identity)
            compiled.shapeMemos.keep(walk.shapes, for: conditions)
        }
        var data = json.member("data")
        var errors: [OracleJSON] = []
        switch json.member("errors") {
        case .array(let items)?: errors = items
        case .null?, nil: break
        default: throw OracleResponseError("errors is not a list")
        }
        // Nulls a server left where they fell, carried up as the specification would have. Only
        // an error can vouch for one: without errors, any such null refuses the response (the
        // simulator's server never sends one unnamed, but a garbled response or a replay file's
        // may; seed 5 of the default world found the model reading one as it stood).
        if case .object? = data {
            let errorPaths = errors.compactMap { TextWalk.fieldError($0).1 }
            let settled = try walk.settlingNulls(
                data!, sets: [compiled.selections], rootType: compiled.rootTypename, errorPaths: errorPaths)
            if settled.carried {
                // What a carried null replaces is read no further, but it must keep the rules all
                // the same (docs/design.md, "Bad input"): a walk of its own reads the data as it
                // stands, nulls where they fell, and its answer is thrown away.
                var checking = TextWalk(schema: schema, catalog: compiled.catalog, variables: resolved)
                checking.recordsMet = false
                _ = try checking.object(
                    data!, sets: [compiled.selections], declaredType: compiled.rootTypename,
                    place: .fixed(compiled.rootKey), path: [])
            }
            data = settled.data ?? .null
        }
        // Only errors look objects up by their path.
        walk.recordsMet = !errors.isEmpty
        switch data {
        case .object?:
            walk.response.hasData = true
            _ = try walk.object(
                data!, sets: [compiled.selections], declaredType: compiled.rootTypename,
                place: .fixed(compiled.rootKey), path: [])
        case .null?:
            break
        case nil:
            if errors.isEmpty { throw OracleResponseError("the response has neither data nor errors") }
        default:
            throw OracleResponseError("data is neither an object nor null")
        }
        for error in errors {
            // An error object's members, and what is kept of it as JSON (a message that is not a
            // string, `extensions`, an error that is not an object), are read as a map.
            if let name = TextWalk.repeatedName(inError: error) { throw OracleResponseError("member \(name) given twice in an error") }
            if TextWalk.holdsNumberOutOfRange(inError: error) { throw OracleResponseError("a number out of range in an error") }
            walk.place(error)
        }
        walk.response.givePagesTheirErrors()
        return walk.response
    }
}

/// One walk of a response's JSON against an operation's selections.
struct TextWalk {
    typealias Step = ProvenanceError.PathComponent

    /// Where an object's record hangs when it has no usable id.
    enum Place {
        case fixed(OracleText)
        case path(parent: OracleText, slot: OracleText, index: [Int])
    }

    /// An object met in `data`: its record, the fields that applied to it, and its members as
    /// the response wrote them (for an error's path to find a null it steps through).
    struct Met {
        var key: OracleText
        var fields: [OracleMergedField]
        var members: [OracleJSONMember]
    }

    /// The fields that apply to one type under one list of sets, looked up by response key (a
    /// class: every object of the type hands the memo's one copy around).
    final class Fields: Sendable {
        let merged: [OracleMergedField]
        let byKey: [OracleText: Int]
        /// The response keys of the leaf fields named `id` among `merged`.
        let idKeys: [OracleText]
        /// The kind of the `id`'s type: an `Int` id takes a whole number written with a fraction or
        /// an exponent too, and an `ID` an integer past 64 bits (kept as its digits).
        let idKind: OracleFieldKind?
        /// Per field of `merged`, what the schema says of it (`nil` for `__typename`, or a field
        /// the type does not have: the walk refuses it when met).
        let resolved: [ResolvedField?]
        /// Per field of `merged`, where its values may hold a null the schema does not allow
        /// (`nil`: nowhere, `__typename`, or a field the type does not have).
        let nullProbes: [NullProbe?]

        init(
            merged: [OracleMergedField], byKey: [OracleText: Int], idKeys: [OracleText], idKind: OracleFieldKind?,
            resolved: [ResolvedField?], nullProbes: [NullProbe?]
        ) {
            self.merged = merged
            self.byKey = byKey
            self.idKeys = idKeys
            self.idKind = idKind
            self.resolved = resolved
            self.nullProbes = nullProbes
        }
    }

    /// One field of one type as the walk writes it, worked out once per shape: the schema's
    /// definition, its kind, and its `@deleteRecord` (its storage key and arguments depend on
    /// the variables: ``slot(of:)``).
    struct ResolvedField {
        var namedType: String
        var listDepth: Int
        var kind: OracleFieldKind
        var deleteRecord: OracleDeleteDirective?
    }

    /// Values worked out per list of sets and type name, the usual single set kept apart so that
    /// its lookup builds no array per object.
    struct ShapeMemo<Value: Sendable>: Sendable {
        private struct Key: Hashable {
            var sets: [ObjectIdentifier]
            var typename: String
        }

        private struct SingleSetKey: Hashable {
            var set: ObjectIdentifier
            var typename: String
        }

        private var many: [Key: Value] = [:]
        private var single: [SingleSetKey: Value] = [:]

        func known(_ sets: [OracleSelectionSet], _ typename: String) -> Value? {
            if sets.count == 1 { return single[SingleSetKey(set: ObjectIdentifier(sets[0]), typename: typename)] }
            return many[Key(sets: sets.map(ObjectIdentifier.init), typename: typename)]
        }

        mutating func keep(_ value: Value, _ sets: [OracleSelectionSet], _ typename: String) {
            if sets.count == 1 {
                single[SingleSetKey(set: ObjectIdentifier(sets[0]), typename: typename)] = value
            } else {
                many[Key(sets: sets.map(ObjectIdentifier.init), typename: typename)] = value
            }
        }
    }

    let schema: Schema
    /// The schema's fields, looked up once each.
    let catalog: OracleFieldCatalog
    let variables: [String: JSONValue]
    var response = ModelResponse()
    /// Every object of `data` by its response path, for errors to find their field.
    var met: [[Step]: Met] = [:]
    /// False when the response has no errors: then nothing looks up `met`.
    var recordsMet = true
    /// What the walk worked out under its variables (which never change), kept for the next
    /// walk of the same operation under the same variables.
    private(set) var memo: Memo
    /// What the walk worked out under its `@include`/`@skip` variables, kept for the next walk
    /// of the same operation under the same conditions.
    private(set) var shapes: Shapes

    /// Memo of a walk under its variables: each field's resolved arguments and storage key.
    struct Memo {
        var slots: [ObjectIdentifier: (slot: OracleText, arguments: [String: JSONValue])] = [:]
    }

    /// Memos of a walk that depend on the operation, the schema and the conditions only: the
    /// fields that apply per sets and type, and where `__typename` may come.
    struct Shapes {
        var fields = ShapeMemo<Fields>()
        var typenameFacts = ShapeMemo<(keys: [OracleText], isObjectType: Bool)>()
    }

    init(
        schema: Schema, catalog: OracleFieldCatalog, variables: [String: JSONValue], memo: Memo = Memo(),
        shapes: Shapes = Shapes()
    ) {
        self.schema = schema
        self.catalog = catalog
        self.variables = variables
        self.memo = memo
        self.shapes = shapes
    }

    mutating func object(
        _ json: OracleJSON, sets: [OracleSelectionSet], declaredType: String, place: Place, path: [Step]
    ) throws(OracleResponseError) -> OracleText {
        guard case .object(let members) = json else { throw OracleResponseError("expected an object", path: TextWalk.dotted(path)) }
        if let name = json.repeatedName(deep: false) { throw OracleResponseError("member \(name) given twice", path: TextWalk.dotted(path)) }
        let typename = try self.typename(members, sets: sets, declaredType: declaredType, path: TextWalk.dotted(path))
        let applying = self.fields(sets, typename)
        let fields = applying.merged
        let key = try self.key(members, idKeys: applying.idKeys, idKind: applying.idKind, typename: typename, place: place, path: TextWalk.dotted(path))
        response.open(key, typename: typename)
        if recordsMet { met[path] = Met(key: key, fields: fields, members: members) }
        for member in members {
            guard let position = applying.byKey[member.key], !fields[position].field.isTypename else { continue }
            let merged = fields[position]
            let field = merged.field
            guard let resolved = applying.resolved[position] else {
                throw OracleResponseError("\(typename) has no field \(field.name)", path: TextWalk.dotted(path + [.key(member.key.string)]))
            }
            let (slot, arguments) = self.slot(of: field)
            let value: OracleValue
            do throws(OracleResponseError) {
                if resolved.kind == .composite {
                    value = try composite(
                        member.value, merged: merged, namedType: resolved.namedType, parent: key, slot: slot,
                        depth: resolved.listDepth, index: [], path: path + [.key(member.key.string)])
                } else {
                    value = try OracleLeaf.value(member.value, kind: resolved.kind, depth: resolved.listDepth)
                }
            } catch {
                throw error.path.isEmpty ? OracleResponseError(error.message, path: TextWalk.dotted(path + [.key(member.key.string)])) : error
            }
            response.write(key, typename: typename, slot: slot, cell: OracleCell(value))
            if let directive = resolved.deleteRecord {
                response.delete(value, directive)
            }
            if let directive = field.connection {
                var pageType = resolved.namedType
                if let server = value.linkTarget, let record = response.records[server] { pageType = record.typename }
                response.pages.append(OraclePage.make(
                    directive, arguments: arguments, parent: key, fieldSlot: slot, typename: pageType, server: value.linkTarget))
            }
        }
        return key
    }

    mutating func composite(
        _ json: OracleJSON, merged: OracleMergedField, namedType: String, parent: OracleText, slot: OracleText,
        depth: Int, index: [Int], path: [Step]
    ) throws(OracleResponseError) -> OracleValue {
        if case .null = json { return .null }
        if depth == 0 {
            return .link(try object(
                json, sets: merged.subselections, declaredType: namedType,
                place: .path(parent: parent, slot: slot, index: index), path: path))
        }
        guard case .array(let items) = json else { throw OracleResponseError("expected a list", path: TextWalk.dotted(path)) }
        if depth == 1 {
            var keys: [OracleText?] = []
            for (position, item) in items.enumerated() {
                if case .null = item {
                    keys.append(nil)
                    continue
                }
                keys.append(try object(
                    item, sets: merged.subselections, declaredType: namedType,
                    place: .path(parent: parent, slot: slot, index: index + [position]), path: path + [.index(position)]))
            }
            return .links(keys)
        }
        var values: [OracleValue] = []
        for (position, item) in items.enumerated() {
            values.append(try composite(
                item, merged: merged, namedType: namedType, parent: parent, slot: slot, depth: depth - 1,
                index: index + [position], path: path + [.index(position)]))
        }
        return .list(values)
    }

    /// The fields of `typename` under `sets`, memoized for the walk's conditions.
    mutating func fields(_ sets: [OracleSelectionSet], _ typename: String) -> Fields {
        if let known = shapes.fields.known(sets, typename) { return known }
        let fields = makeFields(sets, typename)
        shapes.fields.keep(fields, sets, typename)
        return fields
    }

    private mutating func makeFields(_ sets: [OracleSelectionSet], _ typename: String) -> Fields {
        let merged = OracleSelectionSet.merged(sets, for: typename, variables: variables, schema: schema)
        var byKey: [OracleText: Int] = [:]
        for (position, field) in merged.enumerated() { byKey[OracleText(field.field.node.responseKey)] = position }
        let idKeys = merged.filter { $0.field.name == "id" && $0.field.selections == nil }.map { OracleText($0.field.node.responseKey) }
        var resolved: [ResolvedField?] = []
        var nullProbes: [NullProbe?] = []
        resolved.reserveCapacity(merged.count)
        nullProbes.reserveCapacity(merged.count)
        for field in merged {
            guard !field.field.isTypename else {
                resolved.append(nil)
                nullProbes.append(nil)
                continue
            }
            let definedOn = self.definedOn(field.field, typename)
            nullProbes.append(schema.field(field.field.name, on: definedOn).flatMap { NullProbe($0.type, schema: schema) })
            guard let definition = catalog.entry(field.field.name, on: definedOn), let kind = definition.kind else {
                resolved.append(nil)
                continue
            }
            resolved.append(ResolvedField(
                namedType: definition.namedType, listDepth: definition.listDepth, kind: kind,
                deleteRecord: field.all.lazy.compactMap(\.deleteRecord).first))
        }
        let idKind = merged.indices.first { merged[$0].field.name == "id" && merged[$0].field.selections == nil }.flatMap { resolved[$0]?.kind }
        return Fields(merged: merged, byKey: byKey, idKeys: idKeys, idKind: idKind, resolved: resolved, nullProbes: nullProbes)
    }

    /// The type whose definition of `field` a record of `typename` reads: its own, unless the
    /// type is outside those the field's set can meet; then the type the field is written on.
    func definedOn(_ field: OracleField, _ typename: String) -> String {
        OracleSelectionSet.isForeign(typename, to: field.parentType, schema: schema) ? field.parentType : typename
    }

    /// A field's storage key and resolved arguments, memoized for the walk's variables.
    mutating func slot(of field: OracleField) -> (slot: OracleText, arguments: [String: JSONValue]) {
        if let known = memo.slots[ObjectIdentifier(field)] { return known }
        let arguments = field.arguments(variables)
        let result = (OracleKeys.fieldSlot(name: field.name, arguments: arguments), arguments)
        memo.slots[ObjectIdentifier(field)] = result
        return result
    }

    /// The object's type: the schema's for an object type (a `__typename` given must agree),
    /// the response's `__typename` for an interface or union.
    mutating func typename(
        _ members: [OracleJSONMember], sets: [OracleSelectionSet], declaredType: String, path: @autoclosure () -> String
    ) throws(OracleResponseError) -> String {
        let (keys, isObjectType) = typenameFacts(sets, declaredType)
        // Every member that gives `__typename` speaks for the object's type, whether the
        // selection names it or a network layer added it: each must be a name, and all must
        // name one type, the schema's for an object type.
        var found: OracleText?
        for given in members where keys.contains(given.key) {
            guard case .string(let name) = given.value else { throw OracleResponseError("__typename is not a string", path: path()) }
            // The spec's grammar makes a type's name ASCII letters, digits and underscores, so
            // no other text is any server's type (nor, compared by bytes, the schema's).
            guard TextWalk.isName(name.bytes) else {
                throw OracleResponseError("__typename \(Legible.quoted(name.string)) is no type's name", path: path())
            }
            let expected = isObjectType ? OracleText(declaredType) : found ?? name
            guard name == expected else {
                throw OracleResponseError(
                    "__typename \(Legible.quoted(name.string)) contradicts \(isObjectType ? "the schema's type" : "the object's other __typename") \(expected.string)",
                    path: path())
            }
            found = name
        }
        if isObjectType { return declaredType }
        guard let found else { throw OracleResponseError("missing __typename for abstract type \(declaredType)", path: path()) }
        return found.string
    }

    /// Whether `bytes` spell a GraphQL name: `[_A-Za-z][_0-9A-Za-z]*`.
    static func isName(_ bytes: [UInt8]) -> Bool {
        func letter(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
        }
        guard let first = bytes.first, letter(first) else { return false }
        return bytes.dropFirst().allSatisfy { letter($0) || (0x30...0x39).contains($0) }
    }

    /// The response keys `__typename` may come under for an object of `declaredType` read by
    /// `sets`, and whether that type is an object type; memoized (they depend on neither the
    /// response nor the variables).
    private mutating func typenameFacts(_ sets: [OracleSelectionSet], _ declaredType: String) -> (keys: [OracleText], isObjectType: Bool) {
        if let known = shapes.typenameFacts.known(sets, declaredType) { return known }
        var keys: [OracleText] = ["__typename"]
        for set in sets { TextWalk.typenameKeys(set, declaredType: declaredType, into: &keys) }
        let facts = (keys: keys, isObjectType: schema.type(named: declaredType)?.kind == .object)
        shapes.typenameFacts.keep(facts, sets, declaredType)
        return facts
    }

    /// The response keys of `__typename` fields that apply whatever the object's type.
    static func typenameKeys(_ set: OracleSelectionSet, declaredType: String, into keys: inout [OracleText]) {
        for item in set.items {
            switch item {
            case .field(let field):
                if field.isTypename, !keys.contains(OracleText(field.node.responseKey)) {
                    keys.append(OracleText(field.node.responseKey))
                }
            case .fragment(let condition, _, let inner):
                if condition == nil || condition == declaredType { typenameKeys(inner, declaredType: declaredType, into: &keys) }
            }
        }
    }

    /// The record key: the root's own, `Type:id` when a leaf field named `id` applies and the
    /// response gives it a string or an integer, the path key when it gives `null`.
    func key(
        _ members: [OracleJSONMember], idKeys: [OracleText], idKind: OracleFieldKind? = nil, typename: String, place: Place,
        path: @autoclosure () -> String
    ) throws(OracleResponseError) -> OracleText {
        let parent: OracleText, slot: OracleText, index: [Int]
        switch place {
        case .fixed(let key): return key
        case .path(let p, let s, let i): (parent, slot, index) = (p, s, i)
        }
        guard !idKeys.isEmpty else { return ProvenanceWalk.pathKey(parent: parent, slot: slot, index: index) }
        guard let member = members.first(where: { idKeys.contains($0.key) }) else {
            throw OracleResponseError("missing required id", path: path())
        }
        switch member.value {
        case .string(let id): return OracleKeys.entity(typename: typename, id: id.string)
        case .int(let id): return OracleKeys.entity(typename: typename, id: String(id))
        case .negativeZero: return OracleKeys.entity(typename: typename, id: "0")
        // An `Int` id written with a fraction or an exponent (`7.0`): the field's own value is
        // read by its type below, which also refuses one past 32 bits.
        case .decimal(_, let whole) where idKind == .int: return OracleKeys.entity(typename: typename, id: String(whole))
        case .longInteger(_, let digits) where idKind == .id: return OracleKeys.entity(typename: typename, id: digits.string)
        case .null: return ProvenanceWalk.pathKey(parent: parent, slot: slot, index: index)
        default: throw OracleResponseError("an id that is neither a string nor an integer", path: path())
        }
    }

    // MARK: Errors

    /// Puts one element of `errors` on the field its path names (or the field holding a null the
    /// path steps through), or among the unplaced ones.
    mutating func place(_ error: OracleJSON) {
        var (fieldError, steps) = TextWalk.fieldError(error)
        guard response.hasData, var steps else {
            response.unplacedErrors.append(fieldError)
            return
        }
        var trailing: [Int] = []
        while case .index(let index)? = steps.last {
            trailing.insert(index, at: 0)
            steps.removeLast()
        }
        guard let (parent, merged, nullElement) = landing(steps) else {
            response.unplacedErrors.append(fieldError)
            return
        }
        fieldError.elementIndices = nullElement ?? trailing
        let (slot, arguments) = self.slot(of: merged.field)
        let typename = response.records[parent.key]?.typename ?? ""
        let held = response.records[parent.key]?.cells[slot]
        if held == nil, let directive = merged.field.connection {
            // A connection the response left out reads as the null it stands for: its page is
            // the one an explicit `null` brings.
            let field = merged.field
            let pageType = catalog.entry(field.name, on: definedOn(field, typename))?.namedType ?? field.definition?.type.namedType ?? ""
            response.pages.append(OraclePage.make(
                directive, arguments: arguments, parent: parent.key, fieldSlot: slot, typename: pageType, server: nil))
        }
        var cell = held ?? OracleCell(.null)
        cell.errors.append(fieldError)
        response.write(parent.key, typename: typename, slot: slot, cell: cell)
    }

    /// Where an error whose path is `steps` (no trailing indices) belongs: walking `data` from
    /// its top, each key a selected member of the object there, each index an element of the
    /// list there, it is the field the last key names, or the field whose value (or an element of
    /// it, at any depth) is the first `null` the walk meets before its end. A spec server keeps,
    /// for a null it propagated, the path of the field that failed below it: the error explains
    /// that null, and `nullElement` then holds where the null stands among the field's list
    /// elements (empty for the field's own null; `nil` when the walk met no null). `nil` for a
    /// missing member, a step into a leaf, past a list's end, a key where a list stands, or
    /// `__typename`.
    func landing(_ steps: [Step]) -> (parent: Met, field: OracleMergedField, nullElement: [Int]?)? {
        guard case .key? = steps.last else { return nil }
        var objectPath: [Step] = []
        var position = 0
        while true {
            guard let object = met[objectPath], case .key(let name) = steps[position] else { return nil }
            let wanted = OracleText(name)
            guard let merged = object.fields.first(where: { OracleText($0.field.node.responseKey) == wanted }),
                !merged.field.isTypename
            else { return nil }
            if position == steps.count - 1 { return (object, merged, nil) }
            guard merged.field.selections != nil, var value = object.members.first(where: { $0.key == wanted })?.value else {
                return nil
            }
            objectPath.append(.key(name))
            position += 1
            var element: [Int] = []
            while true {
                if case .null = value { return (object, merged, element) }
                guard case .array(let items) = value else { break }
                guard case .index(let index) = steps[position], index < items.count else { return nil }
                value = items[index]
                element.append(index)
                objectPath.append(.index(index))
                position += 1
            }
            guard case .object = value else { return nil }
        }
    }

    /// A member name an error gives twice where a reader takes it in: among the error's own
    /// members, or anywhere inside what is kept of it as JSON (every member but `path`, whose
    /// elements are only strings and numbers to a reader).
    static func repeatedName(inError error: OracleJSON) -> OracleText? {
        guard case .object(let members) = error else { return error.repeatedName(deep: true) }
        if let name = error.repeatedName(deep: false) { return name }
        for member in members where member.key != "path" {
            if let name = member.value.repeatedName(deep: true) { return name }
        }
        return nil
    }

    /// True when what is kept of an error as JSON (the whole error when it is not an object, else
    /// every member but `path`) holds a number past a double's range.
    static func holdsNumberOutOfRange(inError error: OracleJSON) -> Bool {
        guard case .object(let members) = error else { return error.holdsNumberOutOfRange || error.holdsNumberPastExactRange }
        return members.contains { $0.key != "path" && ($0.value.holdsNumberOutOfRange || $0.value.holdsNumberPastExactRange) }
    }

    /// A response error as a field error, with its path when the path is well formed (strings
    /// and non-negative integers). A message that is not a string is kept as its JSON.
    static func fieldError(_ error: OracleJSON) -> (OracleFieldError, [Step]?) {
        guard case .object = error else {
            return (OracleFieldError(message: OracleText(OracleCanonical.render(error)), path: ""), nil)
        }
        let message: OracleText
        switch error.member("message") {
        case .string(let text)?: message = text
        case .null?, nil: message = ""
        case let other?: message = OracleText(OracleCanonical.render(other))
        }
        var extensions: OracleText?
        if let value = error.member("extensions"), value != .null { extensions = OracleText(OracleCanonical.render(value)) }
        // What is left once the spec's message, path and extensions are taken: kept together.
        var others: OracleText?
        if case .object(let members) = error {
            let spec: [OracleText] = ["message", "path", "extensions"]
            let rest = members.filter { !spec.contains($0.key) }
            if !rest.isEmpty { others = OracleText(OracleCanonical.render(.object(rest))) }
        }
        var steps: [Step]?
        if case .array(let items)? = error.member("path") {
            var path: [Step] = []
            for item in items {
                switch item {
                case .string(let key): path.append(.key(key.string))
                case .int(let index) where index >= 0: path.append(.index(index))
                case .negativeZero: path.append(.index(0))
                default: break
                }
            }
            if path.count == items.count { steps = path }
        }
        let dotted = OracleText(steps.map(TextWalk.dotted) ?? "")
        return (OracleFieldError(message: message, path: dotted, extensions: extensions, otherMembers: others), steps)
    }

    static func dotted(_ path: [Step]) -> String {
        ProvenanceWalk.dotted(path).string
    }
}
