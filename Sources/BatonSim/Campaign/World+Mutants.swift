import Baton

// Which planted bugs a world can show: tooling for `baton sim mutants` and the tests, kept out of
// the World folder, which the server and the model read (it names Baton's `Mutant` cases).

extension World {
    /// Why this world cannot show `mutant`'s bug at all, or `nil` when it can. A planted bug in a
    /// feature the world's operations never use survives every seed of it, and says nothing of
    /// the simulator: `baton sim mutants --check` reports it as not applicable there.
    package func cannotShow(_ mutant: Mutant) -> String? {
        switch mutant {
        case .deleteRecordFirstOnly:
            let bulkDeletes = analysis.mutations.values.contains { edits in edits.values.contains { $0.many && $0.deletes } }
            return bulkDeletes ? nil : "no mutation deletes by a list of ids (`ids: [ID!]!` with a @deleteRecord list)"
        case .readBackKeepsFirstSelection:
            return selectsACompositeFieldTwice ? nil : "no operation selects a field with subfields twice in one object (a fragment selecting it again)"
        case .recordTypeNeverWritten:
            return selectsType("PageInfo") ? nil : "no operation selects a PageInfo, the one record type the bug leaves out"
        case .storageKeyArgumentsUnsorted:
            let unsorted = anyField { node, _ in
                let names = node.arguments.map(\.name)
                return zip(names, names.dropFirst()).contains { !$0.utf8.lexicographicallyPrecedes($1.utf8) }
            }
            return unsorted ? nil : "no field is written with its arguments out of name order, so sorting them changes no key"
        case .nullArgumentsDropped:
            let mayBeNull = anyField { node, definition in
                node.arguments.contains { argument in
                    definition.arguments.first { $0.name == argument.name }.map { mayHoldNull($0.type) } ?? false
                }
            }
            return mayBeNull ? nil : "every argument written is non-null, inputs inside it too, so no key holds a null"
        case .nullCursorOverwrites, .connectionEdgesSwept, .connectionNodesReplaced, .unjoinedPagesUnreported,
             .connectionErrorsUnread, .joinedListErrorsDropped, .failedNodesWipeJoined:
            return usesConnectionDirective ? nil : "no operation pages a field with @connection, so no page joins a connection"
        case .connectionsToldByShape:
            // The drawer's strings spell `_connection:` (a label, a search), but a campaign's seeds
            // seldom page a connection filtered by one and then keep it by a header alone (300
            // seeds of GitHub's IssueList and IssueCount did not): only a literal in the document
            // shows the bug within a mutant's bound.
            // A string at any depth of a written argument: a list of labels holds one as well.
            let spelled = anyField { node, _ in
                node.directives.contains { $0.name == "connection" }
                    && node.arguments.contains { Self.writes($0.value, stringContaining: "_connection:") }
            }
            return spelled ? nil : "no @connection field is given a string holding _connection:, the text the old rule took for a record under a connection"
        case .connectionKeyReadForward:
            // A plain field of the query root (a record keyed `client:root:…`) whose key holds
            // `_connection(` inside a string: written in the document, or drawn into an input
            // object (the drawer's `x:__a_connection({"b":1})`, whose brackets then pair up).
            func spells(_ value: GraphQLValue) -> Bool {
                if case .object = value, !value.isConstant { return true }
                return Self.writes(value, stringContaining: "_connection(")
            }
            let reaches = operations.contains { operation in
                operation.kind == .query && operation.syntax.selections.contains { selection in
                    // The bug keeps edges: a field with none to keep shows nothing (the default
                    // world's filtered character page, whose strings the drawer spells so, passed
                    // 1,000 seeds under the mutant).
                    guard case .field(let field) = selection, let selections = field.selections,
                          selections.contains(where: { if case .field(let inner) = $0 { inner.name == "edges" } else { false } })
                    else { return false }
                    return !field.directives.contains { $0.name == "connection" } && field.arguments.contains { spells($0.value) }
                }
            }
            return reaches ? nil : "no plain field of the query root that selects edges is given a string holding _connection( (written, or drawn into an input object), which the old rule read as a connection's arguments"
        case .retypedLinksUnnoticed:
            // A record keyed by its place (no id selected) of an abstract type, whose selections
            // reach links under one type's condition: a later response may find another type there.
            func linksUnderCondition(_ selections: [Document.SelectionNode]) -> Bool {
                selections.contains { selection in
                    guard case .inlineFragment(let fragment) = selection, fragment.typeCondition != nil else { return false }
                    return fragment.selections.contains { if case .field(let field) = $0 { field.selections != nil } else { false } }
                }
            }
            let reaches = anyField { node, definition in
                guard let type = schema.type(named: definition.type.namedType), type.kind == .interface || type.kind == .union,
                      let selections = node.selections else { return false }
                let selectsID = selections.contains { if case .field(let field) = $0 { field.name == "id" } else { false } }
                return !selectsID && linksUnderCondition(selections)
            }
            return reaches ? nil : "no field of an abstract type, keyed by its place, selects links under a type condition, so no record changing its type strands them"
        case .escapedNamesFoldEquivalent:
            let kelvin = anyField { node, _ in node.responseKey.contains("K") }
            return kelvin ? nil : "no response key holds a K, the one letter another name (a Kelvin sign) can pass for"
        case .typenamesFoldEquivalent:
            return selectsTypename { _ in true } ? nil : "no operation selects __typename, the one value the bug reads"
        case .typenameAliasIgnored:
            return selectsTypename { $0.responseKey != "__typename" } ? nil : "no operation selects __typename under an alias, the one key the bug overlooks"
        case .spreadCacheDropsCondition:
            return spreadsNarrowingFragmentTwice ? nil
                : "no operation spreads one named fragment twice where its type condition narrows an abstract type, the one spread the bug widens"
        case .nestedListItemsShareKeys:
            let grid = anyField { node, definition in definition.type.listDepth > 1 && node.selections != nil }
            return grid ? nil : "no operation selects a list of lists of objects, the one place the bug keys"
        case .literalSkipReadAsInclude:
            return writesLiteralSkip ? nil : "no operation writes @skip with a literal condition"
        case .fragmentConditionsHidden:
            return writesVariableConditionInFragment ? nil : "no fragment (spread or inline) carries an @include or @skip on a variable on a selection of its own"
        case .absentInputMemberKeyedNull:
            return writesOptionalVariableInInputObject ? nil
                : "no input object written in a document holds a variable that may be left out (nullable, without a default)"
        case .explicitNullTakesDefault:
            let nullableWithDefault = operations.contains { operation in
                operation.syntax.variables.contains { !$0.type.isNonNull && $0.defaultValue != nil }
            }
            return nullableWithDefault ? nil : "no operation declares a nullable variable with a default, the one kind whose explicit null the bug replaces"
        case .absentConditionKeeps:
            // The drawer sends null only where the declared type allows it.
            let nullable = operations.contains { operation in
                let uses = analysis.variables[operation.name] ?? [:]
                return operation.syntax.variables.contains { declaration in
                    guard case .condition? = uses[declaration.name]?.role else { return false }
                    return !declaration.type.isNonNull
                }
            }
            return nullable ? nil : "no @include or @skip names a variable whose declared type is nullable, the one kind the drawer sends as null"
        case .nestedInputNotCoerced:
            return givesInputObjectToCoerce ? nil
                : "no operation takes an input object as one variable with a field that coercion rewrites (a list, an Int or a Float)"
        default:
            return nil
        }
    }

