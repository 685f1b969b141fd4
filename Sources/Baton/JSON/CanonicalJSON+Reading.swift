extension JSONScanner {
    /// Reads the next value as its canonical text (``CanonicalJSON``) without building a tree.
    ///
    /// Member names are compared by their bytes, as RFC 8259 compares strings: `"café"` spelled
    /// with `é` and with `e` and a combining accent are two members, which a `[String: …]`
    /// dictionary (and ``readValue()``) would take for one. A name given twice with the same
    /// bytes is ``JSONError/Reason/duplicateKey(_:)``, as ``readValue()`` says.
    public mutating func readCanonicalText() throws(JSONError) -> String {
        var out = ""
        try writeCanonicalText(into: &out)
        return out
    }

    private mutating func writeCanonicalText(into out: inout String) throws(JSONError) {
        switch try peekKind() {
        case .string:
            CanonicalJSON.writeString(try readString(), into: &out)
        case .array:
            out += "["
            if try openArray() {
                var first = true
                repeat {
                    if !first { out += "," }
                    first = false
                    try writeCanonicalText(into: &out)
                } while try nextElement()
            }
            out += "]"
        case .object:
            var members: [(name: String, offset: Int, text: String)] = []
            if try openObject() {
                repeat {
                    let span = try readKey()
                    let name = try string(span)
                    var text = ""
                    try writeCanonicalText(into: &text)
                    members.append((name, span.range.lowerBound - 1, text))
                } while try nextMember()
            }
            // Sorted by the names' bytes, then by position: of two equal names the later is the duplicate.
            members.sort { a, b in
                if a.name.utf8.elementsEqual(b.name.utf8) { return a.offset < b.offset }
                return CanonicalJSON.utf8Less(a.name, b.name)
            }
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 {
                    if members[index - 1].name.utf8.elementsEqual(member.name.utf8) {
                        throw error(.duplicateKey(member.name), at: member.offset)
                    }
                    out += ","
                }
                CanonicalJSON.writeString(member.name, into: &out)
                out += ":"
                out += member.text
            }
            out += "}"
        case .null, .bool, .number:
            CanonicalJSON.write(try readValue(), into: &out)
        }
    }
}

extension JSONValue {
    /// The tree of a canonical text the store wrote (a custom scalar's object, an error's
    /// extensions), for answers that speak `JSONValue`; `nil` when `text` is not JSON. Member
    /// names that differ only in their Unicode normalization stay two members, as the store, the
    /// image and ``Value/object(_:)`` keep them (until 2026-12-06 they folded into one here).
    static func tree(canonical text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { buffer -> JSONValue? in
            var scanner = JSONScanner(UnsafeRawBufferPointer(buffer), maxDepth: JSONScanner.depthCeiling)
            guard let value = try? scanner.readValue(), (try? scanner.finish()) != nil else { return nil }
            return value
        }
    }
}
