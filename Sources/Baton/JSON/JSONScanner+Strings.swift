#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONScanner {
    /// Reads a string value.
    public mutating func readString() throws(JSONError) -> String {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw unexpected("a string") }
        return try string(scanString())
    }

    /// Reads a string value without decoding it: its span, for ``string(_:)`` or a byte comparison.
    public mutating func readStringSpan() throws(JSONError) -> JSONStringSpan {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw unexpected("a string") }
        return try scanString()
    }

    /// Reads a string value without decoding it and without checking its UTF-8, for a caller that
    /// only compares its bytes with text already known to be UTF-8 (equal bytes are valid too), and
    /// that reads it again with ``readStringSpan()`` or ``readString()`` when they differ.
    /// ``string(_:)`` checks such a span's UTF-8 when it decodes it.
    public mutating func readStringSpanForComparison() throws(JSONError) -> JSONStringSpan {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw unexpected("a string") }
        return try scanString(checkingUTF8: false)
    }

    /// Moves past the string that starts at the current position (on its opening quote), checking
    /// its escapes, control characters and UTF-8, and returns where its body lies.
    mutating func scanString() throws(JSONError) -> JSONStringSpan {
        try scanString(checkingUTF8: true)
    }

    /// The string scan, in one pass: eight ASCII bytes at a time up to the first quote, backslash,
    /// control character or non-ASCII byte, then that byte alone (a multi-byte sequence checked as
    /// a whole, unless `checkingUTF8` is false).
    @inline(__always)
    mutating func scanString(checkingUTF8: Bool) throws(JSONError) -> JSONStringSpan {
        let start = position + 1
        var p = start
        let end = bytes.count
        var isASCII = true
        var escaped = false
        while true {
            while p + 8 <= end {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: p, as: UInt64.self))
                let special = JSONScanner.specialBytes(word)
                // The bytes before the first special one (all eight when there is none).
                let ordinary = special == 0 ? word : word & ((1 << (UInt64(special.trailingZeroBitCount >> 3) << 3)) &- 1)
                let high = ordinary & JSONScanner.highBits
                if high != 0 {
                    isASCII = false
                    if checkingUTF8 {
                        // Up to the first non-ASCII byte, which is checked below.
                        p += high.trailingZeroBitCount >> 3
                        break
                    }
                }
                if special == 0 {
                    p += 8
                    continue
                }
                p += special.trailingZeroBitCount >> 3
                break
            }
            guard p < end else { throw error(.unexpectedEnd, at: end) }
            let b = bytes[p]
            if b == UInt8(ascii: "\"") {
                position = p + 1
                return JSONStringSpan(range: start..<p, hasEscapes: escaped, isASCII: isASCII, isCheckedUTF8: checkingUTF8)
            }
            if b == UInt8(ascii: "\\") {
                escaped = true
                p = try checkEscape(at: p)
                continue
            }
            if b < 0x20 { throw error(.controlCharacterInString, at: p) }
            if b >= 0x80 {
                isASCII = false
                guard checkingUTF8 else {
                    p += 1
                    continue
                }
                // Non-ASCII text often runs on (CJK, emoji): check it all before the next word.
                repeat {
                    p = try checkUTF8(at: p)
                } while p < end && bytes[p] >= 0x80
                continue
            }
            p += 1
        }
    }

    /// The high bit of every byte of a word.
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Checks the UTF-8 sequence whose lead byte (at least 0x80) is at `p`; returns the offset after it.
    ///
    /// RFC 3629's table: no continuation byte as a lead, no overlong forms, no surrogates
    /// (U+D800...U+DFFF), nothing above U+10FFFF. Kept out of line: the string scan's loop stays
    /// small for the ASCII it mostly meets.
    @inline(never)
    func checkUTF8(at p: Int) throws(JSONError) -> Int {
        let end = bytes.count
        let lead = bytes[p]
        // The allowed range of the second byte, and the sequence's length.
        let second: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0xC2...0xDF: second = 0x80...0xBF; length = 2
        case 0xE0: second = 0xA0...0xBF; length = 3
        case 0xE1...0xEC, 0xEE...0xEF: second = 0x80...0xBF; length = 3
        case 0xED: second = 0x80...0x9F; length = 3
        case 0xF0: second = 0x90...0xBF; length = 4
        case 0xF1...0xF3: second = 0x80...0xBF; length = 4
        case 0xF4: second = 0x80...0x8F; length = 4
        default: throw error(.invalidUTF8, at: p)
        }
        guard p + length <= end, second.contains(bytes[p + 1]) else { throw error(.invalidUTF8, at: p) }
        for i in (p + 2)..<(p + length) where bytes[i] & 0xC0 != 0x80 {
            throw error(.invalidUTF8, at: p)
        }
        return p + length
    }

    /// The high bit of each byte of `word` (first byte lowest) that is `"`, `\` or below 0x20.
    /// The lowest bit set is exact; bits above it may be set by a borrow, so only it counts.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & highs
    }

    /// Checks the escape whose backslash is at `p`; returns the offset just after it.
    /// A high surrogate must be followed by a `\u` low surrogate, and a low one must not stand alone.
    func checkEscape(at p: Int) throws(JSONError) -> Int {
        guard p + 1 < bytes.count else { throw error(.unexpectedEnd, at: bytes.count) }
        switch bytes[p + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return p + 2
        case UInt8(ascii: "u"):
            let unit = try hex4(at: p + 2)
            if unit >= 0xDC00 && unit <= 0xDFFF { throw error(.invalidUnicodeEscape, at: p) }
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard p + 7 < bytes.count, bytes[p + 6] == UInt8(ascii: "\\"), bytes[p + 7] == UInt8(ascii: "u")
                else { throw error(.invalidUnicodeEscape, at: p) }
                let low = try hex4(at: p + 8)
                guard low >= 0xDC00 && low <= 0xDFFF else { throw error(.invalidUnicodeEscape, at: p + 6) }
                return p + 12
            }
            return p + 6
        default:
            throw error(.invalidEscape, at: p)
        }
    }

    /// The value of the four hex digits at `p`.
    func hex4(at p: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for i in p..<(p + 4) {
            guard i < bytes.count else { throw error(.unexpectedEnd, at: bytes.count) }
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b &- UInt8(ascii: "A") &+ 10
            default: throw error(.invalidUnicodeEscape, at: i)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Decodes the body of a string that ``scanString()`` checked (its UTF-8 and escapes included,
    /// so decoding repairs nothing).
    public func string(_ span: JSONStringSpan) throws(JSONError) -> String {
        if !span.isCheckedUTF8 && !span.isASCII {
            var copy = self
            copy.position = span.range.lowerBound - 1
            return try copy.string(copy.scanString())
        }
        let body = UnsafeRawBufferPointer(rebasing: bytes[span.range])
        if !span.hasEscapes { return String(decoding: body, as: UTF8.self) }
        // Written straight into the string's storage: every escape is longer than what it stands
        // for, so the body's length bounds the result, and the runs between escapes (most of a
        // long text) are copied whole, found with `memchr`.
        var failure: JSONError?
        let decoded = String(unsafeUninitializedCapacity: span.range.count) { out -> Int in
            guard let source = bytes.baseAddress, let target = out.baseAddress else { return 0 }
            var p = span.range.lowerBound
            let end = span.range.upperBound
            var n = 0
            while p < end {
                let next = memchr(source + p, Int32(UInt8(ascii: "\\")), end - p)
                let stop = next.map { UnsafeRawPointer($0) - source } ?? end
                if stop > p {
                    UnsafeMutableRawPointer(target + n).copyMemory(from: source + p, byteCount: stop - p)
                    n += stop - p
                    p = stop
                }
                guard p < end else { break }
                guard p + 1 < end else { failure = error(.invalidEscape, at: p); return 0 }
                let e = bytes[p + 1]
                p += 2
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): target[n] = e; n += 1
                case UInt8(ascii: "b"): target[n] = 0x08; n += 1
                case UInt8(ascii: "f"): target[n] = 0x0C; n += 1
                case UInt8(ascii: "n"): target[n] = 0x0A; n += 1
                case UInt8(ascii: "r"): target[n] = 0x0D; n += 1
                case UInt8(ascii: "t"): target[n] = 0x09; n += 1
                case UInt8(ascii: "u"):
                    do throws(JSONError) {
                        guard p + 4 <= end else { throw error(.invalidUnicodeEscape, at: p - 2) }
                        var scalar = try hex4(at: p)
                        p += 4
                        if scalar >= 0xD800 && scalar <= 0xDBFF {
                            guard p + 6 <= end, bytes[p] == UInt8(ascii: "\\"), bytes[p + 1] == UInt8(ascii: "u") else {
                                throw error(.invalidUnicodeEscape, at: p - 6)
                            }
                            let low = try hex4(at: p + 2)
                            guard low >= 0xDC00 && low <= 0xDFFF else { throw error(.invalidUnicodeEscape, at: p) }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            p += 6
                        } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                            throw error(.invalidUnicodeEscape, at: p - 6)
                        }
                        n += JSONScanner.writeUTF8(scalar, to: target + n)
                    } catch {
                        failure = error
                        return 0
                    }
                default:
                    failure = error(.invalidEscape, at: p - 2)
                    return 0
                }
            }
            return n
        }
        if let failure { throw failure }
        return decoded
    }

    /// Writes the UTF-8 bytes of the scalar `value` (a valid scalar: surrogates are excluded) at
    /// `target`; how many.
    static func writeUTF8(_ value: UInt32, to target: UnsafeMutablePointer<UInt8>) -> Int {
        switch value {
        case 0..<0x80:
            target[0] = UInt8(value)
            return 1
        case 0x80..<0x800:
            target[0] = UInt8(0xC0 | (value >> 6))
            target[1] = UInt8(0x80 | (value & 0x3F))
            return 2
        case 0x800..<0x10000:
            target[0] = UInt8(0xE0 | (value >> 12))
            target[1] = UInt8(0x80 | ((value >> 6) & 0x3F))
            target[2] = UInt8(0x80 | (value & 0x3F))
            return 3
        default:
            target[0] = UInt8(0xF0 | (value >> 18))
            target[1] = UInt8(0x80 | ((value >> 12) & 0x3F))
            target[2] = UInt8(0x80 | ((value >> 6) & 0x3F))
            target[3] = UInt8(0x80 | (value & 0x3F))
            return 4
        }
    }
}
