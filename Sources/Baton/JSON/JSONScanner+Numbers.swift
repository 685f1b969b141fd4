extension JSONScanner {
    /// Reads a number: `.int` when it has no fraction or exponent and fits an `Int`, else `.double`.
    public mutating func readNumber() throws(JSONError) -> JSONNumber {
        skipWhitespace()
        let start = position
        let isInteger = try scanNumber()
        if isInteger, let value = integerValue(start..<position) {
            return .int(value)
        }
        return .double(try doubleValue(start..<position))
    }

    /// Reads a number where its value is kept as it is (a custom scalar's, an error's
    /// `extensions`): ``readNumber()``'s answer, or, when the nearest double does not stand for it
    /// exactly (more digits than a double keeps, or past its smallest values), the integer it is
    /// when it is a whole number that fits an `Int` however it is written (`9007199254740993.0`),
    /// else `.decimal` with the number's canonical text. So a value reads as the same kind bare
    /// and inside an object, whose canonical text spells that integer as digits. A non-zero
    /// number whose first digit stands past 10^±999,999,999 is out of range.
    public mutating func readExactNumber() throws(JSONError) -> JSONNumber {
        skipWhitespace()
        let start = position
        let isInteger = try scanNumber()
        let range = start..<position
        if isInteger, let value = integerValue(range) {
            return .int(value)
        }
        let value = try doubleValue(range)
        // At most 16 bytes that are not an integer fitting an `Int` spell at most 15 significant
        // digits, which a double in its normal range always keeps.
        if range.count <= 16 && value.isNormal { return .double(value) }
        guard let exact = ExactDecimal(json: bytes[range]) else {
            throw error(.numberOutOfRange, at: start)
        }
        if exact.isHeld(by: value) { return .double(value) }
        // A whole number that fits an `Int`, written with a fraction or an exponent: until
        // 2026-12-06 it stayed `.decimal` here but read back as `.int` from inside an object,
        // whose canonical text spells it as digits.
        if !isInteger, let whole = exactIntegerValue(range) { return .int(whole) }
        return .decimal(exact.canonicalText)
    }

    /// Reads a number that stands for an integer: its value when the number is a whole one that
    /// fits an `Int`, whatever its spelling (`12`, `-3`, `1.0`, `2e3`, `1.50e1`), else `nil` (a
    /// fraction, or too large). The scanner moves past it either way; `text` is where it lies.
    ///
    /// JSON numbers carry no type (RFC 8259 §6), so `1.0` is the integer 1; the decision is made on
    /// the decimal text, exactly, never through a `Double`.
    public mutating func readInteger() throws(JSONError) -> (value: Int?, text: Range<Int>) {
        skipWhitespace()
        let start = position
        let isInteger = try scanNumber()
        let range = start..<position
        return (isInteger ? integerValue(range) : exactIntegerValue(range), range)
    }

    /// The integer a number with a fraction or an exponent stands for (checked by
    /// ``scanNumber()``), `nil` when it is not whole or does not fit an `Int`.
    func exactIntegerValue(_ range: Range<Int>) -> Int? {
        var p = range.lowerBound
        let end = range.upperBound
        let negative = bytes[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        // The significant digits, and how many of them stand after the decimal point.
        var digits: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        while p < end, bytes[p] | 0x20 != UInt8(ascii: "e") {
            let b = bytes[p]
            p += 1
            if b == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            if digits.isEmpty && b == UInt8(ascii: "0") {
                if inFraction { fractionDigits += 1 }
                continue
            }
            digits.append(b &- UInt8(ascii: "0"))
            if inFraction { fractionDigits += 1 }
        }
        var exponent = 0
        if p < end {
            p += 1
            var exponentNegative = false
            if bytes[p] == UInt8(ascii: "-") || bytes[p] == UInt8(ascii: "+") {
                exponentNegative = bytes[p] == UInt8(ascii: "-")
                p += 1
            }
            while p < end {
                // Beyond a million the answer no longer depends on the exact exponent.
                exponent = min(exponent * 10 + Int(bytes[p] &- UInt8(ascii: "0")), 1_000_000)
                p += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { return 0 }
        // The value is digits × 10^scale.
        let scale = exponent - fractionDigits
        guard scale >= 0, digits.count + scale <= 19 else { return nil }
        var value = 0
        for digit in digits + [UInt8](repeating: 0, count: scale) {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(Int(digit)) : times10.addingReportingOverflow(Int(digit))
            if o1 || o2 { return nil }
            value = next
        }
        return value
    }

    /// Moves past a number that starts at the current position, checking JSON's grammar:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. True when it has neither fraction
    /// nor exponent.
    mutating func scanNumber() throws(JSONError) -> Bool {
        let end = bytes.count
        var p = position
        if p < end, bytes[p] == UInt8(ascii: "-") { p += 1 }
        guard p < end else { throw error(.unexpectedEnd, at: p) }
        let first = bytes[p]
        if first == UInt8(ascii: "0") {
            p += 1
            if p < end, JSONScanner.isDigit(bytes[p]) { throw error(.invalidNumber, at: p) }
        } else if JSONScanner.isDigit(first) {
            p += 1
            while p < end, JSONScanner.isDigit(bytes[p]) { p += 1 }
        } else {
            throw error(.invalidNumber, at: p)
        }
        var isInteger = true
        if p < end, bytes[p] == UInt8(ascii: ".") {
            isInteger = false
            p += 1
            guard p < end, JSONScanner.isDigit(bytes[p]) else { throw error(.invalidNumber, at: p) }
            while p < end, JSONScanner.isDigit(bytes[p]) { p += 1 }
        }
        if p < end, bytes[p] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            p += 1
            if p < end, bytes[p] == UInt8(ascii: "+") || bytes[p] == UInt8(ascii: "-") { p += 1 }
            guard p < end, JSONScanner.isDigit(bytes[p]) else { throw error(.invalidNumber, at: p) }
            while p < end, JSONScanner.isDigit(bytes[p]) { p += 1 }
        }
        position = p
        return isInteger
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    /// The integer spelled by `range` (an optional minus and digits), `nil` when it overflows `Int`.
    func integerValue(_ range: Range<Int>) -> Int? {
        var p = range.lowerBound
        let negative = bytes[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        var value = 0
        // Accumulate negatively so that Int.min fits.
        while p < range.upperBound {
            let digit = Int(bytes[p] &- UInt8(ascii: "0"))
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.subtractingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
            p += 1
        }
        if negative { return value }
        let (positive, overflow) = (0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }

    /// The double nearest to the number spelled by `range` (checked by ``scanNumber()``).
    func doubleValue(_ range: Range<Int>) throws(JSONError) -> Double {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(.numberOutOfRange, at: range.lowerBound)
        }
        return value
    }
}