    /// Whether `value`, as a document writes it, holds a string containing `text` at any depth
    /// (in a list, in an input object).
    private static func writes(_ value: GraphQLValue, stringContaining text: String) -> Bool {
        switch value {
        case .string(let string): string.contains(text)
        case .list(let items): items.contains { writes($0, stringContaining: text) }
        case .object(let members): members.contains { writes($0.value, stringContaining: text) }
        default: false
        }
    }

    /// Whether some operation, or a fragment it spreads, writes `@skip(if: true)` or
    /// `@skip(if: false)` on a field, an inline fragment or a spread.
    var writesLiteralSkip: Bool {
        func literal(_ directives: [GraphQLDirective]) -> Bool {
            directives.contains { directive in
                guard directive.name == "skip", case .boolean? = directive.argument("if")?.value else { return false }
                return true
            }
        }
        func writes(_ selections: [Document.SelectionNode]) -> Bool {
            selections.contains { selection in
                switch selection {
                case .field(let field): literal(field.directives) || writes(field.selections ?? [])
                case .inlineFragment(let fragment): literal(fragment.directives) || writes(fragment.selections)
                case .fragmentSpread(let spread): literal(spread.directives)
                }
            }
        }
        return operations.contains { operation in
            writes(operation.syntax.selections) || operation.fragments.values.contains { writes($0.selections) }
        }
    }

