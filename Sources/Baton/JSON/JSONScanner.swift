/// What the next JSON value is, judged from its first byte.
public enum JSONKind: Hashable, Sendable {
    case object, array, string, number, bool, null
}

/// A JSON number: an integer when the text has no fraction or exponent and fits an `Int`.
public enum JSONNumber: Hashable, Sendable {
    case int(Int)
    case double(Double)
    /// A number no `Int` or `Double` holds exactly, as its canonical text (only from
    /// ``JSONScanner/readExactNumber()``).
    case decimal(String)
}

/// Where a string's body lies in the input (between its quotes), and what its decoding needs.
public struct JSONStringSpan: Hashable, Sendable {
    /// The byte range of the body, quotes excluded.
    public let range: Range<Int>
    /// The body holds at least one backslash escape.
    public let hasEscapes: Bool
    /// The body holds only ASCII bytes.
    public let isASCII: Bool
    /// The scan checked the body's UTF-8 (false only for ``JSONScanner/readStringSpanForComparison()``).
    let isCheckedUTF8: Bool

    init(range: Range<Int>, hasEscapes: Bool, isASCII: Bool, isCheckedUTF8: Bool = true) {
        self.range = range
        self.hasEscapes = hasEscapes
        self.isASCII = isASCII
        self.isCheckedUTF8 = isCheckedUTF8
    }
}

/// A strict, byte-level JSON reader that walks UTF-8 text in place, building no tree.
///
/// The reader is a cursor: callers ask what comes next (``peekKind()``) and read it, open objects
/// and arrays and step through their members, or skip a whole value (``skipValue()``) without
/// allocating. Everything JSON forbids is an error with its byte offset: trailing commas, leading
/// zeros, raw control characters in strings, unpaired surrogates in `\u` escapes, invalid UTF-8
/// in any string (a key, a value that is read, a value that is skipped: RFC 8259 §8.1 makes JSON
/// text UTF-8), nesting beyond ``maxDepth``, and anything but whitespace after the value
/// (``finish()``). Outside strings only JSON's ASCII grammar is accepted, so every byte of the
/// input is checked, whatever the caller reads or skips.
///
/// Duplicate member names are JSON (RFC 8259 says names SHOULD be unique): the scanner passes
/// them, ``readValue()`` refuses them, and ingest refuses them in the objects it normalizes.
///
/// The buffer is borrowed: it must stay valid as long as the scanner is used.
public struct JSONScanner {
    /// The input.
    public let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read (moved only by reading, or by ``reset(to:)``).
    public internal(set) var position: Int
    /// How many arrays and objects may be open at once.
    public let maxDepth: Int
    /// How many arrays and objects are open now.
    public internal(set) var depth: Int

    /// A position to come back to, with the nesting depth that goes with it.
    public struct Mark: Hashable, Sendable {
        public let position: Int
        public let depth: Int
    }

    /// The largest depth limit a scanner takes: ``readValue()`` recurses once per level.
    public static let depthCeiling = 10_000

