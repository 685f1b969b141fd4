import Baton

/// The `extensions` a server sends beside an error's message, drawn from the error's hash: none,
/// a bare `code` (as Apollo Server and most others send), a code with a retry hint, a code with
/// names Swift's `==` takes for one (`café` precomposed and decomposed: two members to JSON), or
/// a code with a nested detail of any JSON, whose member names sort differently by UTF-8 and by
/// UTF-16.
///
/// Every number is one a reader reads back as drawn, whatever spelling the response's JSON style
/// picks: a whole double small enough to be spelled without a point (`366`) is drawn as the
/// integer it reads as. Some are numbers a double cannot hold (a bare code's `amount`, and those
/// ``ServerValues/structured(_:field:trickyRate:depth:)`` draws in a detail), kept exact.
enum ErrorExtensions {
    /// Error codes real servers send.
    static let codes = ["INTERNAL_SERVER_ERROR", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "RATE_LIMITED", "BAD_USER_INPUT"]

    /// Member names whose order differs between UTF-8 and UTF-16 (`～` U+FF5E sorts after
    /// `😀` U+1F600 in UTF-16 code units and before it in UTF-8), with an empty and a case pair.
    static let trickyNames = ["\u{FF5E}", "😀", "é", "Z", "a", "", "~", "__typename"]

    /// The extensions of the error with `hash`, or nil for none (half of the errors).
    static func draw(_ hash: UInt64, trickyRate: Double) -> [ProvenanceMember]? {
        let mixed = ServerHash.mix(hash ^ 0x6578_7465_6E73)
        let code = ProvenanceMember("code", .string(codes[Int((mixed >> 8) % UInt64(codes.count))]))
        switch mixed % 10 {
        case 0, 1, 2, 3, 4: return nil
        case 5:
            // One in eight also says an amount a double cannot hold (a stream of its own: the
            // other errors' extensions are drawn as before 2026-12-06).
            let exact = ServerHash.mix(mixed ^ 0x6578_6163_7400)
            guard exact % 8 == 0 else { return [code] }
            return [code, ProvenanceMember("amount", .decimal(ServerExactNumbers.draw(exact >> 8)))]
        case 6:
            let seconds = Double(Int((mixed >> 16) % 40) + 1) / 8
            return [code, ProvenanceMember("retryAfter", readable(.double(seconds))), ProvenanceMember("attempt", .int(Int((mixed >> 24) % 5)))]
        case 7:
            // Which spelling comes first is drawn too: a reader that keeps one keeps the first or the last.
            let twins = [ProvenanceMember("caf\u{E9}", .int(1)), ProvenanceMember("cafe\u{301}", .int(2))]
            return [code] + ((mixed >> 16) & 1 == 0 ? twins : twins.reversed())
        case 8:
            var detail: [String: JSONValue] = [:]
            for index in 0..<Int((mixed >> 16) % 4) + 1 {
                let name = trickyNames[Int((mixed >> (20 + 4 * UInt64(index))) % UInt64(trickyNames.count))]
                detail[name] = .int(index)
            }
            return [code, ProvenanceMember("detail", .object(detail))]
        default:
            let detail = ServerValues.structured(mixed >> 4, field: "detail", trickyRate: trickyRate, depth: 0)
            return [code, ProvenanceMember("detail", readable(detail))]
        }
    }

    /// The members beside message, path and extensions a server puts at the top level of the
    /// error with `hash`: none for most; GitHub's `type` (its error class, `FORBIDDEN`,
    /// `NOT_FOUND`), with a documentation link now and then; or a detail of any JSON.
    static func drawOtherMembers(_ hash: UInt64, trickyRate: Double) -> [ProvenanceMember] {
        let mixed = ServerHash.mix(hash ^ 0x6F74_6865_72)
        let type = ProvenanceMember("type", .string(codes[Int((mixed >> 8) % UInt64(codes.count))]))
        switch mixed % 8 {
        case 0, 1: return [type]
        case 2: return [ProvenanceMember("documentation_url", .string("https://docs.github.com/graphql")), type]
        case 3:
            let detail = ServerValues.structured(mixed >> 4, field: "detail", trickyRate: trickyRate, depth: 0)
            return [ProvenanceMember("detail", readable(detail))]
        default: return []
        }
    }

    /// `value` with every whole double that a style may spell without a point (`-0`, `100`) made
    /// the integer a reader takes it for.
    static func readable(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let number) where number == number.rounded() && abs(number) < 1e16:
            return .int(Int(number))
        case .array(let items):
            return .array(items.map(readable))
        case .object(let members):
            return .object(members.mapValues(readable))
        default:
            return value
        }
    }
}
