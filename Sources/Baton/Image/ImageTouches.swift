/// What the check read since the last drain: the rows a drain stamps with this launch's generation.
///
/// A read itself writes nothing; its stamps ride on the writer's next drain. Keys are kept in the
/// order read, a key read twice (after a collection) twice: the drain sorts them and stamps each
/// once. A set hashed every key a hydration read (2% of hydration).
struct ImageTouches {
    var records: [String] = []
    var rootFields: [String] = []
    var fetches: [String] = []
    var names: Set<Int> = []

    var isEmpty: Bool {
        records.isEmpty && rootFields.isEmpty && fetches.isEmpty && names.isEmpty
    }

    /// Takes everything, leaving the set empty.
    mutating func take() -> ImageTouches {
        defer { self = ImageTouches() }
        return self
    }

    /// Puts back touches a failed drain could not stamp.
    mutating func merge(_ other: ImageTouches) {
        records += other.records
        rootFields += other.rootFields
        fetches += other.fetches
        names.formUnion(other.names)
    }
}
