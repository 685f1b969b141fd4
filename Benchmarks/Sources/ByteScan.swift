/// The ingest's floor: one pass over a response's bytes that finds what any JSON reader must
/// find (where strings start and end, with their escapes, and the brackets' nesting) and builds
/// nothing.
enum ByteScan {
    /// What a scan found; the caller checks it, so the optimizer cannot drop the scan.
    struct Tally: Equatable {
        var strings = 0
        var escapes = 0
        var containers = 0
        var deepest = 0
    }

    static func scan(_ bytes: [UInt8]) -> Tally {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return Tally() }
            var tally = Tally()
            var depth = 0
            var index = 0
            let end = buffer.count
            while index < end {
                let byte = base[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    tally.strings += 1
                    // Inside a string: only a quote ends it, and a backslash takes the next byte.
                    while index < end {
                        let inner = base[index]
                        index += 1
                        if inner == UInt8(ascii: "\"") { break }
                        if inner == UInt8(ascii: "\\") {
                            tally.escapes += 1
                            index += 1
                        }
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    tally.containers += 1
                    depth += 1
                    if depth > tally.deepest { tally.deepest = depth }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                default:
                    continue
                }
            }
            return tally
        }
    }
}
