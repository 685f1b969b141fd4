/// What the check read since the last drain: the rows a drain stamps with this launch's generation.
///
/// A read itself writes nothing; its stamps ride on the writer's next drain.
struct ImageTouches {
    var records: Set<ExactText> = []
    var rootFields: Set<ExactText> = []
    var fetches: Set<ExactText> = []
    var names: Set<Int> = []

    var isEmpty: Bool {
        records.isEmpty && rootFields.isEmpty && fetches.isEmpty && names.isEmpty
    }

    var count: Int {
        records.count + rootFields.count + fetches.count + names.count
    }

    /// Takes everything, leaving the set empty.
    mutating func take() -> ImageTouches {
        defer { self = ImageTouches() }
        return self
    }

    /// Puts back touches a failed drain could not stamp.
    mutating func merge(_ other: ImageTouches) {
        records.formUnion(other.records)
        rootFields.formUnion(other.rootFields)
        fetches.formUnion(other.fetches)
        names.formUnion(other.names)
    }
}
