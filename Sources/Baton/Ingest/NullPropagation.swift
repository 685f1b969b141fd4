/// Nulls in non-null positions: what a client does with a server that did not propagate them.
///
/// The spec has the server replace a null it cannot give in a non-null position by a null in the
/// nearest nullable position above it (up to `data` itself), and name the field that failed in
/// `errors`. A server that sends the null where it stands has skipped that step:
///
/// - when an error in `errors` names the null's place or a place under it, the server said why:
///   ingest does the propagation for it, and reads the response as if the nearest nullable
///   position above the null held null (nothing under it is read);
/// - otherwise the response is not one the schema allows, and ingest throws
///   ``IngestError/Kind/nullInNonNullPosition(type:)`` naming the null's path.
///
/// It costs the usual pass nothing: a null in a non-null position throws; the first nullable
/// position on the way up records where it is, skips its value and the pass goes on, so one pass
/// finds them all. Then `errors` is checked, and a second pass reads a copy of the bytes with each
/// such value overwritten by `null` and spaces (offsets unchanged).
///
/// The values so replaced are bad input all the same when they break a rule (a value of the wrong
/// kind, a member given twice): the first pass met what stood before the null and skipped what
/// followed it, so whether such a response was refused hung on the order of its members (found
/// by BatonSim's garbled responses on 2026-12-05). Before the second pass, a checking pass reads
/// the original bytes with every null read as it stands, and refuses what breaks a rule anywhere.
struct NullViolation {
    /// The bytes of the nullable value that holds the null, from its first byte.
    let target: Range<Int>
    /// The path from that value down to the null.
    let suffix: [ResponsePathComponent]
    /// The error to throw when no response error names the null.
    let error: IngestError
}

extension Normalizer {
    /// Reads a null at `level` of `member`'s type, or throws when that level is non-null.
    @inline(__always)
    mutating func readNull(_ member: ShapeEntry, level: Int) throws(IngestError) {
        if member.isNonNull(atLevel: level), !readsMisplacedNulls, !mutant.isOn(.nullsNotPropagated) {
            _ = try nullIn(member, level: level)
        }
        try readNull()
    }

    /// The error for a null at `level` of `member`'s type, which is non-null; never returns, but
    /// in the checking pass (``readsMisplacedNulls``), which reads the null and answers it.
    mutating func nullIn(_ member: ShapeEntry, level: Int) throws(IngestError) -> Value {
        if readsMisplacedNulls {
            try readNull()
            return .null
        }
        throw IngestError(.nullInNonNullPosition(type: member.type.description(atLevel: level)), offset: scanner.position)
    }

    /// When `error` is a null in a non-null position under the nullable value at `mark`: records
    /// it, moves past the value, and answers true. Any other error: false, nothing moved.
    mutating func recover(_ error: IngestError, at mark: JSONScanner.Mark) throws(IngestError) -> Bool {
        guard case .nullInNonNullPosition = error.kind else { return false }
        scanner.reset(to: mark)
        scanner.skipWhitespace()
        let start = scanner.position
        try skipValue()
        violations.append(NullViolation(target: start..<scanner.position, suffix: error.path, error: error))
        return true
    }
}

enum NullPropagation {
    /// The response with every violation's nullable value overwritten by `null`, when `errors`
    /// names each null (at its place or under it).
    ///
    /// - Throws: the first violation no error names, with its whole path.
    static func patch(
        _ response: UnsafeRawBufferPointer, violations: [NullViolation], errors: [ResponseError], mutant: Mutant? = nil
    ) throws(IngestError) -> [UInt8] {
        let named = errors.compactMap(\.path)
        let paths = try ResponseLocator.paths(of: Set(violations.map(\.target.lowerBound)), in: response)
        var patched = Array(response)
        for violation in violations {
            let path = (paths[violation.target.lowerBound] ?? []) + violation.suffix
            let exactOnly = mutant.isOn(.nullNamedOnlyExactly)
            guard named.contains(where: { exactOnly ? $0 == path : $0.starts(with: path) }) else {
                var error = violation.error
                error.path = path
                throw error
            }
            let target = violation.target
            patched.replaceSubrange(target, with: Array("null".utf8) + [UInt8](repeating: 0x20, count: target.count - 4))
        }
        return patched
    }

    /// The first violation of a pass that should have had none, as the error to throw.
    static func reject(_ response: UnsafeRawBufferPointer, violations: [NullViolation]) -> IngestError {
        var error = violations[0].error
        let paths = try? ResponseLocator.paths(of: [violations[0].target.lowerBound], in: response)
        error.path = (paths?[violations[0].target.lowerBound] ?? []) + violations[0].suffix
        return error
    }
}

/// Finds the response paths of values inside `data` from their byte offsets: one walk over the
/// response's structure, for the rare errors that need a whole path afterwards.
enum ResponseLocator {
    /// The path inside `data` of each value that starts (its first byte) at one of `offsets`.
    static func paths(
        of offsets: Set<Int>, in response: UnsafeRawBufferPointer
    ) throws(IngestError) -> [Int: [ResponsePathComponent]] {
        var walk = Walk(scanner: JSONScanner(response), wanted: offsets)
        do throws(JSONError) {
            if try walk.scanner.openObject() {
                repeat {
                    let name = try walk.scanner.string(walk.scanner.readKey())
                    if name == "data" { try walk.value() } else { try walk.scanner.skipValue() }
                } while try walk.scanner.nextMember()
            }
        } catch {
            throw .json(error)
        }
        return walk.found
    }

    private struct Walk {
        var scanner: JSONScanner
        let wanted: Set<Int>
        var path: [ResponsePathComponent] = []
        var found: [Int: [ResponsePathComponent]] = [:]

        mutating func value() throws(JSONError) {
            scanner.skipWhitespace()
            if wanted.contains(scanner.position) { found[scanner.position] = path }
            switch try scanner.peekKind() {
            case .object:
                if try scanner.openObject() {
                    repeat {
                        path.append(.key(try scanner.string(scanner.readKey())))
                        try value()
                        path.removeLast()
                    } while try scanner.nextMember()
                }
            case .array:
                var index = 0
                if try scanner.openArray() {
                    repeat {
                        path.append(.index(index))
                        try value()
                        path.removeLast()
                        index += 1
                    } while try scanner.nextElement()
                }
            default:
                try scanner.skipValue()
            }
        }
    }
}
