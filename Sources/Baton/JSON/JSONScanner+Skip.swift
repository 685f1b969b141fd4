extension JSONScanner {
    /// Moves past the next value, whatever it is, checking its grammar without building anything.
    ///
    /// Nested arrays and objects are walked in a loop (no recursion), with the kinds of the open
    /// containers kept in a small stack-allocated buffer, so deep input costs no stack and no heap.
    /// The UTF-8 of every string passed over, keys included, is checked.
    public mutating func skipValue() throws(JSONError) {
        try skipValue(checkingUTF8: true)
    }

    /// Moves past the next value as ``skipValue()`` does, but leaves the UTF-8 of its strings
    /// unchecked: for a caller that comes back to read the value itself and checks it then
    /// (ingest's members met before their object's id, its look-ahead for `__typename`).
    public mutating func skipValueToRevisit() throws(JSONError) {
        try skipValue(checkingUTF8: false)
    }

    @inline(__always)
    private mutating func skipValue(checkingUTF8: Bool) throws(JSONError) {
        skipWhitespace()
        guard position < bytes.count else { throw error(.unexpectedEnd) }
        let b = bytes[position]
        if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
            try skipContainer(checkingUTF8: checkingUTF8)
        } else {
            try skipScalar(checkingUTF8: checkingUTF8)
        }
    }

    /// Moves past a string, number or literal at the current position (whitespace already skipped).
    @inline(__always)
    mutating func skipScalar(checkingUTF8: Bool = true) throws(JSONError) {
        guard position < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[position] {
        case UInt8(ascii: "\""): _ = try scanString(checkingUTF8: checkingUTF8)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try scanNumber()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case let other: throw error(.unexpectedByte(other, expected: "a value"))
        }
    }

    /// Moves past the array or object at the current position.
    mutating func skipContainer(checkingUTF8: Bool) throws(JSONError) {
        let room = maxDepth - depth
        guard room > 0 else { throw error(.tooDeep(limit: maxDepth)) }
        let result: JSONError? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { closers -> JSONError? in
            do throws(JSONError) {
                if checkingUTF8 {
                    try skipContainer(closers: closers, checkingUTF8: true)
                } else {
                    try skipContainer(closers: closers, checkingUTF8: false)
                }
                return nil
            } catch {
                return error
            }
        }
        if let result { throw result }
    }

    /// The loop behind ``skipContainer(checkingUTF8:)``: `closers[i]` is the byte that closes the i-th open container.
    @inline(__always)
    private mutating func skipContainer(closers: UnsafeMutableBufferPointer<UInt8>, checkingUTF8: Bool) throws(JSONError) {
        var open = 0
        let baseDepth = depth
        while true {
            // A value is expected here.
            skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd) }
            let b = bytes[position]
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                guard open < closers.count else { throw error(.tooDeep(limit: maxDepth)) }
                let closer = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                closers[open] = closer
                open += 1
                depth = baseDepth + open
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == closer {
                    position += 1
                    open -= 1
                    depth = baseDepth + open
                } else {
                    if closer == UInt8(ascii: "}") { _ = try readKey(checkingUTF8: checkingUTF8) }
                    continue
                }
            } else {
                try skipScalar(checkingUTF8: checkingUTF8)
            }
            // A value has ended: a separator or closers follow, until a value is expected again.
            while true {
                if open == 0 { return }
                skipWhitespace()
                guard position < bytes.count else { throw error(.unexpectedEnd) }
                let c = bytes[position]
                let closer = closers[open - 1]
                if c == UInt8(ascii: ",") {
                    position += 1
                    if closer == UInt8(ascii: "}") { _ = try readKey(checkingUTF8: checkingUTF8) }
                    break
                }
                guard c == closer else {
                    throw error(.unexpectedByte(c, expected: closer == UInt8(ascii: "}") ? "',' or '}'" : "',' or ']'"))
                }
                position += 1
                open -= 1
                depth = baseDepth + open
            }
        }
    }
}
