/// The spellings JSON allows for one Float value: the same decimal number written as `100`,
/// `100.0`, `1e2` or `1.0E+2`. Every spelling parses to the same `Double`.
enum FloatText {
    /// Swift's shortest round-trip spelling, which is valid JSON for every finite value.
    static func plain(_ value: Double) -> String {
        value.isFinite ? value.description : "0"
    }

    /// Every spelling of `value` this server writes, the plain one first.
    static func spellings(_ value: Double) -> [String] {
        let plain = plain(value)
        guard value.isFinite else { return [plain] }
        var text = Substring(plain)
        let sign = text.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { text = text.dropFirst() }
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1)
        let whole = Array(mantissa[0])
        let fraction = mantissa.count > 1 ? Array(mantissa[1]) : []
        let digits = whole + fraction
        guard let firstSignificant = digits.firstIndex(where: { $0 != "0" }) else {
            return [plain, sign + "0", sign + "0e0", sign + "0.0E+0"]
        }
        let lastSignificant = digits.lastIndex(where: { $0 != "0" })!
        let significant = String(digits[firstSignificant...lastSignificant])
        let scientific = whole.count - 1 - firstSignificant + exponent
        let lead = significant.prefix(1)
        let rest = significant.dropFirst()
        var spellings = [plain]
        spellings.append(sign + lead + (rest.isEmpty ? "" : "." + rest) + "e\(scientific)")
        spellings.append(sign + lead + "." + (rest.isEmpty ? "0" : rest) + "E\(scientific >= 0 ? "+" : "")\(scientific)")
        if scientific >= 0 && scientific < 16 {
            if scientific >= significant.count - 1 {
                let integer = significant + String(repeating: "0", count: scientific - (significant.count - 1))
                spellings.append(sign + integer)
                spellings.append(sign + integer + ".0")
            } else {
                let point = significant.index(significant.startIndex, offsetBy: scientific + 1)
                spellings.append(sign + significant[..<point] + "." + significant[point...])
            }
        } else if scientific < 0 && scientific > -8 {
            spellings.append(sign + "0." + String(repeating: "0", count: -scientific - 1) + significant)
        }
        return spellings
    }
}
