/// Ingest: one GraphQL response's bytes to the change set the store commits.
///
/// A pure function of (plan, variables, bytes), callable from any thread or actor. The bytes are
/// read once, in place, by ``JSONScanner``; no JSON tree is built for `data`.
///
/// - `data` an object: its records, from `plan.rootKey` down. `data` null, or absent while
///   `errors` holds something: no records, every error unplaced. No `data` and no errors (or an
///   empty `errors`): ``IngestError/Kind/noData``.
/// - Objects are keyed `Type:id` when their fields select `id` and the response gives one (a
///   string, or an integer in decimal), by path (`parent:storageKey[:index…]`) when `id` is null
///   or not selected; `id` selected but absent is an error.
/// - Lists of objects are `.links` (nulls kept at their index); lists of lists of objects are
///   `.list` whose items are `.links`, `.list` (deeper still) or `.null`. Lists of leaves are `.list`.
/// - A custom scalar takes any JSON: objects become `.object(canonical JSON)`, arrays `.list`.
/// - `__typename` is the record's type, never a slot. For an object type it must, when given,
///   name the schema's type; for an interface or union it is required.
/// - Errors with a `path` land on the field it names (trailing list indices stripped). The path
///   is followed through `data` as the response wrote it, each step in the object that occurrence
///   holds, not through the merged records (one record met at two paths may link elsewhere at
///   the other); the error goes on the merged cell of the field in the record the last object
///   names, a field absent there getting a null cell to carry it; when several name one field,
///   the last wins. Errors without a path, and those whose path names nothing in `data` (an
///   unselected field, a step through null, a missing field or past a list's end), are
///   ``ChangeSet/unplacedErrors``.
/// - The same record met along several paths is one change whose cells merge, later writes
///   winning; records keep the order in which the response first reached them.
/// - `@connection` fields add a ``ConnectionPage`` each, in response order; `@deleteRecord`
///   fields add the records their values name to ``ChangeSet/deletions``.
/// - ``ChangeSet/operation`` is `plan.identity(variables)`, whatever `data` holds.
/// - Refused, with the path: invalid UTF-8 anywhere, a member given twice in one object, an `Int`
///   that is not a whole number in 32 bits, a value of the wrong kind, and a null in a non-null
///   position that no error in `errors` names. A null that an error names is propagated to the
///   nearest nullable position, as the spec says the server should have (`NullPropagation.swift`).
/// - `variables` made by a plan with other declarations are checked again against `plan`
///   (``IngestError/Kind/invalidVariables(_:)``).
public enum Ingest {
    /// Normalizes a response held in a raw buffer.
    public static func normalize(
        plan: Plan, variables: Variables, response: UnsafeRawBufferPointer
    ) throws(IngestError) -> ChangeSet {
        try normalize(plan: plan, variables: variables, response: response, mutant: nil)
    }