    /// A scanner at the start of `bytes`; the depth limit (512 by default) is kept within
    /// 1...``depthCeiling``.
    public init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 512) {
        self.bytes = bytes
        self.position = 0
        self.maxDepth = min(max(1, maxDepth), JSONScanner.depthCeiling)
        self.depth = 0
    }

    /// The current position and depth.
    public var mark: Mark { Mark(position: position, depth: depth) }

    /// Moves back (or forth) to a position taken with ``mark``.
    public mutating func reset(to mark: Mark) {
        position = mark.position
        depth = mark.depth
    }

    /// An error at `offset` (the current position by default), with its line and column.
    public func error(_ reason: JSONError.Reason, at offset: Int? = nil) -> JSONError {
        JSONError(reason, offset: offset ?? position, in: bytes)
    }

    /// The error for what stands at the current position when `expected` should: the byte, or the end.
    func unexpected(_ expected: String) -> JSONError {
        position < bytes.count
            ? error(.unexpectedByte(bytes[position], expected: expected))
            : error(.unexpectedEnd)
    }

    // MARK: Whitespace and kinds

    /// Moves past spaces, tabs, line feeds and carriage returns.
    @inline(__always)
    public mutating func skipWhitespace() {
        let end = bytes.count
        while position < end {
            let b = bytes[position]
            if b > 0x20 { return }
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            position += 1
        }
    }

    /// The kind of the next value, after whitespace; the position stays at its first byte.
    @inline(__always)
    public mutating func peekKind() throws(JSONError) -> JSONKind {
        skipWhitespace()
        guard position < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case let b: throw error(.unexpectedByte(b, expected: "a value"))
        }
    }

    /// True when only whitespace remains.
    public mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return position >= bytes.count
    }

    /// Checks that only whitespace remains after the value just read.
    public mutating func finish() throws(JSONError) {
        skipWhitespace()
        if position < bytes.count { throw error(.trailingData) }
    }

    // MARK: Literals

    /// Reads `null`.
    public mutating func readNull() throws(JSONError) {
        skipWhitespace()
        try expectLiteral("null")
    }

    /// Reads `true` or `false`.
    public mutating func readBool() throws(JSONError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[position] {
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return false
        default:
            throw unexpected("true or false")
        }
    }

    /// Checks that the next bytes spell `literal` and moves past them.
    @inline(__always)
    mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for i in 0..<count {
            let p = position + i
            guard p < bytes.count else { throw error(.unexpectedEnd, at: p) }
            guard bytes[p] == text[i] else {
                throw error(.unexpectedByte(bytes[p], expected: literal.description), at: p)
            }
        }
        position += count
    }

    // MARK: Objects and arrays

    /// Reads `{`; true when a member follows, false when the object is empty (its `}` read too).
    public mutating func openObject() throws(JSONError) -> Bool {
        try open(UInt8(ascii: "{"), close: UInt8(ascii: "}"), name: "an object")
    }

    /// Reads a member's key and the colon after it; the value comes next.
    public mutating func readKey() throws(JSONError) -> JSONStringSpan {
        try readKey(checkingUTF8: true)
    }

    @inline(__always)
    mutating func readKey(checkingUTF8: Bool) throws(JSONError) -> JSONStringSpan {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw unexpected("a member name")
        }
        let span = try scanString(checkingUTF8: checkingUTF8)
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw unexpected("':'") }
        position += 1
        return span
    }

    /// When the next member name is exactly `name`, moves past it and its colon and answers true;
    /// otherwise moves past whitespace only. `name` must hold no byte JSON escapes (`"`, `\`,
    /// controls), so that it matches quote to quote; an empty `name` never matches.
    @inline(__always)
    mutating func readKey(ifEqualTo name: [UInt8]) -> Bool {
        skipWhitespace()
        let p = position
        let count = name.count
        guard count > 0, p + count + 2 <= bytes.count, bytes[p] == UInt8(ascii: "\""),
            bytes[p + count + 1] == UInt8(ascii: "\"")
        else { return false }
        let same = name.withUnsafeBufferPointer { name in
            for i in 0..<count where bytes[p + 1 + i] != name[i] { return false }
            return true
        }
        guard same else { return false }
        return readColon(from: p + count + 2)
    }

    /// After a member name matched in place and ending before `q`: moves past whitespace and the
    /// `:` and answers true; stays where it is and answers false when no colon follows.
    @inline(__always)
    mutating func readColon(from q: Int) -> Bool {
        var q = q
        while q < bytes.count, bytes[q] <= 0x20, bytes[q] == 0x20 || bytes[q] == 0x0A || bytes[q] == 0x0D || bytes[q] == 0x09 {
            q += 1
        }
        guard q < bytes.count, bytes[q] == UInt8(ascii: ":") else { return false }
        position = q + 1
        return true
    }

    /// After a member's value: true when another member follows (`,` read), false at `}` (read).
    @inline(__always)
    public mutating func nextMember() throws(JSONError) -> Bool {
        try next(close: UInt8(ascii: "}"), expected: "',' or '}'")
    }

    /// Reads `[`; true when an element follows, false when the array is empty (its `]` read too).
    public mutating func openArray() throws(JSONError) -> Bool {
        try open(UInt8(ascii: "["), close: UInt8(ascii: "]"), name: "an array")
    }

    /// After an element: true when another element follows (`,` read), false at `]` (read).
    public mutating func nextElement() throws(JSONError) -> Bool {
        try next(close: UInt8(ascii: "]"), expected: "',' or ']'")
    }

    @inline(__always)
    mutating func open(_ opener: UInt8, close: UInt8, name: String) throws(JSONError) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == opener else { throw unexpected(name) }
        guard depth < maxDepth else { throw error(.tooDeep(limit: maxDepth)) }
        position += 1
        depth += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == close {
            position += 1
            depth -= 1
            return false
        }
        return true
    }

    @inline(__always)
    mutating func next(close: UInt8, expected: String) throws(JSONError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error(.unexpectedEnd) }
        let b = bytes[position]
        if b == UInt8(ascii: ",") {
            position += 1
            return true
        }
        if b == close {
            position += 1
            depth -= 1
            return false
        }
        throw error(.unexpectedByte(b, expected: expected))
    }

    /// True when the body of `span` is exactly the bytes of `text` (escapes decoded when present).
    public func span(_ span: JSONStringSpan, equals text: StaticString) -> Bool {
        if span.hasEscapes {
            guard let decoded = try? string(span) else { return false }
            return decoded == text.description
        }
        let count = text.utf8CodeUnitCount
        guard span.range.count == count else { return false }
        let start = text.utf8Start
        for i in 0..<count where bytes[span.range.lowerBound + i] != start[i] {
            return false
        }
        return true
    }
}

/// A scanner borrows its buffer: it stays on the thread that owns the bytes.
@available(*, unavailable)
extension JSONScanner: Sendable {}
