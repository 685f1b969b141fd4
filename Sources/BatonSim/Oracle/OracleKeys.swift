import Baton

/// Record keys, storage keys and operation identities, written from the specification
/// (docs/design.md, "The store's rules, as the model checks them").
package enum OracleKeys {
    /// The query root.
    package static let queryRoot: OracleText = "client:root"
    /// The record mutation payloads hang from.
    package static let mutationRoot: OracleText = "client:root:mutation"
    /// The record subscription payloads hang from.
    package static let subscriptionRoot: OracleText = "client:root:subscription"

    /// The paging arguments, never part of a connection's identity when no filters are named.
    package static let pagingArguments: Set<String> = ["first", "last", "after", "before"]

    /// The record an operation of `kind` starts from.
    package static func root(of kind: OperationKind) -> OracleText {
        switch kind {
        case .query: queryRoot
        case .mutation: mutationRoot
        case .subscription: subscriptionRoot
        }
    }

    /// True for the three operation roots, which collection never sweeps.
    package static func isOperationRoot(_ key: OracleText) -> Bool {
        key == queryRoot || key == mutationRoot || key == subscriptionRoot
    }

    /// An entity's key: `Type:id`, every `\` and `:` of the id preceded by a `\`, so that no
    /// entity's key is also the path of an object under another record (`Thing` `1:meta` against
    /// `Thing:1`'s field `meta`). A `client` whose id is `root` would still be the query root:
    /// its key is `client:\root` (a `\` before an `r` is no escape's).
    package static func entity(typename: String, id: String) -> OracleText {
        var key = typename + ":"
        if id == "root" && typename == "client" { return OracleText(key + "\\" + id) }
        for character in id.unicodeScalars {
            if character == "\\" || character == ":" { key.unicodeScalars.append("\\") }
            key.unicodeScalars.append(character)
        }
        return OracleText(key)
    }

    /// The key of an object without an id: `parent:storageKey`, or `parent:storageKey:index` for
    /// an item of a list (a list of lists adds one `:index` per level).
    package static func path(parent: OracleText, storageKey: OracleText, index: Int? = nil) -> OracleText {
        var text = parent.string + ":" + storageKey.string
        if let index { text += ":" + String(index) }
        return OracleText(text)
    }

    /// A field's storage key (its slot name): `name(a:1,b:"x")`.
    ///
    /// `arguments` are resolved values; an argument that is absent (not given, or an absent
    /// variable) is simply not in the dictionary. An explicit `null` is a value like any other
    /// (the spec's coercion keeps it, where a left-out argument takes the schema's default), at
    /// every depth; values are canonical JSON, arguments are sorted by the UTF-8 bytes of their
    /// names, and the parentheses go when there are none.
    package static func fieldSlot(name: String, arguments: [String: JSONValue]) -> OracleText {
        guard !arguments.isEmpty else { return OracleText(name) }
        var parts: [(name: OracleText, value: String)] = []
        for (argument, value) in arguments {
            parts.append((OracleText(argument), OracleCanonical.render(value)))
        }
        parts.sort { $0.name < $1.name }
        return OracleText(name + "(" + parts.map { $0.name.string + ":" + $0.value }.joined(separator: ",") + ")")
    }

    // MARK: Connections

    /// The parent's slot that links to a connection's client record: `__<key>_connection` with
    /// the filter arguments (the named filters, or every argument but the paging ones).
    package static func connectionSlot(key: String, filters: [String]?, arguments: [String: JSONValue]) -> OracleText {
        let kept = arguments.filter { name, _ in
            if let filters { return filters.contains(name) }
            return !pagingArguments.contains(name)
        }
        return fieldSlot(name: "__" + key + "_connection", arguments: kept)
    }

    /// The client record of a connection: `client:<parent>:<slot>`, a parent that is itself a
    /// client record not prefixed twice.
    package static func connectionRecord(parent: OracleText, slot: OracleText) -> OracleText {
        let base = parent.hasPrefix("client:") ? parent.string : "client:" + parent.string
        return OracleText(base + ":" + slot.string)
    }

    /// The page info record a connection owns.
    package static func pageInfo(of connection: OracleText) -> OracleText {
        connection.appending(":pageInfo")
    }

    /// The `index`-th edge copy a connection owns.
    package static func edgeCopy(of connection: OracleText, index: Int) -> OracleText {
        connection.appending(":edges:" + String(index))
    }

    /// The number `n` of an edge copy `<connection>:edges:<n>`, or `nil` for any other key.
    package static func edgeCopyIndex(_ key: OracleText, of connection: OracleText) -> Int? {
        let prefix = connection.string + ":edges:"
        guard key.hasPrefix(prefix) else { return nil }
        let digits = key.string.utf8.dropFirst(prefix.utf8.count)
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    // MARK: Operations

    /// An operation's identity: its name, then its variables as canonical JSON.
    package static func operationIdentity(name: String?, variables: [String: JSONValue]) -> OracleText {
        OracleText((name ?? "anonymous") + OracleCanonical.render(.object(variables)))
    }
}

/// Values written in GraphQL syntax, resolved against an operation's variables.
package enum OracleArguments {
    /// The variables an operation runs with: each declared variable's provided value (even an
    /// explicit `null`), else its default; undeclared ones dropped, absent ones absent.
    package static func variables(declared: [Document.VariableDeclaration], provided: [String: JSONValue]) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for declaration in declared {
            if let value = provided[declaration.name] {
                values[declaration.name] = value
            } else if let fallback = declaration.defaultValue, let value = resolve(fallback, [:]) {
                values[declaration.name] = value
            }
        }
        return values
    }

    /// A value as JSON: enum values as strings; `nil` for an absent variable. Inside a list an
    /// absent variable is `null`; inside an input object it leaves its member out.
    package static func resolve(_ value: GraphQLValue, _ variables: [String: JSONValue]) -> JSONValue? {
        switch value {
        case .variable(let name, _): return variables[name]
        case .int(let i): return .int(i)
        case .float(let d): return .double(d)
        // A number as written: what the model's own JSON reading makes of the same text.
        case .decimal(let text): return (try? OracleJSONParser.parse(text))?.jsonValue ?? .string(text)
        case .string(let s): return .string(s)
        case .boolean(let b): return .bool(b)
        case .null: return .null
        case .enumeration(let name): return .string(name)
        case .list(let items): return .array(items.map { resolve($0, variables) ?? .null })
        case .object(let fields):
            var members: [String: JSONValue] = [:]
            for field in fields {
                if let member = resolve(field.value, variables) { members[field.name] = member }
            }
            return .object(members)
        }
    }

    /// A field's arguments, resolved; absent ones left out.
    package static func resolve(_ arguments: [GraphQLArgument], _ variables: [String: JSONValue]) -> [String: JSONValue] {
        var resolved: [String: JSONValue] = [:]
        for argument in arguments {
            if let value = resolve(argument.value, variables) { resolved[argument.name] = value }
        }
        return resolved
    }
}
