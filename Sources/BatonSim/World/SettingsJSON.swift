import Baton

/// A JSON value read from a world's `world.json`, with the line and column where it starts, so that
/// a bad setting is reported where it is written.
///
/// The settings file is small and read once; this reader exists so that World/ depends on nothing
/// of the store's JSON code and can name positions.
struct SettingsJSON {
    indirect enum Value {
        case null
        case bool(Bool)
        /// A number; `integer` when it is written without fraction or exponent and fits an `Int`.
        case number(Double, integer: Int?)
        case string(String)
        case array([SettingsJSON])
        /// Members in the order written, each with where its key is.
        case object([Member])
    }

    struct Member {
        let key: String
        let keyLocation: GraphQLLocation
        let value: SettingsJSON
    }

    let value: Value
    let location: GraphQLLocation

    /// Reads `text` as one JSON value; throws a ``WorldError`` in `source` at the first problem.
    static func parse(_ text: String, source: String) throws -> SettingsJSON {
        var reader = SettingsJSONReader(bytes: Array(text.utf8), source: source)
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        if reader.index < reader.bytes.count {
            throw reader.error("unexpected text after the settings object")
        }
        return value
    }

    /// What kind of value this is, for error messages.
    var kindName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The byte-level reader behind ``SettingsJSON/parse(_:source:)``.
private struct SettingsJSONReader {
    let bytes: [UInt8]
    let source: String
    var index = 0
    var line = 1
    var column = 1

    init(bytes: [UInt8], source: String) {
        self.bytes = bytes
        self.source = source
    }

    var location: GraphQLLocation { GraphQLLocation(line: line, column: column) }

    func error(_ message: String) -> WorldError {
        WorldError(message, source: source, at: location)
    }

    /// Moves past one byte, keeping the line and column (columns count characters, not bytes).
    mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: advance()
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws -> SettingsJSON {
        skipWhitespace()
        guard depth < 64 else { throw error("the settings nest too deeply") }
        guard index < bytes.count else { throw error("expected a value, found the end of the file") }
        let start = location
        switch bytes[index] {
        case UInt8(ascii: "{"):
            advance()
            var members: [SettingsJSON.Member] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                advance()
                return SettingsJSON(value: .object(members), location: start)
            }
            while true {
                skipWhitespace()
                let keyLocation = location
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                let key = try string()
                skipWhitespace()
                try expect(":")
                let member = try value(depth: depth + 1)
                members.append(SettingsJSON.Member(key: key, keyLocation: keyLocation, value: member))
                skipWhitespace()
                if try separator(closing: "}") { break }
            }
            return SettingsJSON(value: .object(members), location: start)
        case UInt8(ascii: "["):
            advance()
            var items: [SettingsJSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                advance()
                return SettingsJSON(value: .array(items), location: start)
            }
            while true {
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                if try separator(closing: "]") { break }
            }
            return SettingsJSON(value: .array(items), location: start)
        case UInt8(ascii: "\""):
            return SettingsJSON(value: .string(try string()), location: start)
        case UInt8(ascii: "t"):
            try word("true")
            return SettingsJSON(value: .bool(true), location: start)
        case UInt8(ascii: "f"):
            try word("false")
            return SettingsJSON(value: .bool(false), location: start)
        case UInt8(ascii: "n"):
            try word("null")
            return SettingsJSON(value: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return SettingsJSON(value: try number(), location: start)
        default:
            throw error("expected a value")
        }
    }

    /// After a member or an item: a comma (false) or the closing bracket (true).
    mutating func separator(closing: Character) throws -> Bool {
        guard index < bytes.count else { throw error("expected \",\" or \"\(closing)\", found the end of the file") }
        if bytes[index] == UInt8(ascii: ",") {
            advance()
            return false
        }
        if bytes[index] == closing.asciiValue! {
            advance()
            return true
        }
        throw error("expected \",\" or \"\(closing)\"")
    }

    mutating func expect(_ character: Character) throws {
        guard index < bytes.count, bytes[index] == character.asciiValue! else { throw error("expected \"\(character)\"") }
        advance()
    }

    mutating func word(_ text: String) throws {
        for byte in text.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("expected \"\(text)\"") }
            advance()
        }
    }

    mutating func number() throws -> SettingsJSON.Value {
        let start = index
        while index < bytes.count, Self.isNumberByte(bytes[index]) { advance() }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard Self.isJSONNumber(text), let double = Double(text) else { throw error("\"\(text)\" is not a number") }
        let integral = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        return .number(double, integer: integral ? Int(text) : nil)
    }

    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var count = 0
            while let first = bytes.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
                bytes = bytes.dropFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }

    mutating func string() throws -> String {
        advance()  // the opening quote
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll()
            }
        }
        while true {
            guard index < bytes.count else { throw error("a string is not closed") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                advance()
                flush()
                return String(scalars)
            }
            if byte < 0x20 { throw error("a control character must be escaped in a string") }
            if byte != UInt8(ascii: "\\") {
                run.append(byte)
                advance()
                continue
            }
            flush()
            advance()
            guard index < bytes.count else { throw error("a string is not closed") }
            let escape = bytes[index]
            advance()
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    try word("\\u")
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("a surrogate pair is not complete") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("\\u escape names no character") }
                scalars.append(scalar)
            default:
                throw error("unknown escape in a string")
            }
        }
    }

    mutating func hex4() throws -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else { throw error("expected four hex digits after \\u") }
            code = code << 4 | digit
            advance()
        }
        return code
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
