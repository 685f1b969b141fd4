/// A JSON number's exact decimal value: a sign, its significant digits and a power of ten.
///
/// A number a double cannot hold (more digits than a double keeps, or past its smallest values)
/// is kept as ``canonicalText``, so that a custom scalar's `123456789012345678901234567890` reads
/// back with every digit (docs/design.md, "Bad input"). Two spellings of one value (`1.50e2`,
/// `150`) have the same canonical text.
struct ExactDecimal: Equatable {
    /// True for a value below zero (never for zero).
    var negative: Bool
    /// The significant digits, as values 0...9: no leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    /// The power of ten the digits, read as an integer, are multiplied by.
    var exponent: Int

    /// The largest power of ten, either way, of the first significant digit of a number kept
    /// exactly; a number that is not zero and goes further is out of range, as `1e400` is.
    static let scientificLimit = 999_999_999

    /// The value of number text that follows JSON's grammar (checked before), `nil` when it is
    /// not zero and its first significant digit stands past ``scientificLimit``.
    init?<Bytes: Collection>(json text: Bytes) where Bytes.Element == UInt8 {
        var index = text.startIndex
        negative = false
        if index < text.endIndex, text[index] == UInt8(ascii: "-") {
            negative = true
            text.formIndex(after: &index)
        }
        digits = []
        var fractionDigits = 0
        var inFraction = false
        while index < text.endIndex, text[index] | 0x20 != UInt8(ascii: "e") {
            let byte = text[index]
            text.formIndex(after: &index)
            if byte == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            if inFraction { fractionDigits += 1 }
            if digits.isEmpty && byte == UInt8(ascii: "0") { continue }
            digits.append(byte &- UInt8(ascii: "0"))
        }
        var written = 0
        if index < text.endIndex {
            text.formIndex(after: &index)
            var exponentNegative = false
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                text.formIndex(after: &index)
            }
            // Past 18 digits (leading zeros aside) no number of digits could bring the value back
            // within the limit; the exponent is not read further.
            var tooLarge = false
            while index < text.endIndex {
                if !tooLarge {
                    written = written * 10 + Int(text[index] &- UInt8(ascii: "0"))
                    if written >= 1_000_000_000_000_000_000 / 10 { tooLarge = true }
                }
                text.formIndex(after: &index)
            }
            if tooLarge, !digits.isEmpty { return nil }
            if exponentNegative { written = -written }
        }
        var trailingZeros = 0
        while digits.last == 0 {
            digits.removeLast()
            trailingZeros += 1
        }
        exponent = written - fractionDigits + trailingZeros
        if digits.isEmpty {
            negative = false
            exponent = 0
        } else if abs(digits.count + exponent - 1) > Self.scientificLimit {
            return nil
        }
    }

    /// True when `value`, the double nearest to this number, stands for it exactly as a double's
    /// shortest text: the double's `description` has the same decimal value.
    func isHeld(by value: Double) -> Bool {
        // Fifteen significant digits inside a double's normal range always come back from the
        // nearest double's shortest text (a double keeps 15 decimal digits), so no text is made.
        if digits.count <= 15, abs(digits.count + exponent) <= 300 { return true }
        let shortest = value.description
        return ExactDecimal(json: shortest.utf8) == self
    }

    /// The value as JSON number text, one spelling per value (docs/design.md, "Bad input"): the
    /// digits and up to 21 zeros of a whole number; digits around a point when the point falls
    /// among them or at most six zeros before them; else one digit, the rest after a point, and
    /// `e` with the exponent.
    var canonicalText: String {
        var out = negative ? "-" : ""
        if digits.isEmpty { return "0" }
        let text = String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        let point = digits.count + exponent
        if exponent >= 0 && exponent <= 21 {
            out += text
            out += String(repeating: "0", count: exponent)
        } else if exponent < 0 && point > 0 {
            out += text.prefix(point)
            out += "."
            out += text.dropFirst(point)
        } else if exponent < 0 && point >= -6 {
            out += "0."
            out += String(repeating: "0", count: -point)
            out += text
        } else {
            out += text.prefix(1)
            if digits.count > 1 {
                out += "."
                out += text.dropFirst()
            }
            out += "e\(point - 1)"
        }
        return out
    }
}
