import Baton

extension ModelResponse {
    /// What an execution tells the oracle, read from its provenance: the executor's objects,
    /// fields, resolved arguments and directives, never the response's bytes.
    ///
    /// An object is keyed `Type:id` when it carries a field named `id` whose value is not null,
    /// else by its path from the record it hangs from; `__typename` is the record's type.
    ///
    /// `catalog` (of `schema`) spares looking fields up in the schema again; a run keeps one.
    package static func from(
        _ execution: Execution, operation: WorldOperation, schema: Schema, catalog: OracleFieldCatalog? = nil
    ) throws(OracleResponseError) -> ModelResponse {
        var walk = ProvenanceWalk(schema: schema, catalog: catalog ?? OracleFieldCatalog(schema: schema))
        // An unplaced error is about no field's element: it keeps what its path alone says.
        walk.response.unplacedErrors = execution.unplacedErrors.map {
            OracleFieldError(
                message: OracleText($0.message), path: ProvenanceWalk.dotted($0.path), extensions: ProvenanceWalk.extensions(of: $0),
                otherMembers: ProvenanceWalk.otherMembers(of: $0))
        }
        if let data = execution.data {
            walk.response.hasData = true
            _ = try walk.object(data, fixedKey: OracleKeys.root(of: operation.kind), parent: nil, slot: nil, index: [])
        }
        // Errors land after the data, on the field's final cell (as a response's `errors` are
        // read after its `data`): a record met twice keeps the later value beside the error.
        // Several errors on one field are all kept, in the order of the response's `errors`.
        var position: [ProvenanceError: Int] = [:]
        for (index, error) in execution.errors.enumerated() { position[error] = index }
        let ordered = walk.errors.enumerated().sorted {
            (position[$0.element.source] ?? $0.offset, $0.offset) < (position[$1.element.source] ?? $1.offset, $1.offset)
        }.map(\.element)
        for placed in ordered {
            var cell = walk.response.records[placed.key]?.cells[placed.slot] ?? OracleCell(.null)
            cell.errors.append(placed.error)
            walk.response.records[placed.key]?.cells[placed.slot] = cell
        }
        walk.response.givePagesTheirErrors()
        return walk.response
    }
}

/// One walk over an execution's provenance.
struct ProvenanceWalk {
    let schema: Schema
    /// The schema's fields, looked up once each.
    let catalog: OracleFieldCatalog
    var response = ModelResponse()
    /// Field errors in the order met, placed once the data is written.
    var errors: [(key: OracleText, slot: OracleText, error: OracleFieldError, source: ProvenanceError)] = []

    init(schema: Schema, catalog: OracleFieldCatalog) {
        self.schema = schema
        self.catalog = catalog
    }

    /// The record of `object`, its cells written; returns its key.
    ///
    /// `fixedKey` is an operation root's key; otherwise an object without a usable id is keyed
    /// `parent:slot`, with one `:i` per list level in `index`.
    mutating func object(
        _ object: ProvenanceObject, fixedKey: OracleText?, parent: OracleText?, slot: OracleText?, index: [Int]
    ) throws(OracleResponseError) -> OracleText {
        let typename = object.typename
        let key = try Self.key(of: object, fixedKey: fixedKey, parent: parent, slot: slot, index: index, catalog: catalog)
        response.open(key, typename: typename)
        for field in object.fields where field.name != "__typename" {
            guard let definition = catalog.entry(field.name, on: typename), let kind = definition.kind else {
                throw OracleResponseError("\(typename) has no field \(field.name)", path: field.responseKey)
            }
            let slot = OracleKeys.fieldSlot(name: field.name, arguments: field.arguments)
            let value: OracleValue
            if kind == .composite {
                value = try composite(field.value, parent: key, slot: slot, depth: definition.listDepth, index: [])
            } else {
                value = try OracleLeaf.value(try Self.tree(field.value), kind: kind, depth: definition.listDepth)
            }
            response.write(key, typename: typename, slot: slot, cell: OracleCell(value))
            for error in field.errors { errors.append((key, slot, Self.fieldError(error), error)) }
            if let directive = OracleDeleteDirective(field.directives) {
                response.delete(value, directive)
            }
            if let directive = OracleConnectionDirective(field.directives) {
                var pageType = definition.namedType
                if case .object(let page) = field.value { pageType = page.typename }
                response.pages.append(OraclePage.make(
                    directive, arguments: field.arguments, parent: key, fieldSlot: slot, typename: pageType, server: value.linkTarget))
            }
        }
        return key
    }

