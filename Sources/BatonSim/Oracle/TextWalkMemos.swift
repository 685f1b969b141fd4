import Synchronization

/// The memos of response walks of one operation, one per identity (the variables' canonical
/// text for ``TextWalk/Memo``, the conditions' for ``TextWalk/Shapes``): a walk takes its memo
/// out, and puts it back, grown, when it ends.
///
/// A memo holds only what follows from the operation, the schema and what its identity names
/// (the fields that apply per type, their storage keys and resolved arguments), so sharing it
/// between walks changes no result; it spares each response working the same fields out again.
final class TextWalkMemos<Memo: Sendable>: Sendable {
    private let memos = Mutex<[OracleText: Memo]>([:])

    /// The memo kept for `identity`, removed while a walk uses it (so the walk's changes do not
    /// copy it); nil when none is kept.
    func take(_ identity: OracleText) -> Memo? {
        memos.withLock { $0.removeValue(forKey: identity) }
    }

    /// Keeps `memo` for the next walk under `identity` (all are dropped when more than
    /// `limit` identities are kept: a long run does not grow without end).
    func keep(_ memo: Memo, for identity: OracleText) {
        memos.withLock { memos in
            if memos.count >= Self.limit { memos.removeAll() }
            memos[identity] = memo
        }
    }

    static var limit: Int { 512 }
}
