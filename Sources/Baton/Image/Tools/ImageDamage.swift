/// SplitMix64: the damage sweep's seeded generator, one stream per damaged image.
package struct SweepRandom {
    private var state: UInt64

    /// The stream for damage `index` of the sweep seeded `seed`: each damage reproduces alone.
    package init(seed: UInt64, stream index: Int) {
        state = seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93)
        _ = next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    package mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// A number in `range`.
    package mutating func within(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }
}

/// One damage to an image file's bytes, as the sweep draws it: where it lands and what it does.
///
/// Names and fetch rows are aimed at on purpose (a name's text in the `names` table, its index
/// entry, or a key that spells it; an operation's text and the bytes after it), since a row's own
/// checksum does not cover them; the rest land anywhere in the file.
package enum ImageDamage: Sendable, Hashable, CustomStringConvertible {
    /// Bits flipped at these bit offsets.
    case flipBits([Int])
    /// A page of zeros.
    case zeroPage(index: Int, pageSize: Int)
    /// Two whole pages exchanged.
    case swapPages(Int, Int, pageSize: Int)
    /// The file cut to this length.
    case truncate(length: Int)
    /// Two ranges of equal length exchanged.
    case swapRanges(Int, Int, length: Int)
    /// A range overwritten with these bytes.
    case overwrite(offset: Int, bytes: [UInt8])
    /// A byte of SQLite's header set to a value.
    case header(offset: Int, value: UInt8)
    /// One bit flipped inside a copy of a name's text (the names table, its index, a key).
    case flipInName(name: String, offset: Int, bit: Int)
    /// Two names of equal length, one copy of each, exchanged in place.
    case swapNames(String, String, first: Int, second: Int)
    /// One bit flipped at or just after a copy of an operation's text: its fetch row.
    case flipNearFetch(operation: String, offset: Int, bit: Int)

    /// The kind's name, for the sweep's counts.
    package var kind: String {
        switch self {
        case .flipBits: "flipped bits"
        case .zeroPage: "zeroed page"
        case .swapPages: "swapped pages"
        case .truncate: "truncation"
        case .swapRanges: "swapped ranges"
        case .overwrite: "garbage range"
        case .header: "header byte"
        case .flipInName: "name bit"
        case .swapNames: "swapped names"
        case .flipNearFetch: "fetch row bit"
        }
    }

    package var description: String {
        switch self {
        case .flipBits(let bits): "flip bits \(bits.map(String.init).joined(separator: ","))"
        case .zeroPage(let index, _): "zero page \(index + 1)"
        case .swapPages(let a, let b, _): "swap pages \(a + 1) and \(b + 1)"
        case .truncate(let length): "truncate to \(length) bytes"
        case .swapRanges(let a, let b, let length): "swap \(length) bytes at \(a) and \(b)"
        case .overwrite(let offset, let bytes): "overwrite \(bytes.count) bytes at \(offset)"
        case .header(let offset, let value): "header byte \(offset) = \(value)"
        case .flipInName(let name, let offset, let bit): "flip bit \(bit) of '\(name)' at \(offset)"
        case .swapNames(let a, let b, let first, let second): "swap '\(a)' at \(first) with '\(b)' at \(second)"
        case .flipNearFetch(let operation, let offset, let bit): "flip bit \(bit) at \(offset) near fetch row '\(operation)'"
        }
    }

    /// Applies the damage to `bytes`.
    package func apply(to bytes: inout [UInt8]) {
        switch self {
        case .flipBits(let bits):
            for bit in bits where bit / 8 < bytes.count { bytes[bit / 8] ^= UInt8(1 << (bit % 8)) }
        case .zeroPage(let index, let pageSize):
            let range = clamp(index * pageSize..<(index + 1) * pageSize, bytes.count)
            bytes.replaceSubrange(range, with: repeatElement(0, count: range.count))
        case .swapPages(let a, let b, let pageSize):
            swap(&bytes, a * pageSize, b * pageSize, pageSize)
        case .truncate(let length):
            bytes.removeLast(max(0, bytes.count - length))
        case .swapRanges(let a, let b, let length):
            swap(&bytes, a, b, length)
        case .overwrite(let offset, let replacement):
            let range = clamp(offset..<offset + replacement.count, bytes.count)
            bytes.replaceSubrange(range, with: replacement.prefix(range.count))
        case .header(let offset, let value):
            if offset < bytes.count { bytes[offset] = value }
        case .flipInName(_, let offset, let bit), .flipNearFetch(_, let offset, let bit):
            if offset < bytes.count { bytes[offset] ^= UInt8(1 << bit) }
        case .swapNames(let a, _, let first, let second):
            swap(&bytes, first, second, a.utf8.count)
        }
    }

    /// Draws a damage for `file`, whose image holds `names` and fetch rows for `operations`.
    package static func random(_ random: inout SweepRandom, file: [UInt8], names: [String], operations: [String]) -> ImageDamage {
        let size = max(file.count, 1)
        let pageSize = max(512, DatabasePageOne(Array(file.prefix(100)))?.pageSize ?? 4096)
        let pages = max(1, file.count / pageSize)
        let roll = random.below(100)
        switch roll {
        case 0..<18:
            return .flipBits((0..<random.within(1...3)).map { _ in random.below(size * 8) })
        case 18..<26:
            return .zeroPage(index: random.below(pages), pageSize: pageSize)
        case 26..<31:
            return .swapPages(random.below(pages), random.below(pages), pageSize: pageSize)
        case 31..<38:
            let length = random.below(2) == 0 ? random.below(pages) * pageSize : random.below(size)
            return .truncate(length: length)
        case 38..<46:
            let length = random.within(1...min(pageSize, size / 2 + 1))
            return .swapRanges(random.below(max(1, size - length)), random.below(max(1, size - length)), length: length)
        case 46..<53:
            let length = random.within(1...512)
            return .overwrite(offset: random.below(size), bytes: (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 53..<61:
            let value = random.below(2) == 0 ? UInt8(truncatingIfNeeded: random.next()) : file[min(random.below(100), file.count - 1)]
            let offset = random.below(100)
            return .header(offset: offset, value: random.below(2) == 0 ? value : (file.count > offset ? file[offset] ^ UInt8(1 << random.below(8)) : value))
        case 61..<78:
            if let name = pick(names, &random), let offset = occurrence(of: name, in: file, &random) {
                return .flipInName(name: name, offset: offset + random.below(name.utf8.count), bit: random.below(8))
            }
        case 78..<88:
            var byLength: [Int: [String]] = [:]
            for name in names { byLength[name.utf8.count, default: []].append(name) }
            let pairs = byLength.keys.sorted().compactMap { byLength[$0]!.count >= 2 ? byLength[$0]! : nil }
            if let group = pick(pairs, &random) {
                let a = group[random.below(group.count)]
                var b = group[random.below(group.count)]
                if a == b { b = group[(group.firstIndex(of: a)! + 1) % group.count] }
                if let first = occurrence(of: a, in: file, &random), let second = occurrence(of: b, in: file, &random) {
                    return .swapNames(a, b, first: first, second: second)
                }
            }
        default:
            if let operation = pick(operations, &random), let offset = occurrence(of: operation, in: file, &random) {
                let length = operation.utf8.count
                return .flipNearFetch(operation: operation, offset: offset + random.below(length + 24), bit: random.below(8))
            }
        }
        return .flipBits([random.below(size * 8)])
    }

    // MARK: Helpers

    private static func pick<T>(_ items: [T], _ random: inout SweepRandom) -> T? {
        items.isEmpty ? nil : items[random.below(items.count)]
    }

    /// The offset of one copy (drawn among all) of `text`'s UTF-8 in `file`.
    private static func occurrence(of text: String, in file: [UInt8], _ random: inout SweepRandom) -> Int? {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, needle.count <= file.count else { return nil }
        var found: [Int] = []
        var index = 0
        while index + needle.count <= file.count {
            if file[index] == needle[0], file[index..<index + needle.count].elementsEqual(needle) { found.append(index) }
            index += 1
        }
        return pick(found, &random)
    }

    private func clamp(_ range: Range<Int>, _ count: Int) -> Range<Int> {
        min(range.lowerBound, count)..<min(range.upperBound, count)
    }

    private func swap(_ bytes: inout [UInt8], _ a: Int, _ b: Int, _ length: Int) {
        guard a != b, a + length <= bytes.count, b + length <= bytes.count, length > 0 else { return }
        let first = Array(bytes[a..<a + length])
        let second = Array(bytes[b..<b + length])
        bytes.replaceSubrange(a..<a + length, with: second)
        bytes.replaceSubrange(b..<b + length, with: first)
    }
}
