/// Numbers a double cannot hold, as a server holding decimals or big integers in a JSON column
/// sends them: integers of 20 to 40 digits; integers of 18 digits, which fit an `Int` and which a
/// style that varies numbers writes with a fraction or an exponent; decimals of 18 to 30
/// significant digits at ordinary places (`12345678901234567.891`, `0.10000000000000000001`); and
/// tiny and huge ones (`1.2345678901234567890123e-30`, `9.876543210987654321e+250`), of either
/// sign.
///
/// Every one has at least 18 significant digits, the last not zero: a double's shortest text has
/// at most 17, so none is ever held by a double (rule 3 of ``OracleDecimal``) and each
/// keeps its exact value (rule 4). Its magnitude stays between 1e-300 and 1e300, so its double is
/// finite. The server works on the number's parts (sign, digits, place) and writes its canonical
/// text itself, with nothing of the model's or the store's code.
package enum ServerExactNumbers {
    /// The canonical decimal text of the number drawn from `hash`.
    package static func draw(_ hash: UInt64) -> String {
        var stream = hash
        var used = 0
        /// The next draw in `0..<bound`, a fresh 64 bits every few draws.
        func next(_ bound: Int) -> Int {
            if used == 6 {
                stream = ServerHash.mix(stream)
                used = 0
            }
            used += 1
            let value = Int(stream % UInt64(bound))
            stream /= UInt64(bound)
            return value
        }
        stream = ServerHash.mix(stream)
        let negative = next(2) == 1
        let kind = next(5)
        func digits(_ count: Int) -> String {
            var text = String(Character(Unicode.Scalar(UInt8(49 + next(9)))))
            for _ in 1..<(count - 1) { text.append(Character(Unicode.Scalar(UInt8(48 + next(10))))) }
            text.append(Character(Unicode.Scalar(UInt8(49 + next(9)))))
            return text
        }
        switch kind {
        case 0:
            // A whole number of 20 to 40 digits, now and then ending in a few zeros.
            let length = 20 + next(21)
            let zeros = next(4) == 0 ? min(1 + next(5), length - 18) : 0
            let significant = digits(length - zeros)
            return canonical(negative: negative, digits: significant, place: length)
        case 1:
            // A decimal at an ordinary place: a point inside its digits, or up to six zeros after
            // `0.`; half of them a one, zeros, and a one (`0.10000000000000000001`).
            let length = 18 + next(13)
            let significant = next(2) == 0 ? digits(length) : "1" + String(repeating: "0", count: length - 2) + "1"
            let place = next(length + 6) - 6
            return canonical(negative: negative, digits: significant, place: place)
        case 2:
            return canonical(negative: negative, digits: digits(18 + next(8)), place: -7 - next(294))
        case 3:
            // A whole number of 18 digits: an `Int`, past a double's precision.
            return canonical(negative: negative, digits: digits(18), place: 18)
        default:
            return canonical(negative: negative, digits: digits(18 + next(8)), place: 41 + next(260))
        }
    }

    /// The canonical decimal text of `(-1)^negative * 0.digits * 10^place` (`digits` without
    /// leading or trailing zeros): with `E = place - len(digits)`, the digits then `E` zeros when
    /// `0 <= E <= 21`; a point after the first `place` digits when `0 < place < len`; `0.`, `-place`
    /// zeros and the digits when `-6 <= place <= 0`; else the first digit, a point and the rest
    /// when there is a rest, `e`, and `place - 1`.
    static func canonical(negative: Bool, digits: String, place: Int) -> String {
        let sign = negative ? "-" : ""
        let count = digits.count
        if place >= count && place - count <= 21 { return sign + digits + String(repeating: "0", count: place - count) }
        if place > 0 && place < count { return sign + digits.prefix(place) + "." + digits.dropFirst(place) }
        if place <= 0 && place >= -6 { return sign + "0." + String(repeating: "0", count: -place) + digits }
        return sign + digits.prefix(1) + (count > 1 ? "." + digits.dropFirst() : "") + "e" + String(place - 1)
    }

    /// The parts of canonical decimal text: its sign, its significant digits, and their place
    /// (the value is `0.digits * 10^place`).
    static func parts(_ canonical: String) -> (negative: Bool, digits: String, place: Int) {
        var text = Substring(canonical)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        let pieces = text.split(separator: "e", maxSplits: 1)
        let exponent = pieces.count > 1 ? Int(pieces[1]) ?? 0 : 0
        let mantissa = pieces[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = mantissa[0]
        let all = integer + (mantissa.count > 1 ? mantissa[1] : "")
        let leading = all.prefix { $0 == "0" }.count
        var significant = String(all.dropFirst(leading))
        while significant.hasSuffix("0") { significant.removeLast() }
        return (negative, significant, integer.count - leading + exponent)
    }

    /// Every spelling of the number this server writes, the canonical one first: scientific
    /// (`1.5e-30`, `1.5E+2`), a fraction before the exponent (`0.15e-29`), whole digits before it
    /// (`15e-31`), and trailing zeros added (`1.500e-30`, `0.1500`, `15.000`). Each stands for
    /// the same decimal value.
    package static func spellings(_ canonical: String) -> [String] {
        let (negative, digits, place) = parts(canonical)
        guard !digits.isEmpty else { return [canonical] }
        let sign = negative ? "-" : ""
        let head = digits.prefix(1)
        let rest = digits.dropFirst()
        let scientific = place - 1
        var spellings = [canonical]
        spellings.append(sign + head + (rest.isEmpty ? "" : "." + rest) + "e\(scientific)")
        spellings.append(sign + head + "." + (rest.isEmpty ? "0" : rest) + "E" + (scientific >= 0 ? "+" : "") + "\(scientific)")
        spellings.append(sign + "0." + digits + "e\(place)")
        spellings.append(sign + digits + "e\(place - digits.count)")
        if let e = canonical.firstIndex(of: "e") {
            let mantissa = canonical[..<e]
            spellings.append(mantissa + (mantissa.contains(".") ? "00" : ".00") + canonical[e...])
        } else {
            spellings.append(canonical + (canonical.contains(".") ? "00" : ".000"))
        }
        return spellings
    }
}
