import Baton

/// Draws the variables of an operation from the seed and the server's state, as a real app would
/// send them: ids of entities that exist (sometimes deleted or unknown ones), small page sizes,
/// cursors that join the pages this server last answered (sometimes other real ones, sometimes
/// stale ones), booleans for `@include`/`@skip` (now and then left out for their default, or
/// null where the declared type allows), enum values, strings from a small set that includes
/// tricky ones, and input objects; now and then one more the operation does not declare.
package struct VariableDrawer: Sendable {
    private var random: SimRandom
    /// How values are spelled: a stream of its own, so respelling moves no other choice.
    private var spelling: SimRandom
    /// Whether a screen takes the filters the last one used: a stream of its own.
    private var sharing: SimRandom
    /// Whether the app sends a variable the operation does not declare: a stream of its own.
    private var extras: SimRandom
    /// Whether a condition variable is left out or sent as null: a stream of its own.
    private var conditions: SimRandom
    /// Whether an id is sent as a JSON integer: a stream of its own.
    private var integerIDs: SimRandom
    /// The value last drawn for each plain variable, by its name and type: what a screen that
    /// shares the last screen's filters sends again.
    private var lastValues: [FilterKey: JSONValue] = [:]

    /// A plain variable as screens share it: the same name and the same type.
    private struct FilterKey: Hashable, Sendable {
        var name: String
        var type: GraphQLTypeReference
    }

    package init(random: SimRandom) {
        self.random = random
        spelling = random.split("spelling")
        sharing = random.split("sharing")
        extras = random.split("extras")
        conditions = random.split("conditions")
        integerIDs = random.split("integerIDs")
    }

    /// Variables an app sends to every operation from one shared dictionary (a locale, a client
    /// version, a feature flag), declared by none of the worlds' operations: the store and the
    /// server must drop them, and no identity may hold them.
    package static let sharedExtras: [(name: String, value: JSONValue)] = [
        ("locale", .string("fr-FR")), ("clientVersion", .int(3)), ("withBetaFeatures", .bool(true)), ("first", .int(7)),
    ]

    /// How often an operation's variables carry one of ``sharedExtras`` (since 2026-12-07, late
    /// night: the generator sent declared variables only, and `undeclaredVariablesKept` passed).
    static let extraChance = 1.0 / 10

    /// How often a condition variable with a default is left out, so that the default decides
    /// (since 2026-12-08: the generator sent booleans only).
    static let conditionAbsentChance = 1.0 / 5
    /// How often a condition variable whose declared type is nullable is sent as an explicit
    /// `null`, which stays null (CoerceVariableValues) and counts as false (since 2026-12-08:
    /// the generator sent booleans only, and `absentConditionKeeps` passed).
    static let conditionNullChance = 1.0 / 5

    /// How often an `ID` whose text is a decimal integer is sent as that JSON integer (`4` for
    /// `"4"`), as clients whose ids are numbers in their own models send them, which the spec's
    /// input coercion accepts (since 2026-12-08: the generator sent id text only, and
    /// `idIntKeyedAsString` passed).
    static let integerIDChance = 1.0 / 5

    /// Which way an operation with paging variables pages this time.
    private enum Paging {
        /// The first page again (or the whole list).
        case refresh
        /// `first` and `after`: the next page.
        case forward
        /// `last` and `before`: the previous page.
        case backward
    }

    /// Strings drawn for arguments: few, so that operations meet on the same arguments.
    static let plainStrings = ["a", "b", "rick", "apollo", "main"]
    /// Besides text that breaks decoders, the tricky ones spell pieces of a store's own keys, as a
    /// search or a label may: a connection's slot with its argument list (`is_connection:true`),
    /// the query root's key, a reference's member name, a closing parenthesis and a separator.
    static let trickyStrings = [
        "é", "e\u{301}", "🦄", "quote\"d", "back\\slash", "tab\t", "", "/path", "nul\u{0}",
        "is_connection:true", "x:__a_connection({\"b\":1})", "client:root", "__ref", "a):b(", "c,d:e",
    ]

    /// Variables for `operation` against `server`'s current state.
    package mutating func variables(for operation: WorldOperation, server: Server) -> [String: JSONValue] {
        let uses = server.world.analysis.variables[operation.name] ?? [:]
        let pages = uses.values.contains { use in
            switch use.role {
            case .cursor, .pageSize: true
            default: false
            }
        }
        let paging: Paging = pages ? [.refresh, .forward, .forward, .backward][random.int(0...3)] : .refresh
        // One screen in three is filtered as the last one was (the owner, the labels, the order a
        // user set once): two operations over one connection then meet on the same arguments.
        let sharesFilters = sharing.chance(0.3)
        var values: [String: JSONValue] = [:]
        var cursors: [(name: String, before: Bool, required: Bool)] = []
        for declaration in operation.syntax.variables {
            guard let use = uses[declaration.name] else { continue }
            let name = declaration.name
            let required = declaration.type.isNonNull
            switch use.role {
            case .cursor(let before):
                cursors.append((name, before, required))
            case .pageSize(let last):
                let wanted = paging == .forward && !last || paging == .backward && last || paging == .refresh && !last && random.chance(0.7)
                if wanted || required { values[name] = .int([0, 1, 2, 2, 3, 3, 4][random.int(0...6)]) }
            case .entityID(let types) where declaration.type.listDepth > 0:
                // A bulk edit's ids: mostly one to three (now and then a gone or unknown one), now and then none.
                let count = [1, 1, 2, 2, 3, 0][random.int(0...5)]
                let integer = declaration.type.namedType == "Int"
                values[name] = .array((0..<count).map { _ in Self.idValue(entityID(of: types, server: server), integer: integer) })
            case .entityID(let types):
                values[name] = Self.idValue(entityID(of: types, server: server), integer: WorldTypes.isIntID(declaration.type))
            case .condition:
                values[name] = .bool(random.chance(0.5))
                // Left out only where a default fills it in, null only where the declared type
                // allows it: validation admits a nullable one in `if:` only with a default.
                if declaration.defaultValue != nil, conditions.chance(Self.conditionAbsentChance) {
                    values[name] = nil
                } else if !required, conditions.chance(Self.conditionNullChance) {
                    values[name] = .null
                }
            case .value:
                let key = FilterKey(name: name, type: declaration.type)
                if sharesFilters, let earlier = lastValues[key] {
                    values[name] = earlier
                } else if !required, random.chance(0.1) {
                    if random.chance(0.5) { values[name] = .null }
                } else {
                    values[name] = draw(use.type, server: server, inputIDTypes: use.inputIDTypes, idField: use.inputIDField, depth: 0)
                }
                lastValues[key] = values[name]
            }
        }
        if !cursors.isEmpty {
            let reached = server.reachedConnections(operation, variables: values)
            for cursor in cursors {
                let wanted = paging == .forward && !cursor.before || paging == .backward && cursor.before
                guard wanted || cursor.required else { continue }
                let connection = reached.first { $0.afterVariable == cursor.name || $0.beforeVariable == cursor.name }
                if let value = self.cursor(in: connection, before: cursor.before) {
                    values[cursor.name] = .string(value)
                } else if cursor.required {
                    values[cursor.name] = .string("c-unknown")
                }
            }
        }
        for declaration in operation.syntax.variables {
            guard let value = values[declaration.name] else { continue }
            values[declaration.name] = respelled(value, as: declaration.type, schema: server.world.schema)
        }
        if extras.chance(Self.extraChance) {
            let extra = Self.sharedExtras[extras.int(0...(Self.sharedExtras.count - 1))]
            if !operation.syntax.variables.contains(where: { $0.name == extra.name }) { values[extra.name] = extra.value }
        }
        return values
    }

    /// `value` as another client might write the same thing, which input coercion makes equal: a
    /// whole `Float` without its fraction (JavaScript and Foundation write `2.0` as `2`), an
    /// `Int` or `ID` number as a double (`3.0`), a list of one as its single item; or as input
    /// coercion accepts it: an `ID` whose text is a decimal integer as that integer (`4`).
    private mutating func respelled(_ value: JSONValue, as type: GraphQLTypeReference, schema: Schema) -> JSONValue {
        switch type {
        case .nonNull(let inner):
            return respelled(value, as: inner, schema: schema)
        case .list(let item):
            guard case .array(let items) = value else { return value }
            let each = items.map { respelled($0, as: item, schema: schema) }
            if each.count == 1, each[0] != .null, spelling.chance(0.3) { return each[0] }
            return .array(each)
        case .named(let name):
            switch (name, value) {
            case ("Float", .double(let number)):
                guard let whole = Int(exactly: number), spelling.chance(0.5) else { return value }
                return .int(whole)
            case ("Int", .int(let number)), ("ID", .int(let number)):
                return spelling.chance(0.15) ? .double(Double(number)) : value
            case ("ID", .string(let text)):
                guard let number = Int(text), String(number) == text, integerIDs.chance(Self.integerIDChance) else { return value }
                return .int(number)
            case (_, .object(let members)):
                guard let input = schema.type(named: name), input.kind == .inputObject else { return value }
                var respelled = members
                for field in input.inputFields {
                    if let member = members[field.name] { respelled[field.name] = self.respelled(member, as: field.type, schema: schema) }
                }
                return .object(respelled)
            default:
                return value
            }
        }
    }

    /// Mostly the cursor that joins the last page answered; sometimes another real cursor of the
    /// list; sometimes one that names nothing any more. With no page answered yet, mostly none
    /// (`nil`: the first page).
    private mutating func cursor(in connection: ReachedConnection?, before: Bool) -> String? {
        guard let connection else { return random.chance(0.5) ? nil : "c-unknown" }
        let joining = connection.lastPage.flatMap { before ? $0.start : $0.end }
        let roll = random.int(0...9)
        if let joining, roll < 7 { return joining }
        if joining == nil, roll < 5 { return nil }
        if roll < 9, !connection.cursors.isEmpty {
            return connection.cursors[random.int(0...(connection.cursors.count - 1))]
        }
        return connection.staleCursors.isEmpty ? "c-unknown" : connection.staleCursors[random.int(0...(connection.staleCursors.count - 1))]
    }

    /// The id of a living entity of `types` (any entity type when empty), now and then a deleted
    /// or unknown one.
    private mutating func entityID(of types: [String], server: Server) -> String {
        let roll = random.int(0...99)
        let living = server.idCount(of: types, living: true)
        if roll < 85, living > 0 { return server.id(of: types, living: true, at: random.int(0...(living - 1))) }
        let deleted = server.idCount(of: types, living: false)
        if roll < 93, deleted > 0 { return server.id(of: types, living: false, at: random.int(0...(deleted - 1))) }
        return ["404", "unknown-1", "é404", "e\u{301}404"][random.int(0...3)]
    }

    /// An id drawn for a variable or input field: the text, or for an `Int` id its number (an
    /// unknown id that is no number asks for 404).
    static func idValue(_ id: String, integer: Bool) -> JSONValue {
        integer ? .int(Int(id) ?? 404) : .string(id)
    }

    /// A value of `type`; `inputIDTypes` are the entity types an input object's id field (named
    /// `idField`) names.
    private mutating func draw(
        _ type: GraphQLTypeReference, server: Server, inputIDTypes: [String], idField: String = "id", depth: Int
    ) -> JSONValue {
        switch type {
        case .nonNull(let inner):
            return draw(inner, server: server, inputIDTypes: inputIDTypes, idField: idField, depth: depth)
        case .list(let inner):
            guard depth < 6 else { return .array([]) }
            return .array((0..<random.int(0...2)).map { _ in
                draw(inner, server: server, inputIDTypes: inputIDTypes, idField: idField, depth: depth + 1)
            })
        case .named(let name):
            guard let named = server.world.schema.type(named: name), depth < 8 else { return .null }
            switch named.kind {
            case .enumeration:
                guard !named.enumValues.isEmpty else { return .null }
                return .string(named.enumValues[random.int(0...(named.enumValues.count - 1))].name)
            case .inputObject:
                var members: [String: JSONValue] = [:]
                for field in named.inputFields {
                    if field.name == idField, !inputIDTypes.isEmpty, WorldTypes.isEntityID(field.type, in: server.world.schema) {
                        members[field.name] = Self.idValue(entityID(of: inputIDTypes, server: server), integer: WorldTypes.isIntID(field.type))
                    } else if field.type.isNonNull && field.defaultValue == nil {
                        members[field.name] = draw(field, server: server, depth: depth)
                    } else {
                        let roll = random.int(0...9)
                        if roll < 6 {
                            members[field.name] = draw(field, server: server, depth: depth)
                        } else if roll == 9 {
                            members[field.name] = .null
                        }
                    }
                }
                return .object(members)
            default:
                switch name {
                case "Int": return .int([0, 1, 2, 3, 7, 42, -1][random.int(0...6)])
                case "Float": return .double([0, 0.5, 1.25, 100, -2.5][random.int(0...4)])
                case "Boolean": return .bool(random.chance(0.5))
                case "ID": return .string(entityID(of: inputIDTypes, server: server))
                case "String": return .string(string(server: server))
                default:
                    // A custom scalar (a `BigDecimal`, a `BigInt`, a `JSON` filter): now and then a
                    // number no double holds, whose every digit its storage key must keep, or an
                    // object whose names differ only in their Unicode normalization, each of
                    // which its storage key must keep.
                    if named.kind == .scalar {
                        let roll = random.int(0...9)
                        if roll < 3 { return .decimal(ServerExactNumbers.draw(random.next())) }
                        if roll == 3 { return Self.twinNamedObject(random.int(0...99)) }
                    }
                    return .string(string(server: server))
                }
            }
        }
    }

    /// A value for the input field `field` of an input object drawn at `depth`: for an id named
    /// after an entity type (`userId` beside the edited `id`, as Relay's `RemoveTodoInput` has
    /// it), an id of that type; else any value of its type.
    private mutating func draw(_ field: Schema.InputValue, server: Server, depth: Int) -> JSONValue {
        if field.type.listDepth == 0, WorldTypes.isEntityID(field.type, in: server.world.schema),
            let named = WorldTypes.entityNamed(byIDName: field.name, in: server.world.schema)
        {
            return Self.idValue(entityID(of: [named], server: server), integer: WorldTypes.isIntID(field.type))
        }
        return draw(field.type, server: server, inputIDTypes: [], depth: depth + 1)
    }

    /// A JSON object with two names that Swift's `==` calls equal (`café` precomposed and
    /// decomposed), and two such strings in a list.
    static func twinNamedObject(_ n: Int) -> JSONValue {
        .object(JSONObject(uniquingNames: [
            ("caf\u{E9}", .int(n)), ("cafe\u{301}", .int(n + 1)), ("tags", .array([.string("\u{E9}"), .string("e\u{301}")])),
        ]))
    }

    /// The next page of a connection `variables` just paged: the same arguments, with the page
    /// size and the cursor that joins the page this server last answered (`after` its end cursor,
    /// or `before` its start cursor when `backward`); the other direction's cursor and size left
    /// out. `nil` when the operation has no cursor for that direction, or no page was answered.
    package mutating func nextPage(
        of variables: [String: JSONValue], for operation: WorldOperation, server: Server, backward: Bool
    ) -> [String: JSONValue]? {
        let uses = server.world.analysis.variables[operation.name] ?? [:]
        var next = variables
        var cursorName: String?
        for (name, use) in uses.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            switch use.role {
            case .cursor(let before):
                if before == backward { cursorName = name } else { next[name] = nil }
            case .pageSize(let last):
                next[name] = last == backward ? .int([1, 2, 2, 3][random.int(0...3)]) : nil
            default:
                continue
            }
        }
        guard let cursorName else { return nil }
        let reached = server.reachedConnections(operation, variables: next)
        let connection = reached.first { $0.afterVariable == cursorName || $0.beforeVariable == cursorName }
        guard let page = connection?.lastPage, let cursor = backward ? page.start : page.end else { return nil }
        next[cursorName] = .string(cursor)
        return next
    }

    /// A string from the small set, tricky at the server's rate for strings.
    private mutating func string(server: Server) -> String {
        if random.chance(max(0.05, server.configuration.trickyStringRate)) {
            return Self.trickyStrings[random.int(0...(Self.trickyStrings.count - 1))]
        }
        return Self.plainStrings[random.int(0...(Self.plainStrings.count - 1))]
    }
}
