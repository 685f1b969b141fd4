import Baton

/// A response as the timeline page shows it: indented for reading, object members in the order
/// the server wrote them (a failure often hangs on that order), escapes decoded, and what would
/// not show (a control character, a combining mark on a plain letter) escaped again as ``Legible``
/// writes it.
///
/// The text is read with the model's own parser, never the store's, so the page cannot show the
/// store's misreading of the bytes as if it were the response. Text that is not JSON is shown as
/// it is, after the parser's reason.
enum ResponseDisplay {
    /// The most characters a page shows of one response; a longer one is cut and says so.
    static let limit = 65_536

    static func text(of body: ResponseBody) -> String {
        let shown: String
        switch body {
        case .json(let value):
            shown = render(OracleJSON(value), indent: "")
        case .text(let text):
            do {
                shown = render(try OracleJSONParser.parse(text), indent: "")
            } catch {
                shown = "not JSON (\(error)):\n" + text
            }
        }
        guard shown.count > limit else { return shown }
        return String(shown.prefix(limit)) + "\n… (cut: \(shown.count - limit) more characters)"
    }

    /// The longest container of scalars written on one line (a path, a location, a small object).
    private static let oneLine = 72

    private static func render(_ value: OracleJSON, indent: String) -> String {
        let inner = indent + "  "
        if let line = inline(value), line.count <= oneLine { return line }
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .negativeZero: return "-0"
        case .double(let number): return number.isFinite ? "\(number)" : "null"
        case .decimal(let number, _), .longInteger(let number, _), .exact(let number, _):
            return value.exactNumber?.string ?? (number.isFinite ? "\(number)" : "null")
        case .string(let text): return quoted(text.string)
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + render($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{\n" + members.map { inner + quoted($0.key.string) + ": " + render($0.value, indent: inner) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        }
    }

    /// A container of scalars on one line (`nil` for one that holds a container).
    private static func inline(_ value: OracleJSON) -> String? {
        switch value {
        case .array(let items) where !items.isEmpty:
            guard items.allSatisfy(isScalar) else { return nil }
            return "[" + items.map { render($0, indent: "") }.joined(separator: ", ") + "]"
        case .object(let members) where !members.isEmpty:
            guard members.allSatisfy({ isScalar($0.value) }) else { return nil }
            return "{" + members.map { quoted($0.key.string) + ": " + render($0.value, indent: "") }.joined(separator: ", ") + "}"
        default:
            return nil
        }
    }

    private static func isScalar(_ value: OracleJSON) -> Bool {
        switch value {
        case .array, .object: false
        default: true
        }
    }

    /// A string in JSON's quotes, with what would not show escaped (``Legible``).
    private static func quoted(_ text: String) -> String {
        Legible.quoted(text)
    }
}