    /// The value of a composite field: a link, links for a list, lists of those for deeper lists.
    mutating func composite(
        _ value: ProvenanceValue, parent: OracleText, slot: OracleText, depth: Int, index: [Int]
    ) throws(OracleResponseError) -> OracleValue {
        switch value {
        case .null, .nulled:
            return .null
        case .object(let object):
            guard depth == 0 else { throw OracleResponseError("an object where a list belongs", path: slot.string) }
            return .link(try self.object(object, fixedKey: nil, parent: parent, slot: slot, index: index))
        case .list(let items):
            guard depth > 0 else { throw OracleResponseError("a list where an object belongs", path: slot.string) }
            if depth == 1 {
                var keys: [OracleText?] = []
                for (position, item) in items.enumerated() {
                    switch item {
                    case .null, .nulled: keys.append(nil)
                    case .object(let object):
                        keys.append(try self.object(object, fixedKey: nil, parent: parent, slot: slot, index: index + [position]))
                    default: throw OracleResponseError("a list item that is not an object", path: slot.string)
                    }
                }
                return .links(keys)
            }
            var values: [OracleValue] = []
            for (position, item) in items.enumerated() {
                values.append(try composite(item, parent: parent, slot: slot, depth: depth - 1, index: index + [position]))
            }
            return .list(values)
        case .scalar:
            throw OracleResponseError("a scalar where an object belongs", path: slot.string)
        }
    }

    /// `Type:id` when the object has a field named `id` (a leaf) that is not null; the operation
    /// root's own key; else the path key.
    static func key(
        of object: ProvenanceObject, fixedKey: OracleText?, parent: OracleText?, slot: OracleText?, index: [Int],
        catalog: OracleFieldCatalog
    ) throws(OracleResponseError) -> OracleText {
        if let fixedKey { return fixedKey }
        for field in object.fields where field.name == "id" {
            guard let definition = catalog.entry("id", on: object.typename), definition.kind != .composite else { continue }
            let text: String
            switch field.value {
            case .scalar(.string(let id)): text = id
            case .scalar(.int(let id)): text = String(id)
            case .null: return try pathKey(parent: parent, slot: slot, index: index)
            default: throw OracleResponseError("an id that is neither a string nor an integer", path: field.responseKey)
            }
            if let serverID = object.id, serverID != text {
                throw OracleResponseError("the id field says \(text), the provenance \(serverID)", path: field.responseKey)
            }
            return OracleKeys.entity(typename: object.typename, id: text)
        }
        return try pathKey(parent: parent, slot: slot, index: index)
    }

    static func pathKey(parent: OracleText?, slot: OracleText?, index: [Int]) throws(OracleResponseError) -> OracleText {
        guard let parent, let slot else { throw OracleResponseError("an object with no place to hang from") }
        return pathKey(parent: parent, slot: slot, index: index)
    }

    /// `parent:slot`, then `:i` per list level (the inner levels fold into the storage key as
    /// the store's convention has it: `parent:slot:i:j`).
    static func pathKey(parent: OracleText, slot: OracleText, index: [Int]) -> OracleText {
        guard let last = index.last else { return OracleKeys.path(parent: parent, storageKey: slot) }
        let inner = index.dropLast().reduce(slot.string) { $0 + ":" + String($1) }
        return OracleKeys.path(parent: parent, storageKey: OracleText(inner), index: last)
    }

    /// A leaf value of the provenance as a JSON tree.
    static func tree(_ value: ProvenanceValue) throws(OracleResponseError) -> OracleJSON {
        switch value {
        case .null, .nulled: return .null
        case .scalar(let json): return OracleJSON(json)
        case .list(let items):
            var trees: [OracleJSON] = []
            for item in items { trees.append(try tree(item)) }
            return .array(trees)
        case .object(let object): throw OracleResponseError("an object of type \(object.typename) where a leaf belongs")
        }
    }

    static func fieldError(_ error: ProvenanceError) -> OracleFieldError {
        OracleFieldError(
            message: OracleText(error.message), path: dotted(error.path), extensions: extensions(of: error),
            otherMembers: otherMembers(of: error), elementIndices: error.elementIndices)
    }

    /// An error's other members as the model keeps them: the canonical text of one object.
    static func otherMembers(of error: ProvenanceError) -> OracleText? {
        error.otherMembers.map { members in
            OracleText(OracleCanonical.render(.object(members.map { OracleJSONMember(key: OracleText($0.name), value: OracleJSON($0.value)) })))
        }
    }

    /// An error's extensions as the model keeps them: their canonical text.
    static func extensions(of error: ProvenanceError) -> OracleText? {
        error.extensions.map { members in
            OracleText(OracleCanonical.render(.object(members.map { OracleJSONMember(key: OracleText($0.name), value: OracleJSON($0.value)) })))
        }
    }

    /// A response path as text: keys and indices joined by dots.
    static func dotted(_ path: [ProvenanceError.PathComponent]) -> OracleText {
        OracleText(path.map { component in
            switch component {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }.joined(separator: "."))
    }
}
