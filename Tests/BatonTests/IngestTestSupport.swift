import Baton

/// Hand-built plans for ingest tests: a few words per field instead of a GraphQL document.
enum Build {
    /// A leaf field (`kind` a scalar or enum kind).
    static func leaf(
        _ responseKey: String, _ kind: FieldType.Kind = .string, name: String? = nil, list: Int = 0,
        arguments: [ArgumentField] = [], deleteRecord: DeleteRecordDirective? = nil
    ) -> Selection {
        .field(FieldSelection(
            responseKey: responseKey, name: name ?? responseKey, arguments: arguments,
            type: FieldType(namedType: String(describing: kind), kind: kind, listDepth: list),
            selections: nil, deleteRecord: deleteRecord))
    }

    /// `__typename`, optionally aliased.
    static func typename(_ responseKey: String = "__typename") -> Selection {
        .field(FieldSelection(
            responseKey: responseKey, name: "__typename", arguments: [],
            type: FieldType(namedType: "String", kind: .string, listDepth: 0), selections: nil))
    }

    /// A composite field of object type `type` (or an interface/union with `abstract`).
    static func object(
        _ responseKey: String, _ type: String, name: String? = nil, list: Int = 0, abstract: Bool = false,
        arguments: [ArgumentField] = [], connection: ConnectionDirective? = nil, _ selections: [Selection]
    ) -> Selection {
        .field(FieldSelection(
            responseKey: responseKey, name: name ?? responseKey, arguments: arguments,
            type: FieldType(namedType: type, kind: abstract ? .abstract : .object, listDepth: list),
            selections: SelectionSet(selections), connection: connection))
    }

    /// An inline fragment on `types` (`nil`: on the parent's own type).
    static func on(_ types: Set<String>?, _ selections: [Selection]) -> Selection {
        .fragment(possibleTypes: types, SelectionSet(selections))
    }

    static func argument(_ name: String, _ value: JSONValue) -> ArgumentField {
        ArgumentField(name: name, value: .literal(value))
    }

    static func variable(_ name: String, _ variable: String) -> ArgumentField {
        ArgumentField(name: name, value: .variable(variable))
    }

    static func query(
        _ selections: [Selection], name: String = "Test", variables: [VariableDefinition] = []
    ) -> Plan {
        Plan(kind: .query, name: name, rootTypename: "Query", variableDefinitions: variables,
             selections: SelectionSet(selections))
    }

    static func mutation(_ selections: [Selection], name: String = "Mutate") -> Plan {
        Plan(kind: .mutation, name: name, rootTypename: "Mutation", variableDefinitions: [],
             selections: SelectionSet(selections))
    }
}

/// Normalizes `json` for `plan` with `variables`, handed to ingest unchecked: ingest checks them
/// against the plan (defaults applied) when the plan declares any.
func ingest(_ plan: Plan, _ json: String, _ variables: [String: JSONValue] = [:]) throws(IngestError) -> ChangeSet {
    try Ingest.normalize(plan: plan, variables: Variables(variables), response: Array(json.utf8))
}

/// The error ingest throws for `json`, or `nil` when it normalizes.
func ingestError(_ plan: Plan, _ json: String, _ variables: [String: JSONValue] = [:]) -> IngestError? {
    do {
        _ = try ingest(plan, json, variables)
        return nil
    } catch {
        return error
    }
}

extension ChangeSet {
    /// The change of record `key`.
    func record(_ key: String) -> RecordChange? {
        records.first { $0.key.rawValue == key }
    }

    /// The cell of `storageKey` in record `key`.
    func cell(_ key: String, _ storageKey: String) -> Cell? {
        record(key)?.cells[SlotID.named(storageKey)]
    }

    /// The value of `storageKey` in record `key`.
    func value(_ key: String, _ storageKey: String) -> Value? {
        cell(key, storageKey)?.value
    }

    /// The record keys, in order.
    var keys: [String] { records.map(\.key.rawValue) }
}

extension RecordChange {
    /// The storage keys of the cells, sorted.
    var storageKeys: [String] { cells.keys.map(\.name).sorted() }
}

/// A small seeded generator (SplitMix64) so that fuzz cases are the same in every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