    /// Normalizes a response held in a raw buffer, with `mutant` (if any) switched on.
    static func normalize(
        plan: Plan, variables: Variables, response: UnsafeRawBufferPointer, mutant: Mutant?
    ) throws(IngestError) -> ChangeSet {
        let variables = try checked(variables, for: plan)
        let identity = plan.identity(variables)
        // The shapes the plan's last ingest built under the same variables, when no other ingest
        // holds them; given back for the next ingest whatever this one answers.
        let cache = plan.shapes.take(for: identity, variables: variables, root: plan.selections, mutant: plan.mutant)
        defer { plan.shapes.give(cache, for: identity) }
        var normalizer = Normalizer(scanner: JSONScanner(response), cache: cache, mutant: mutant)
        let read = try normalizer.response(plan: plan, variables: variables, identity: identity)
        guard !normalizer.violations.isEmpty else { return read }
        // Nulls the server should have propagated: read again with them propagated.
        let patched = try NullPropagation.patch(response, violations: normalizer.violations, errors: normalizer.errors, mutant: mutant)
        // What the propagated nulls replace must keep the rules too (see NullPropagation.swift).
        if !mutant.isOn(.discardedValuesUnchecked) {
            var checking = Normalizer(scanner: JSONScanner(response), cache: cache, mutant: mutant)
            checking.readsMisplacedNulls = true
            _ = try checking.response(plan: plan, variables: variables, identity: identity)
        }
        return try patched.withUnsafeBytes { bytes -> Result<ChangeSet, IngestError> in
            var again = Normalizer(scanner: JSONScanner(bytes), cache: cache, mutant: mutant)
            do throws(IngestError) {
                let changes = try again.response(plan: plan, variables: variables, identity: identity)
                if !again.violations.isEmpty { return .failure(NullPropagation.reject(bytes, violations: again.violations)) }
                return .success(changes)
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// `variables` when a plan with `plan`'s declarations made them, else checked against `plan`.
    static func checked(_ variables: Variables, for plan: Plan) throws(IngestError) -> Variables {
        if variables.signature == plan.variableSignature { return variables }
        do throws(VariableError) {
            return try plan.variables(variables.values)
        } catch {
            throw IngestError(.invalidVariables(error), offset: 0)
        }
    }

    /// Normalizes a response with a known bug put back (`wrongScalarAtIngest`: long strings lose
    /// their last character; `errorsFollowMergedLinks`: errors placed along the merged records;
    /// `lateIDLeavesJumpAhead`: leaves after a nested object written before it when the id comes late);
    /// tests and the simulator only.
    package static func normalize(plan: Plan, variables: Variables, response: [UInt8], mutant: Mutant?) throws(IngestError) -> ChangeSet {
        var changes = try response.withUnsafeBytes { buffer -> Result<ChangeSet, IngestError> in
            do throws(IngestError) {
                return .success(try normalize(plan: plan, variables: variables, response: buffer, mutant: mutant))
            } catch {
                return .failure(error)
            }
        }.get()
        guard mutant.isOn(.wrongScalarAtIngest) else { return changes }
        for index in changes.records.indices {
            for (slot, cell) in changes.records[index].cells {
                if case .string(let text) = cell.value, text.count > 8 {
                    changes.records[index].cells[slot] = Cell(.string(String(text.dropLast())), errors: cell.errors)
                }
            }
        }
        return changes
    }

    /// Normalizes a response held in a byte array.
    public static func normalize(plan: Plan, variables: Variables, response: [UInt8]) throws(IngestError) -> ChangeSet {
        try response.withUnsafeBytes { buffer in
            result(plan: plan, variables: variables, response: buffer)
        }.get()
    }

    /// Normalizes a response held in any collection of bytes (`Data`, `String.UTF8View`, …);
    /// contiguous storage is read in place, anything else is copied first.
    public static func normalize(
        plan: Plan, variables: Variables, response: some Collection<UInt8>
    ) throws(IngestError) -> ChangeSet {
        let inPlace = response.withContiguousStorageIfAvailable { buffer in
            result(plan: plan, variables: variables, response: UnsafeRawBufferPointer(buffer))
        }
        if let inPlace { return try inPlace.get() }
        return try normalize(plan: plan, variables: variables, response: Array(response))
    }

    private static func result(
        plan: Plan, variables: Variables, response: UnsafeRawBufferPointer
    ) -> Result<ChangeSet, IngestError> {
        do throws(IngestError) {
            return .success(try normalize(plan: plan, variables: variables, response: response))
        } catch {
            return .failure(error)
        }
    }
}

/// One member of a response's `errors`, read: the field error it is, and the path it names when
/// that path is well formed.
struct ResponseError {
    var error: FieldError
    var path: [ResponsePathComponent]?
}

extension Normalizer {
    /// Reads the whole response: `data`, `errors` (in any order), anything else skipped; a member
    /// given twice is an error. When ``violations`` is not empty afterwards, the change set is
    /// not the answer (see `NullPropagation.swift`). `identity` is `plan.identity(variables)`.
    mutating func response(plan: Plan, variables: Variables, identity: OperationIdentity) throws(IngestError) -> ChangeSet {
        let kind = try peek()
        guard kind == .object else { throw IngestError(.notAnObject, offset: scanner.position) }
        var sawData = false
        var hasData = false
        var names: [String] = []
        if try openObject() {
            repeat {
                let span = try readKey()
                let name = try string(span)
                // Names compare by their bytes, as everywhere else (Swift's == would take two
                // spellings of one character for one name).
                if names.contains(where: { ExactText.bytesEqual($0, name) }) {
                    throw IngestError(.duplicateMember(name), offset: span.range.lowerBound - 1).inside(.key(name))
                }
                names.append(name)
                if name == "data" {
                    sawData = true
                    let kind = try peek()
                    switch kind {
                    case .null:
                        try readNull()
                    case .object:
                        let mark = scanner.mark
                        dataMark = mark
                        do throws(IngestError) {
                            _ = try normalizeObject(
                                group: 0, declaredType: plan.rootTypename, entry: nil, keySource: .fixed(plan.rootKey), item: nil)
                            hasData = true
                        } catch {
                            // A null that reaches data makes data null.
                            guard try recover(error, at: mark) else { throw error }
                        }
                    default:
                        throw IngestError(
                            .wrongType(expected: "an object or null for data", found: Normalizer.describe(kind)),
                            offset: scanner.position)
                    }
                } else if name == "errors" {
                    switch try peek() {
                    case .null:
                        try readNull()
                    case .array:
                        if try openArray() {
                            repeat {
                                errors.append(try readError())
                            } while try nextElement()
                        }
                    default:
                        throw IngestError(.wrongType(expected: "a list for errors", found: "another value"), offset: scanner.position)
                    }
                } else {
                    try skipValue()
                }
            } while try nextMember()
        }
        try finish()
        if !sawData && errors.isEmpty { throw IngestError(.noData, offset: 0) }
        if !violations.isEmpty {
            return ChangeSet(operation: identity, records: [], deletions: [], connectionPages: [], unplacedErrors: [])
        }

        var unplaced: [FieldError] = []
        for error in errors {
            if !(hasData && error.path.map({ place(error.error, path: $0, plan: plan) }) == true) {
                unplaced.append(error.error)
            }
        }
        if !errors.isEmpty && !mutant.isOn(.connectionErrorsUnread) { givePagesTheirErrors() }
        return ChangeSet(
            operation: identity,
            records: changes(),
            deletions: deletions,
            connectionPages: pages,
            unplacedErrors: unplaced)
    }

    /// Copies the errors that landed on each connection field to its page, for the commit to put
    /// beside the parent's connection slot (the slot reads of the field meet).
    mutating func givePagesTheirErrors() {
        for index in pages.indices {
            guard let record = record(pages[index].parent) else { continue }
            let start = records[record].start
            guard let position = cells.position(of: pageFieldSlots[index], start: start, count: records[record].count) else { continue }
            let relative = position - start
            pages[index].errors = records[record].errors.compactMap { $0.position == relative ? $0.error : nil }
        }
    }

    /// One member of the response's `errors` as a field error, with its path when it has a
    /// well-formed one (strings and non-negative integers). A member that is not an object is a
    /// message of its JSON; a message that is not a string is its JSON too; `extensions` are kept
    /// as canonical text, every member name by its bytes (see ``JSONScanner/readCanonicalText()``),
    /// and so are the error's other members (`locations`, a server's own such as GitHub's `type`),
    /// together as one object (``FieldError/otherMembers``).
    mutating func readError() throws(IngestError) -> ResponseError {
        guard try peek() == .object else { return ResponseError(error: FieldError(message: try canonicalText(), path: ""), path: nil) }
        var message = ""
        var extensions: String?
        var path: [ResponsePathComponent]?
        var names: [String] = []
        var others: [(name: String, text: String)] = []
        if try openObject() {
            repeat {
                let span = try readKey()
                let name = try string(span)
                if names.contains(where: { ExactText.bytesEqual($0, name) }) {
                    throw .json(scanner.error(.duplicateKey(name), at: span.range.lowerBound - 1))
                }
                names.append(name)
                switch name {
                case "message":
                    switch try peek() {
                    case .string: message = try readString()
                    case .null: try readNull()
                    default: message = try canonicalText()
                    }
                case "extensions":
                    if try peek() == .null { try readNull() } else { extensions = try canonicalText() }
                case "path":
                    path = try readErrorPath()
                default:
                    if mutant.isOn(.errorMembersDropped) {
                        try skipValue()
                    } else {
                        others.append((name, try canonicalText()))
                    }
                }
            } while try nextMember()
        }
        let dotted = path.map(ResponsePathComponent.dotted) ?? ""
        let error = FieldError(message: message, path: dotted, extensions: extensions, otherMembers: Self.object(others))
        return ResponseError(error: error, path: path)
    }

    /// Canonical JSON text of an object of `members` (names distinct, values canonical text):
    /// sorted by their names' bytes; `nil` for none.
    static func object(_ members: [(name: String, text: String)]) -> String? {
        guard !members.isEmpty else { return nil }
        var out = "{"
        for (index, member) in members.sorted(by: { CanonicalJSON.utf8Less($0.name, $1.name) }).enumerated() {
            if index > 0 { out += "," }
            CanonicalJSON.writeString(member.name, into: &out)
            out += ":"
            out += member.text
        }
        out += "}"
        return out
    }

    /// A response error's `path` when it is well formed: a list of strings and non-negative
    /// integers; nil for anything else (read past, whatever it holds).
    ///
    /// Every element is read whether or not the path is still well formed: a string after a bad
    /// element was once left unread (the append it fed was skipped), and the response was refused
    /// as malformed JSON (found by BatonSim's garbled responses, seed 30 of the default world).
    mutating func readErrorPath() throws(IngestError) -> [ResponsePathComponent]? {
        guard try peek() == .array else {
            try skipValue()
            return nil
        }
        var components: [ResponsePathComponent]? = []
        if try openArray() {
            repeat {
                switch try peek() {
                case .string:
                    if mutant.isOn(.badPathElementStopsReading), components == nil { continue }
                    let key = try readString()
                    components?.append(.key(key))
                case .number:
                    // An index is an integer as written: decided on its text, never through a
                    // double, so a number past a double's range is a bad element like any other
                    // (it was once refused as out of range, and the whole response with it).
                    if mutant.isOn(.pathNumberReadAsDouble) {
                        if case .int(let index) = try readValue(), index >= 0 { components?.append(.index(index)) } else { components = nil }
                        continue
                    }
                    let (isInteger, text) = try scanNumber()
                    if isInteger, let index = scanner.integerValue(text), index >= 0 { components?.append(.index(index)) } else { components = nil }
                default:
                    try skipValue()
                    components = nil
                }
            } while try nextElement()
        }
        return components
    }

    /// The records as the change set holds them, in first-seen order (each builder read field by
    /// field, in place: a builder copied out of the array costs its references' counting).
    mutating func changes() -> [RecordChange] {
        var changes: [RecordChange] = []
        changes.reserveCapacity(records.count)
        for index in records.indices {
            changes.append(cells.change(
                key: records[index].key, typename: records[index].typename,
                start: records[index].start, count: records[index].count, errors: records[index].errors))
        }
        return changes
    }

    /// The index of `key`'s record, if the response made one.
    func record(_ key: RecordKey) -> Int? {
        find(RecordTable.hash(key.rawValue)) { records[$0].key == key }
    }
}
