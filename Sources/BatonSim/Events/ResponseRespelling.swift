/// Garbling that writes one value of a response another way: a `__typename` as the same name
/// escaped or as texts that are other names or none, a number as the same decimal value.
extension ResponseGarbling {
    /// `text` with the value of one `__typename` member spelled another way: the same name with
    /// its first letter escaped (`\u0043haracter`, to be read as `Character`), or another text:
    /// its `K` as an escaped Kelvin sign (which Swift's `==` takes for a `K`), its first letter's
    /// case flipped (a name the schema does not have), a combining accent or an `é` added, a
    /// space added, or nothing. `nil` when no member is named `__typename` as written.
    static func respelledTypename(_ text: [UInt8], random: inout SimRandom) -> (text: [UInt8], how: String)? {
        let typenames = JSONValueSpans.objectMembers(of: text).compactMap { member -> (Range<Int>, [UInt8])? in
            guard text[member.name].elementsEqual("__typename".utf8) else { return nil }
            var start = member.name.upperBound + 1
            while start < member.whole.upperBound, text[start] != UInt8(ascii: "\"") { start += 1 }
            let value = start..<member.whole.upperBound
            let name = Array(text[value].dropFirst().dropLast())
            guard value.count >= 2, text[value.upperBound - 1] == UInt8(ascii: "\""), let first = name.first,
                  !name.contains(UInt8(ascii: "\\")), first < 0x80 else { return nil }
            return (value, name)
        }
        guard !typenames.isEmpty else { return nil }
        let (value, name) = random.pick(typenames)
        var spellings: [(bytes: [UInt8], how: String)] = [
            (Array(#"\u00"#.utf8) + Array(String(name[0], radix: 16, uppercase: random.chance(0.5)).utf8) + name.dropFirst(),
             "its first letter escaped"),
            ([name[0] ^ 0x20] + name.dropFirst(), "its first letter's case flipped"),
            (name + Array(#"\u0301"#.utf8), "an escaped combining accent added"),
            (name + [0xC3, 0xA9], "an é added"),
            (name + [0x20], "a space added"),
            ([], "emptied"),
        ]
        // Where the name has a `K`, half the time its Kelvin twin.
        if let k = name.firstIndex(of: UInt8(ascii: "K")), random.chance(0.5) {
            spellings = [(Array(name[..<k]) + Array(#"\u212A"#.utf8) + Array(name[(k + 1)...]), "its K written \\u212A")]
        }
        let (bytes, how) = random.pick(spellings)
        return (Array(text[..<value.lowerBound]) + [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")] + Array(text[value.upperBound...]),
                "the __typename at byte \(value.lowerBound) (\(String(decoding: name, as: UTF8.self))) respelled: \(how)")
    }

    /// `text` with one number written another way that means the same decimal value: digits
    /// moved across the point, trailing zeros added, an exponent (`15` as `150e-1`, `1.5E+1` or
    /// `0.015e3`; `2.5` as `25e-1`). JSON numbers carry no type, so an `Int` field reads each as
    /// 15, an `ID` none (a fraction or an exponent is no id), a `Float` one double. `nil` when
    /// the text holds no number.
    static func respelledNumber(_ text: [UInt8], random: inout SimRandom) -> (text: [UInt8], how: String)? {
        let numbers = JSONValueSpans.members(of: text).compactMap { span -> (Range<Int>, DecimalSpelling)? in
            DecimalSpelling(text[span]).map { (span, $0) }
        }
        guard !numbers.isEmpty else { return nil }
        let (span, number) = random.pick(numbers)
        let old = Array(text[span])
        var new = number.spelled(random: &random)
        if new == old { new = number.spelled(zeros: 1, integerDigits: 0, random: &random) }
        return (Array(text[..<span.lowerBound]) + new + Array(text[span.upperBound...]),
                "the number at byte \(span.lowerBound) (\(String(decoding: old, as: UTF8.self))) respelled \(String(decoding: new, as: UTF8.self))")
    }
}

/// A JSON number as a sign, its significant digits and a power of ten (`-1.50e2` is `-`, `150`,
/// 0), to write again in another spelling of the same value.
struct DecimalSpelling {
    var negative: Bool
    /// The digits without leading zeros (`0` for zero).
    var digits: [UInt8]
    var exponent: Int

    /// Reads `bytes` if they are a JSON number whose exponent is small enough to write again.
    init?(_ bytes: ArraySlice<UInt8>) {
        var rest = bytes[...]
        negative = rest.first == UInt8(ascii: "-")
        if negative { rest = rest.dropFirst() }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let whole = rest.prefix(while: isDigit)
        guard !whole.isEmpty, whole.count == 1 || whole.first != UInt8(ascii: "0") else { return nil }
        rest = rest.dropFirst(whole.count)
        var fraction: ArraySlice<UInt8> = []
        if rest.first == UInt8(ascii: ".") {
            fraction = rest.dropFirst().prefix(while: isDigit)
            guard !fraction.isEmpty else { return nil }
            rest = rest.dropFirst(1 + fraction.count)
        }
        var power = 0
        if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            var minus = false
            if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                minus = sign == UInt8(ascii: "-")
                rest = rest.dropFirst()
            }
            let written = rest.prefix(while: isDigit)
            guard !written.isEmpty, written.count <= 4 else { return nil }
            power = Int(String(decoding: written, as: UTF8.self))! * (minus ? -1 : 1)
            rest = rest.dropFirst(written.count)
        }
        guard rest.isEmpty else { return nil }
        let all = Array(whole) + Array(fraction)
        let significant = all.drop { $0 == UInt8(ascii: "0") }
        digits = significant.isEmpty ? [UInt8(ascii: "0")] : Array(significant)
        exponent = significant.isEmpty ? 0 : power - fraction.count
    }

    /// The value written with 0 to 3 zeros added to its digits and the point at a drawn place.
    func spelled(random: inout SimRandom) -> [UInt8] {
        let zeros = random.int(0...3)
        return spelled(zeros: zeros, integerDigits: random.int(0...(digits.count + zeros)), random: &random)
    }

    /// The value as `I.F` times a power of ten, where `I` is the first `integerDigits` of its
    /// digits with `zeros` zeros after them (`0` when none), `F` the rest.
    func spelled(zeros: Int, integerDigits: Int, random: inout SimRandom) -> [UInt8] {
        let all = digits + Array(repeating: UInt8(ascii: "0"), count: zeros)
        let split = min(integerDigits, all.count)
        var whole = Array(all[..<split])
        // JSON allows no leading zero before other digits.
        while whole.count > 1, whole.first == UInt8(ascii: "0") { whole.removeFirst() }
        if whole.isEmpty { whole = [UInt8(ascii: "0")] }
        let fraction = Array(all[split...])
        let power = exponent - zeros + fraction.count
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        out += whole
        if !fraction.isEmpty { out += [UInt8(ascii: ".")] + fraction }
        if power != 0 || random.chance(0.2) {
            out.append(random.chance(0.5) ? UInt8(ascii: "e") : UInt8(ascii: "E"))
            if power >= 0, random.chance(0.3) { out.append(UInt8(ascii: "+")) }
            out += Array(String(power).utf8)
        }
        return out
    }
}
