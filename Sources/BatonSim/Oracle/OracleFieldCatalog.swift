import Baton
import Synchronization

/// What the model's walks need of a schema field (its named type, list depth and kind), looked
/// up in the schema once per type and field name rather than once per field met in a response.
package final class OracleFieldCatalog: Sendable {
    /// One field of one type, as the walks read it.
    struct Entry: Sendable {
        var namedType: String
        var listDepth: Int
        /// `nil` for an unknown or input type (see ``OracleFieldKind/of(_:in:)``).
        var kind: OracleFieldKind?
    }

    private let schema: Schema
    /// Per type, per field name: the entry, or `nil` when the type has no such field (what the
    /// schema says never changes, so misses are kept too).
    private let entries = Mutex<[String: [String: Entry?]]>([:])

    package init(schema: Schema) {
        self.schema = schema
    }

    /// The field `name` of `typename` as the schema defines it; `nil` when the type has none.
    func entry(_ name: String, on typename: String) -> Entry? {
        if let known = entries.withLock({ $0[typename]?[name] }) { return known }
        var entry: Entry?
        if let definition = schema.field(name, on: typename) {
            entry = Entry(
                namedType: definition.type.namedType, listDepth: definition.type.listDepth,
                kind: OracleFieldKind.of(definition.type, in: schema))
        }
        entries.withLock { $0[typename, default: [:]][name] = .some(entry) }
        return entry
    }
}
