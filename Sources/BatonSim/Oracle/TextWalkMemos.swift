import Synchronization

/// The memos of response walks of one operation, one per variables (by their canonical text):
/// a walk takes its memo out, and puts it back, grown, when it ends.
///
/// A memo holds only what follows from the operation, the schema and the variables (the fields
/// that apply per type, their storage keys and resolved arguments), so sharing it between walks
/// changes no result; it spares each response working the same fields out again.
final class TextWalkMemos: Sendable {
    private let memos = Mutex<[OracleText: TextWalk.Memo]>([:])

    /// The memo kept for `identity`, removed while a walk uses it (so the walk's changes do not
    /// copy it); an empty one when none is kept.
    func take(_ identity: OracleText) -> TextWalk.Memo {
        memos.withLock { $0.removeValue(forKey: identity) } ?? TextWalk.Memo()
    }

    /// Keeps `memo` for the next walk under `identity` (all are dropped when more than
    /// `limit` variables are kept: a long run does not grow without end).
    func keep(_ memo: TextWalk.Memo, for identity: OracleText) {
        memos.withLock { memos in
            if memos.count >= Self.limit { memos.removeAll() }
            memos[identity] = memo
        }
    }

    static let limit = 512
}
