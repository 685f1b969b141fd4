/// Text as a person reads it in a trace, a failure report or a timeline page: every character
/// that shows nothing, or shows as something else, is written as an escape.
///
/// The server's ids and strings are tricky on purpose (`"\u{1}7\u{9}"`, `"cafe\u{301}"` beside
/// `"caf\u{E9}"`, `"\u{2028}7"`), so printed as they are, two different record keys can look the
/// same and a key can look like a plainer one. Escaped:
/// - control characters, format characters (a zero-width space; not the joiner inside
///   an emoji sequence, nor a tag), line and paragraph separators, and a combining mark on an
///   ASCII character or on nothing, as `\u{…}` with the scalar's hex digits: `cafe\u{301}` then
///   reads apart from `café` (a mark on another letter, as Devanagari or Thai write them, and a
///   variation selector are printed as they are);
/// - in a quoted string (a value), `"` and `\` as `\"` and `\\`, and tab, line feed and
///   carriage return as `\t`, `\n`, `\r`, as JSON writes them.
///
/// A key's own backslashes print as they are: keys hold JSON text (`after:"x\"y"`, a tab in an
/// argument as `\t`) that stays readable so; only one that begins `\u{` prints as `\u{5C}`, so
/// that it cannot pass for an escape. Everything else, emoji
/// included, is printed as it is. ``unescaped(_:)`` reads the escapes back, so a key copied
/// from a report names the record (`--key`).
package enum Legible {
    /// `text` with its invisible and look-alike characters escaped.
    package static func text(_ text: String) -> String {
        // Most keys are printable ASCII without an escape's look: nothing to look up per character.
        let bytes = text.utf8
        let printable = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        if printable, !bytes.contains(UInt8(ascii: "\\")) { return text }
        var out = ""
        write(text, quoting: false, into: &out)
        return out
    }

    /// A key or name as ``text(_:)`` shows it.
    package static func text<Value: CustomStringConvertible>(_ value: Value) -> String {
        text(value.description)
    }

    /// `text` in double quotes, escaped as ``text(_:)`` escapes, with `"` and `\` escaped too.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        write(text, quoting: true, into: &out)
        out += "\""
        return out
    }

    /// The text a key printed by ``text(_:)`` stands for: each `\u{…}` read back; a backslash
    /// before anything else stays as it is (a key's JSON text keeps its own `\"` and `\t`).
    package static func unescaped(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "\\", index + 1 < scalars.count else {
                out.append(scalar)
                index += 1
                continue
            }
            if scalars[index + 1] == "u", let (value, length) = braced(scalars, from: index + 2) {
                out.append(value)
                index += 2 + length
            } else {
                out.append(scalar)
                index += 1
            }
        }
        return String(out)
    }

    /// `{hex}` at `start`: the scalar it names and how many scalars it takes.
    private static func braced(_ scalars: [Unicode.Scalar], from start: Int) -> (Unicode.Scalar, Int)? {
        guard start < scalars.count, scalars[start] == "{" else { return nil }
        var digits = ""
        var index = start + 1
        while index < scalars.count, scalars[index] != "}", digits.count < 8 {
            digits.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard index < scalars.count, scalars[index] == "}", !digits.isEmpty,
            digits.unicodeScalars.allSatisfy(\.properties.isASCIIHexDigit),
            let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value)
        else { return nil }
        return (scalar, index - start + 1)
    }

    private static func write(_ text: String, quoting: Bool, into out: inout String) {
        let scalars = Array(text.unicodeScalars)
        // Whether a mark here would sit on an ASCII character, on an escape, or on nothing.
        var afterPlainBase = true
        for (index, scalar) in scalars.enumerated() {
            // A key's own backslash before `u{` would read back as an escape: it is one itself.
            let startsEscape = scalar == "\\" && index + 2 < scalars.count && scalars[index + 1] == "u" && scalars[index + 2] == "{"
            let escaped = needsEscape(scalar, afterPlainBase: afterPlainBase) || (!quoting && startsEscape)
            defer { afterPlainBase = scalar.isASCII || escaped }
            switch scalar {
            case "\\" where quoting: out += "\\\\"
            case "\"" where quoting: out += "\\\""
            case "\t" where quoting: out += "\\t"
            case "\n" where quoting: out += "\\n"
            case "\r" where quoting: out += "\\r"
            default:
                if escaped {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// Whether `scalar` shows nothing of its own, or is a mark that would make an ASCII letter
    /// (or an escape, or nothing) look like a precomposed character.
    private static func needsEscape(_ scalar: Unicode.Scalar, afterPlainBase: Bool) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator:
            return true
        case .nonspacingMark, .enclosingMark:
            // Variation selectors are marks that choose an emoji's presentation.
            return !scalar.properties.isVariationSelector && afterPlainBase
        case .format:
            // The joiner holds an emoji sequence (a family) together; tags spell a flag.
            return scalar != "\u{200D}" && !(0xE0020...0xE007F).contains(scalar.value)
        default:
            return false
        }
    }
}
