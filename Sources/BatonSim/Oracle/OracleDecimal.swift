/// A JSON number's exact decimal value, worked out on its digits alone (never through a double),
/// and the model's own reading of the exact-number rules, which the store
/// applies with code of its own (the same rules for a custom scalar's value, every number in
/// its object, and every number in an error's `extensions`):
///
/// 1. written with no fraction and no exponent and fits an `Int`: an integer;
/// 2. else `d`, the nearest double; not finite: out of range;
/// 3. `d.description` standing for the same decimal value as the number written: the double `d`
///    (a number that is zero, of either sign, always; one that is not zero but whose double is,
///    `1e-400`, is not held);
/// 4. else the number keeps its exact value: the integer it is when it is a whole number that
///    fits an `Int` (`9007199254740993.0`, `9.007199254740993e15`), so that it reads the same
///    bare and inside an object, where its canonical text is its digits (rule 1); else its
///    canonical decimal text (``canonicalText``). Until 2026-12-06 such an integer was decimal
///    text bare.
///
/// The value is `(-1)^negative * digits * 10^exponent`, `digits` without leading or trailing
/// zeros (empty for zero). The exponent is kept as an `Int` when the written exponent has at most
/// 18 digits; a longer one (`1e-99999999999999999999`, whose double is 0) is kept as its exact
/// decimal text, so that no exponent is ever rounded or wrapped.
package struct OracleDecimal: Equatable, Sendable {
    /// True for a minus sign (`-0` is zero all the same: zero is always held by a double).
    package var negative: Bool
    /// The significant digits as ASCII bytes, first and last non-zero; empty for zero.
    package var digits: [UInt8]
    /// The power of ten, when it fits (see ``hugeExponent``).
    package var exponent: Int
    /// The power of ten as signed decimal text (`-100000000000000000000`) when the written exponent
    /// has more than 18 digits; then ``exponent`` is unused.
    package var hugeExponent: String?

    package var isZero: Bool { digits.isEmpty }

    /// The largest power of ten, either way, of the first significant digit of a number kept
    /// exactly; a number that is not zero and goes further is out of range (as `1e400` is).
    package static let scientificLimit = 999_999_999

    /// True when the number is not zero and its first significant digit stands at a power of ten
    /// past ``scientificLimit`` (`1e-1000000000`, `1e-99999999999999999999`): too far to keep.
    package var isPastExactRange: Bool {
        if isZero { return false }
        if hugeExponent != nil { return true }
        return abs(digits.count + exponent - 1) > Self.scientificLimit
    }

    /// Reads a JSON number (RFC 8259's grammar, checked here: optional `-`, an integer part with no
    /// leading zero, an optional fraction, an optional exponent); nil for anything else.
    package init?(json text: some Collection<UInt8>) {
        let bytes = Array(text)
        var index = 0
        negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var all: [UInt8] = []
        let integerStart = index
        while index < bytes.count, Self.isDigit(bytes[index]) { all.append(bytes[index]); index += 1 }
        let integerCount = index - integerStart
        guard integerCount > 0, integerCount == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        var fractionCount = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, Self.isDigit(bytes[index]) { all.append(bytes[index]); index += 1; fractionCount += 1 }
            guard fractionCount > 0 else { return nil }
        }
        var written = 0
        var writtenHuge: String?
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var minus = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                minus = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponentDigits: [UInt8] = []
            let start = index
            while index < bytes.count, Self.isDigit(bytes[index]) { exponentDigits.append(bytes[index]); index += 1 }
            guard index > start else { return nil }
            while exponentDigits.count > 1, exponentDigits.first == UInt8(ascii: "0") { exponentDigits.removeFirst() }
            if exponentDigits.count <= 18 {
                written = Int(String(decoding: exponentDigits, as: UTF8.self))! * (minus ? -1 : 1)
            } else {
                writtenHuge = (minus ? "-" : "") + String(decoding: exponentDigits, as: UTF8.self)
            }
        }
        guard index == bytes.count else { return nil }
        // Leading zeros say nothing; each trailing zero dropped is one more power of ten.
        let first = all.firstIndex { $0 != UInt8(ascii: "0") }
        guard let first else {
            digits = []
            exponent = 0
            hugeExponent = nil
            return
        }
        let last = all.lastIndex { $0 != UInt8(ascii: "0") }!
        digits = Array(all[first...last])
        let shift = (all.count - 1 - last) - fractionCount
        if let writtenHuge {
            exponent = 0
            hugeExponent = Self.sum(writtenHuge, shift)
        } else {
            exponent = written + shift
            hugeExponent = nil
        }
    }

    /// Reads a JSON number given as text.
    package init?(json text: String) {
        self.init(json: Array(text.utf8))
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// True when the two stand for the same decimal value (every zero is the same zero).
    package func sameValue(as other: OracleDecimal) -> Bool {
        if isZero || other.isZero { return isZero && other.isZero }
        return negative == other.negative && digits == other.digits && exponent == other.exponent && hugeExponent == other.hugeExponent
    }

    /// Rule 3: true when `double`'s shortest text (`description`) stands for this value. Zero of
    /// either sign is always held.
    package func isHeld(by double: Double) -> Bool {
        if isZero { return true }
        guard double.isFinite, let shortest = OracleDecimal(json: double.description) else { return false }
        return sameValue(as: shortest)
    }

    /// The canonical decimal text (rule 4): with `D` the digits, `E` the exponent and
    /// `P = len(D) + E`: `D` then `E` zeros when `0 <= E <= 21`; `D` with a point after its first `P`
    /// digits when `0 < P < len(D)`; `0.`, `-P` zeros, then `D` when `-6 <= P <= 0`; else `D`'s
    /// first digit, `.` and the rest when there is a rest, `e`, and `P - 1`. A `-` first when
    /// negative. (Zero, which rule 3 always takes, is `0`.) Asked only of a value whose double
    /// is finite: a far positive power would be that many zeros.
    package var canonicalText: String {
        if isZero { return "0" }
        let sign = negative ? "-" : ""
        let count = digits.count
        if let hugeExponent {
            // Only a far negative power comes with a finite double (a far positive one is out of
            // range, rule 2, and never asked for), and its place is scientific.
            let head = String(decoding: digits.prefix(1), as: UTF8.self)
            let rest = count > 1 ? "." + String(decoding: digits.dropFirst(), as: UTF8.self) : ""
            return sign + head + rest + "e" + Self.sum(hugeExponent, count - 1)
        }
        let text = String(decoding: digits, as: UTF8.self)
        if exponent >= 0 && exponent <= 21 { return sign + text + String(repeating: "0", count: exponent) }
        let place = count + exponent
        if exponent < 0 && place > 0 {
            let point = text.index(text.startIndex, offsetBy: place)
            return sign + text[..<point] + "." + text[point...]
        }
        if exponent < 0 && place >= -6 { return sign + "0." + String(repeating: "0", count: -place) + text }
        let rest = count > 1 ? "." + text.dropFirst() : ""
        return sign + text.prefix(1) + rest + "e" + String(place - 1)
    }

    /// Rules 1-4 for the JSON number `text` (valid JSON): the canonical decimal text when the
    /// number keeps its exact value (rule 4); nil when it is an integer that fits an `Int`
    /// (rule 1), when its nearest double holds it (rule 3), when that double is not finite
    /// (rule 2: refused by whoever takes it in), or when `text` is not a JSON number.
    package static func exactText(json text: some Collection<UInt8>) -> String? {
        let bytes = Array(text)
        guard let decimal = OracleDecimal(json: bytes) else { return nil }
        let integral = !bytes.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let string = String(decoding: bytes, as: UTF8.self)
        if integral, Int(string) != nil { return nil }
        guard let double = Double(string), double.isFinite else { return nil }
        return decimal.isHeld(by: double) ? nil : decimal.canonicalText
    }

    /// Rule 4 with rule 1 passed over: the canonical decimal text of a value already known to be
    /// whole and to fit an `Int` but written with a fraction or an exponent (`9007199254740993.0`),
    /// when its nearest double does not hold it; nil when it does.
    package static func exactText(whole: Int) -> String? {
        // Every integer below 2^53 is a double whose shortest text is all its digits.
        if whole.magnitude < 1 << 53 { return nil }
        let text = String(whole)
        guard let decimal = OracleDecimal(json: text), let double = Double(text) else { return nil }
        return decimal.isHeld(by: double) ? nil : decimal.canonicalText
    }

    /// True when `text` is canonical decimal text as rule 4 writes it: a JSON number, finite as a
    /// double, not held by its nearest double, and spelled exactly as ``canonicalText`` spells
    /// its value (so not `1.50`, `01`, `1.5e1`, `` or `0.1`).
    package static func isCanonical(_ text: String) -> Bool {
        guard let decimal = OracleDecimal(json: text), let double = Double(text), double.isFinite, !decimal.isHeld(by: double) else {
            return false
        }
        return decimal.canonicalText.utf8.elementsEqual(text.utf8)
    }

    /// `signed + small` for `signed` a signed decimal integer text of any length (no leading
    /// zeros), on its digits. `small` is far smaller than `signed` where this is used (a shift by a
    /// number's digit count against an exponent of 19 digits or more), but any value works.
    package static func sum(_ signed: String, _ small: Int) -> String {
        let minus = signed.hasPrefix("-")
        var magnitude = Array((minus ? signed.dropFirst() : Substring(signed)).utf8).map { Int($0) - 48 }
        if let value = Int(signed), case (let result, false) = value.addingReportingOverflow(small) { return String(result) }
        // Same sign: add magnitudes; otherwise subtract the smaller magnitude from the larger.
        let smallMagnitude = Array(String(small.magnitude).utf8).map { Int($0) - 48 }
        let sameSign = small == 0 || (small < 0) == minus
        func compare(_ a: [Int], _ b: [Int]) -> Int {
            if a.count != b.count { return a.count < b.count ? -1 : 1 }
            for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
            return 0
        }
        var resultMinus = minus
        var result: [Int]
        if sameSign {
            result = add(magnitude, smallMagnitude)
        } else if compare(magnitude, smallMagnitude) >= 0 {
            result = subtract(magnitude, smallMagnitude)
        } else {
            result = subtract(smallMagnitude, magnitude)
            resultMinus = !minus
        }
        while result.count > 1, result.first == 0 { result.removeFirst() }
        magnitude = result
        if magnitude == [0] { return "0" }
        return (resultMinus ? "-" : "") + String(magnitude.map { Character(Unicode.Scalar(UInt8($0 + 48))) })
    }

    private static func add(_ a: [Int], _ b: [Int]) -> [Int] {
        var result: [Int] = []
        var carry = 0
        var i = a.count - 1
        var j = b.count - 1
        while i >= 0 || j >= 0 || carry > 0 {
            let total = (i >= 0 ? a[i] : 0) + (j >= 0 ? b[j] : 0) + carry
            result.append(total % 10)
            carry = total / 10
            i -= 1
            j -= 1
        }
        return result.reversed()
    }

    /// `a - b` for `a >= b`.
    private static func subtract(_ a: [Int], _ b: [Int]) -> [Int] {
        var result: [Int] = []
        var borrow = 0
        var j = b.count - 1
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            var digit = a[i] - borrow - (j >= 0 ? b[j] : 0)
            borrow = 0
            if digit < 0 {
                digit += 10
                borrow = 1
            }
            result.append(digit)
            j -= 1
        }
        return result.reversed()
    }
}