    /// Whether some operation's fragment, spread or inline, carries an `@include` or `@skip`
    /// whose condition is a variable on a selection of its own (directly, or through fragments
    /// directly inside it): the set that spreads the fragment is the one the bug caches wrongly.
    /// A condition further down, inside a field's subselection, makes that subselection's own
    /// set uncached, which the bug leaves alone.
    var writesVariableConditionInFragment: Bool {
        func onVariable(_ directives: [GraphQLDirective]) -> Bool {
            directives.contains { directive in
                guard directive.name == "skip" || directive.name == "include", case .variable? = directive.argument("if")?.value else { return false }
                return true
            }
        }
        return operations.contains { operation in
            /// A variable condition on a selection of `selections`, or of a fragment directly in it.
            func direct(_ selections: [Document.SelectionNode], depth: Int) -> Bool {
                guard depth < 64 else { return false }
                return selections.contains { selection in
                    switch selection {
                    case .field(let field): onVariable(field.directives)
                    case .inlineFragment(let fragment): onVariable(fragment.directives) || direct(fragment.selections, depth: depth + 1)
                    case .fragmentSpread(let spread):
                        onVariable(spread.directives)
                            || operation.fragments[spread.name].map { direct($0.selections, depth: depth + 1) } ?? false
                    }
                }
            }
            /// An inline fragment anywhere in `selections` that carries one.
            func hidesInside(_ selections: [Document.SelectionNode]) -> Bool {
                selections.contains { selection in
                    switch selection {
                    case .field(let field): hidesInside(field.selections ?? [])
                    case .inlineFragment(let fragment): direct(fragment.selections, depth: 0) || hidesInside(fragment.selections)
                    case .fragmentSpread: false
                    }
                }
            }
            return hidesInside(operation.syntax.selections)
                || operation.fragments.values.contains { direct($0.selections, depth: 0) || hidesInside($0.selections) }
        }
    }

    /// Whether some operation writes an input object (at any depth of an argument) with a
    /// member given by a variable the operation declares nullable and without a default: one
    /// the app may leave out.
    var writesOptionalVariableInInputObject: Bool {
        func holds(_ value: GraphQLValue, inObject: Bool, _ optional: Set<String>) -> Bool {
            switch value {
            case .variable(let name, _): inObject && optional.contains(name)
            case .list(let items): items.contains { holds($0, inObject: inObject, optional) }
            case .object(let members): members.contains { holds($0.value, inObject: true, optional) }
            default: false
            }
        }
        // A spread's fragment is walked on its own below, with the operation's declarations.
        func writes(_ selections: [Document.SelectionNode], _ optional: Set<String>) -> Bool {
            selections.contains { selection in
                switch selection {
                case .field(let field):
                    field.arguments.contains { holds($0.value, inObject: false, optional) } || writes(field.selections ?? [], optional)
                case .inlineFragment(let fragment): writes(fragment.selections, optional)
                case .fragmentSpread: false
                }
            }
        }
        return operations.contains { operation in
            let optional = Set(operation.syntax.variables.filter { !$0.type.isNonNull && $0.defaultValue == nil }.map(\.name))
            guard !optional.isEmpty else { return false }
            return writes(operation.syntax.selections, optional) || operation.fragments.values.contains { writes($0.selections, optional) }
        }
    }

