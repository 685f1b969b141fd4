import Synchronization

/// Where a plan keeps the shapes its last ingest built, for the next ingest: all of them under
/// the same variables, those no variable changes under others.
///
/// Building shapes (a selection's fields per type, their storage keys and connection modes) is
/// about half of what an ingest of a small response costs, and an app ingests the same operation
/// under the same variables again and again (refetches, polling, the simulator's schedules), or
/// under others that reach only a few shapes (the next page of a list: the root field's arguments
/// change, the items' shapes do not). An ingest takes the cache out of the slot, owns it alone
/// while it reads, and puts it back; an ingest that finds the slot empty (another one holds the
/// cache) builds its own. So a cache is never read by two ingests at once.
///
/// The slot is keyed by the operation's identity, whose variables match only when their canonical
/// JSON is the same bytes: two spellings of one character are other variables, with other storage
/// keys (see ``OperationIdentity``).
final class ShapeCacheSlot: Sendable {
    /// A cache with the identity it was built under. Unchecked: the slot hands the cache to one
    /// ingest at a time, which owns it until it gives it back.
    private struct Kept: @unchecked Sendable {
        let identity: OperationIdentity
        let cache: ShapeCache
    }

    private let kept = Mutex<Kept?>(nil)

    /// The kept cache when it was built under `identity`; when it was built under other
    /// variables, a cache for `variables` that starts with its shapes no variable changes; either
    /// way it leaves the slot. A new cache when the slot is empty.
    func take(for identity: OperationIdentity, variables: Variables, root: SelectionSet, mutant: Mutant? = nil) -> ShapeCache {
        let found: Kept? = kept.withLock { kept in
            defer { kept = nil }
            return kept
        }
        guard let found else { return ShapeCache(variables: variables, root: root, ignoresTypenameAliases: mutant.isOn(.typenameAliasIgnored)) }
        return found.identity == identity ? found.cache : found.cache.carryingOver(to: variables)
    }

    /// Drops the kept cache: the next ingest builds its shapes anew.
    func forget() {
        kept.withLock { $0 = nil }
    }

    /// Keeps `cache`, built under `identity`, for the next ingest.
    func give(_ cache: ShapeCache, for identity: OperationIdentity) {
        let returned = Kept(identity: identity, cache: cache)
        kept.withLock { $0 = returned }
    }
}
