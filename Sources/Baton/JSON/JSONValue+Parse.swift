extension JSONValue {
    /// Parses a whole JSON text (UTF-8) into a tree; for small inputs such as variables and errors.
    ///
    /// Strict: anything but whitespace after the value, nesting deeper than `maxDepth`, and a
    /// member name given twice in one object (RFC 8259 leaves its meaning open) are errors.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 512) throws(JSONError) -> JSONValue {
        var scanner = JSONScanner(bytes, maxDepth: maxDepth)
        let value = try scanner.readValue()
        try scanner.finish()
        return value
    }

    /// Parses a whole JSON text held in any collection of UTF-8 bytes.
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 512) throws(JSONError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            parseResult(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth)
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBytes { buffer in parseResult(buffer, maxDepth: maxDepth) }.get()
    }

    /// Parses a JSON text.
    public static func parse(_ text: String, maxDepth: Int = 512) throws(JSONError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in parseResult(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth) }.get()
    }

    private static func parseResult(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> Result<JSONValue, JSONError> {
        do throws(JSONError) {
            return .success(try parse(bytes, maxDepth: maxDepth))
        } catch {
            return .failure(error)
        }
    }
}

extension JSONScanner {
    /// Reads the next value into a tree (recursing at most ``maxDepth`` levels); a member name
    /// given twice in one object (the same bytes) is ``JSONError/Reason/duplicateKey(_:)``. Names
    /// that differ only in their Unicode normalization are two members.
    public mutating func readValue() throws(JSONError) -> JSONValue {
        switch try peekKind() {
        case .null:
            try readNull()
            return .null
        case .bool:
            return .bool(try readBool())
        case .number:
            switch try readExactNumber() {
            case .int(let value): return .int(value)
            case .double(let value): return .double(value)
            case .decimal(let text): return .decimal(text)
            }
        case .string:
            return .string(try readString())
        case .array:
            var items: [JSONValue] = []
            if try openArray() {
                repeat {
                    items.append(try readValue())
                } while try nextElement()
            }
            return .array(items)
        case .object:
            // A small object takes each member in place (the fastest for the objects of a
            // response); past ``JSONObject/insertionLimit`` members the rest are gathered and
            // sorted once, as inserting each in place would cost the count squared.
            var object = JSONObject()
            var gathered: [(key: String, value: JSONValue, offset: Int)] = []
            if try openObject() {
                repeat {
                    let span = try readKey()
                    let key = try string(span)
                    let value = try readValue()
                    let offset = span.range.lowerBound - 1
                    if gathered.isEmpty && object.count < JSONObject.insertionLimit {
                        if object.updateValue(value, forKey: key) != nil { throw error(.duplicateKey(key), at: offset) }
                        continue
                    }
                    // The members taken so far come before any gathered one, and hold no name twice.
                    if gathered.isEmpty { gathered = object.map { ($0.key, $0.value, -1) } }
                    gathered.append((key, value, offset))
                } while try nextMember()
            }
            guard !gathered.isEmpty else { return .object(object) }
            let (sorted, repeated) = JSONObject.sorting(gathered)
            if let repeated { throw error(.duplicateKey(repeated.key), at: repeated.offset) }
            return .object(sorted)
        }
    }
}