    /// Whether some operation declares a variable of an input-object type, one of whose fields
    /// input coercion may rewrite as the drawer respells it: a list (a single value for a list of
    /// one), an `Int` (a double), a `Float` (a whole number). Not an `ID`: only ids that are
    /// numbers are respelled, and that is the server's choice.
    var givesInputObjectToCoerce: Bool {
        operations.contains { operation in
            operation.syntax.variables.contains { declaration in
                guard let input = schema.type(named: declaration.type.namedType), input.kind == .inputObject else { return false }
                return input.inputFields.contains { field in
                    field.type.listDepth > 0 || ["Int", "Float"].contains(field.type.namedType)
                }
            }
        }
    }

    /// Whether some operation selects a `__typename` that passes `test` (through its fragments too).
    func selectsTypename(_ test: (Document.FieldNode) -> Bool) -> Bool {
        func selects(_ selections: [Document.SelectionNode], _ fragments: [String: Document.Fragment], _ visiting: inout Set<String>) -> Bool {
            selections.contains { selection in
                switch selection {
                case .field(let field):
                    return (field.name == "__typename" && test(field)) || selects(field.selections ?? [], fragments, &visiting)
                case .inlineFragment(let fragment):
                    return selects(fragment.selections, fragments, &visiting)
                case .fragmentSpread(let spread):
                    guard let fragment = fragments[spread.name], visiting.insert(spread.name).inserted else { return false }
                    defer { visiting.remove(spread.name) }
                    return selects(fragment.selections, fragments, &visiting)
                }
            }
        }
        return operations.contains { operation in
            var visiting: Set<String> = []
            return selects(operation.syntax.selections, operation.fragments, &visiting)
        }
    }

    /// Whether some operation reaches a field whose type is named `type`, through its fragments
    /// too.
    package func selectsType(_ type: String) -> Bool {
        anyField { _, definition in definition.type.namedType == type }
    }

    /// Whether some field an operation selects (through its fragments too), with its schema
    /// definition, satisfies `test`.
    /// Whether some operation spreads one named fragment at two places (fragments it spreads
    /// included) where the fragment's type condition narrows an interface or a union: the second
    /// spread shares the first's resolution and must keep its own condition.
    var spreadsNarrowingFragmentTwice: Bool {
        operations.contains { operation in
            guard let root = schema.rootTypeName(for: operation.kind) else { return false }
            var narrowing: [String: Int] = [:]
            var visiting: Set<String> = []
            func walk(_ selections: [Document.SelectionNode], on parent: String) {
                for selection in selections {
                    switch selection {
                    case .field(let field):
                        guard let nested = field.selections, let definition = schema.field(field.name, on: parent) else { continue }
                        walk(nested, on: definition.type.namedType)
                    case .inlineFragment(let fragment):
                        walk(fragment.selections, on: fragment.typeCondition ?? parent)
                    case .fragmentSpread(let spread):
                        guard let fragment = operation.fragments[spread.name] else { continue }
                        if let kind = schema.type(named: parent)?.kind, kind == .interface || kind == .union, fragment.typeCondition != parent {
                            narrowing[spread.name, default: 0] += 1
                        }
                        guard visiting.insert(spread.name).inserted else { continue }
                        walk(fragment.selections, on: fragment.typeCondition)
                        visiting.remove(spread.name)
                    }
                }
            }
            walk(operation.syntax.selections, on: root)
            return narrowing.values.contains { $0 > 1 }
        }
    }

