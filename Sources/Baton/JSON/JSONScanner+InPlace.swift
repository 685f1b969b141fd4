#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A member name as the scanner matches it in place: the name between its quotes, packed into
/// two words with masks of the bytes that count, so that a name of up to 14 bytes is compared
/// with two loads instead of byte by byte.
struct JSONKeyPattern {
    /// The quoted name's length (`"name"`: the name's plus two); 0 when it does not fit the words.
    let count: Int
    let first: UInt64
    let second: UInt64
    let firstMask: UInt64
    let secondMask: UInt64

    /// The pattern of `name`, a name that needs no escape in JSON (no quote, backslash or
    /// control byte); an empty or longer name gets an empty pattern, which matches nothing.
    init(_ name: [UInt8]) {
        guard !name.isEmpty, name.count + 2 <= 16 else {
            (count, first, second, firstMask, secondMask) = (0, 0, 0, 0, 0)
            return
        }
        var quoted = [UInt8](repeating: 0, count: 16)
        var mask = [UInt8](repeating: 0, count: 16)
        quoted[0] = UInt8(ascii: "\"")
        quoted.replaceSubrange(1...name.count, with: name)
        quoted[name.count + 1] = UInt8(ascii: "\"")
        for i in 0..<(name.count + 2) { mask[i] = 0xFF }
        // Loaded as the scanner loads the input, so the byte order is the same on any machine.
        func word(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
            bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        }
        count = name.count + 2
        first = word(quoted, 0)
        second = word(quoted, 8)
        firstMask = word(mask, 0)
        secondMask = word(mask, 8)
    }
}

extension JSONScanner {
    /// ``readKey(ifEqualTo:)`` with the name also given as a pattern: the name is compared by
    /// two word loads when sixteen bytes remain, byte by byte otherwise.
    @inline(__always)
    mutating func readKey(ifEqualTo name: [UInt8], _ pattern: JSONKeyPattern) -> Bool {
        skipWhitespace()
        let p = position
        guard pattern.count > 0, p + 16 <= bytes.count else { return readKey(ifEqualTo: name) }
        let a = bytes.loadUnaligned(fromByteOffset: p, as: UInt64.self)
        let b = bytes.loadUnaligned(fromByteOffset: p + 8, as: UInt64.self)
        guard (a ^ pattern.first) & pattern.firstMask == 0, (b ^ pattern.second) & pattern.secondMask == 0 else {
            return false
        }
        return readColon(from: p + pattern.count)
    }

    /// When the string at the current position (its opening quote) is at most `limit` bytes of
    /// printable ASCII without escapes, moves past it and returns its body's range (its text
    /// is then its bytes, and valid); otherwise stays and returns nil, for the general scan.
    @inline(__always)
    mutating func readShortPlainString(limit: Int = 32) -> Range<Int>? {
        guard let body = shortPlainString(at: position, limit: limit) else { return nil }
        position = body.upperBound + 1
        return body
    }

    /// The body's range of the string whose opening quote is at `quote`, when it is at most
    /// `limit` bytes of printable ASCII without escapes; nil otherwise. Reads only.
    @inline(__always)
    func shortPlainString(at quote: Int, limit: Int = 32) -> Range<Int>? {
        let start = quote + 1
        let end = min(bytes.count, start + limit)
        var p = start
        while p < end {
            let b = bytes[p]
            if b == UInt8(ascii: "\"") { return start..<p }
            if b < 0x20 || b >= 0x80 || b == UInt8(ascii: "\\") { return nil }
            p += 1
        }
        return nil
    }

    /// When the string at the current position (its opening quote) holds exactly the `count`
    /// bytes at `start`, moves past it and answers true; otherwise stays and answers false.
    ///
    /// The bytes at `start` must be the body of a string scanned before without escapes: they
    /// hold no quote, backslash or control byte and are valid UTF-8. Equal bytes followed by a
    /// quote are then the whole string, as valid as the first, and need no scan of their own.
    @inline(__always)
    mutating func skipString(sameAs start: Int, count: Int) -> Bool {
        let body = position + 1
        let close = body + count
        guard close < bytes.count, bytes[close] == UInt8(ascii: "\""), let base = bytes.baseAddress else { return false }
        guard JSONScanner.sameBytes(base + body, base + start, count: count) else { return false }
        position = close + 1
        return true
    }

    /// True when the bytes at `start` are those of `text` (a span of the same input).
    func sameText(at start: Int, as text: TextSpan) -> Bool {
        let count = Int(text.count)
        guard !text.isNone, start >= 0, start + count <= bytes.count, let base = bytes.baseAddress else { return false }
        // A whole object's text is long enough for the C library's vector compare to pay.
        if count >= 32 { return memcmp(base + start, base + Int(text.start), count) == 0 }
        return JSONScanner.sameBytes(base + start, base + Int(text.start), count: count)
    }

    /// True when the `count` bytes at `a` and at `b` are the same (both ranges in bounds).
    @inline(__always)
    static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        if count >= 8 {
            var i = 0
            while i &+ 8 < count {
                if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                    return false
                }
                i &+= 8
            }
            // The last eight bytes, overlapping what was compared when the count is not a multiple of eight.
            let last = count &- 8
            return a.loadUnaligned(fromByteOffset: last, as: UInt64.self) == b.loadUnaligned(fromByteOffset: last, as: UInt64.self)
        }
        var i = 0
        while i < count {
            if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
            i &+= 1
        }
        return true
    }
}