    func anyField(_ test: (Document.FieldNode, Schema.Field) -> Bool) -> Bool {
        operations.contains { operation in
            guard let root = schema.rootTypeName(for: operation.kind) else { return false }
            var visiting: Set<String> = []
            return anyField(test, operation.syntax.selections, on: root, fragments: operation.fragments, visiting: &visiting)
        }
    }

    private func anyField(
        _ test: (Document.FieldNode, Schema.Field) -> Bool, _ selections: [Document.SelectionNode], on parent: String,
        fragments: [String: Document.Fragment], visiting: inout Set<String>
    ) -> Bool {
        for selection in selections {
            switch selection {
            case .field(let field):
                guard let definition = schema.field(field.name, on: parent) else { continue }
                if test(field, definition) { return true }
                if let nested = field.selections,
                   anyField(test, nested, on: definition.type.namedType, fragments: fragments, visiting: &visiting) { return true }
            case .inlineFragment(let fragment):
                if anyField(test, fragment.selections, on: fragment.typeCondition ?? parent, fragments: fragments, visiting: &visiting) {
                    return true
                }
            case .fragmentSpread(let spread):
                guard let fragment = fragments[spread.name], visiting.insert(spread.name).inserted else { continue }
                defer { visiting.remove(spread.name) }
                if anyField(test, fragment.selections, on: fragment.typeCondition, fragments: fragments, visiting: &visiting) { return true }
            }
        }
        return false
    }

    /// Whether a value of `type` may hold a null anywhere: the type is nullable, or a list whose
    /// items may be, or an input object with a field that may be (a recursive input is taken to).
    private func mayHoldNull(_ type: GraphQLTypeReference, entered: Set<String> = []) -> Bool {
        switch type {
        case .nonNull(.list(let item)): return mayHoldNull(item, entered: entered)
        case .nonNull(.named(let name)):
            guard let input = schema.type(named: name), input.kind == .inputObject else { return false }
            if entered.contains(name) { return true }
            return input.inputFields.contains { mayHoldNull($0.type, entered: entered.union([name])) }
        case .nonNull(.nonNull(let inner)): return mayHoldNull(inner, entered: entered)
        default: return true
        }
    }

    /// Whether some operation, or a fragment it spreads, marks a field `@connection`: only such a
    /// field's pages join one connection record, the store's path these bugs live on.
    package var usesConnectionDirective: Bool {
        anyField { field, _ in field.directives.contains { $0.name == "connection" } }
    }

    /// Whether some operation selects a field that has subfields more than once under one
    /// response key in one selection set, counting the selections its inline fragments and
    /// fragment spreads bring (whatever their type conditions: an approximation that may call
    /// two selections on different types one object's).
    var selectsACompositeFieldTwice: Bool {
        operations.contains { operation in
            var visiting: Set<String> = []
            return Self.selectsTwice(operation.syntax.selections, fragments: operation.fragments, visiting: &visiting)
        }
    }

    private static func selectsTwice(
        _ selections: [Document.SelectionNode], fragments: [String: Document.Fragment], visiting: inout Set<String>
    ) -> Bool {
        var counts: [String: Int] = [:]
        var nested: [[Document.SelectionNode]] = []
        func collect(_ selections: [Document.SelectionNode], visiting: inout Set<String>) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    guard let subselections = field.selections else { continue }
                    counts[field.responseKey, default: 0] += 1
                    nested.append(subselections)
                case .inlineFragment(let fragment):
                    collect(fragment.selections, visiting: &visiting)
                case .fragmentSpread(let spread):
                    guard let fragment = fragments[spread.name], visiting.insert(spread.name).inserted else { continue }
                    collect(fragment.selections, visiting: &visiting)
                    visiting.remove(spread.name)
                }
            }
        }
        collect(selections, visiting: &visiting)
        if counts.values.contains(where: { $0 > 1 }) { return true }
        return nested.contains { selectsTwice($0, fragments: fragments, visiting: &visiting) }
    }
}
