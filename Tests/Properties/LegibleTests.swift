import Baton
@testable import BatonSim
import Testing

/// Reports, traces and timeline pages print keys and strings so that what a person reads names
/// one thing: the server's tricky ids (a control character around the plain id, a decomposed
/// accent beside the precomposed one, a line separator) print escaped, never as look-alikes.
@Suite("Legible keys and strings in reports")
struct LegibleTests {
    /// The kinds of tricky text the server draws (`ServerValues`), around the plain id `7`.
    static let tricky = [
        "7\"q", "a\\7", "🦄7", "caf\u{E9}7", "cafe\u{301}7", "\u{1}7\t", "7/x", "\u{2028}7",
        "say \"hi\"", "back\\slash", "tab\tand\nnewline\r", "bell\u{7} and nul\u{0}", "unit\u{1F}sep",
        "emoji 🦄", "flag 🇫🇷 and family 👨‍👩‍👧", "clef 𝄞", "line\u{2028}para\u{2029}", "zero\u{200B}width",
        "del\u{7F}", "\"🦄\\\u{1}é\"", "", "हिंदी", "e\u{301}\u{302}",
        #"client:root:mutation:addComment(input:{"body":"tab\t","subjectId":"cafe"# + "\u{301}Bot_1\"})",
        // A key's own text that looks like an escape, alone and beside the character it names.
        #"A\u{41}"#, #"\u{1}"#, "\u{1}", #"\u{+41}"#, "\u{D4E}\u{1}", #"\\u{41}"#,
    ]

    @Test("what shows nothing, or looks like something plainer, is escaped; the rest prints as it is")
    func escapes() {
        #expect(Legible.text("Character:\u{1}7\t") == #"Character:\u{1}7\u{9}"#)
        #expect(Legible.text("Character:cafe\u{301}7") == #"Character:cafe\u{301}7"#)
        #expect(Legible.text("Character:caf\u{E9}7") == "Character:caf\u{E9}7")
        #expect(Legible.text("Note:\u{2028}22") == #"Note:\u{2028}22"#)
        #expect(Legible.text("zero\u{200B}width del\u{7F} nul\u{0}") == #"zero\u{200B}width del\u{7F} nul\u{0}"#)
        // Emoji sequences, flags, a variation selector and marks on letters that are not ASCII
        // print as they are; a key's own backslashes and quotes too.
        for plain in ["flag 🇫🇷 and family 👨‍👩‍👧", "heart ❤️", "हिंदी", #"notes(after:"x\"y\t",first:1)"#, "a\\7"] {
            #expect(Legible.text(plain) == plain)
        }
        #expect(Legible.quoted("say \"hi\" back\\slash\n") == #""say \"hi\" back\\slash\n""#)
    }

    @Test("no two different texts print alike, and a printed key reads back to its bytes")
    func injectiveAndReversible() {
        var printed: [String: String] = [:]
        for text in Self.tricky {
            let shown = Legible.text(text)
            // Compared by bytes: `==` on strings would call the two spellings of café equal.
            let bytes = String(decoding: Array(shown.utf8), as: UTF8.self)
            if let other = printed.first(where: { Array($0.key.utf8) == Array(bytes.utf8) })?.value {
                Issue.record("\(text.debugDescription) and \(other.debugDescription) both print as \(shown)")
            }
            printed[bytes] = text
            #expect(Array(Legible.unescaped(shown).utf8) == Array(text.utf8), "\(text.debugDescription) printed \(shown)")
            #expect(shown.unicodeScalars.allSatisfy { !Self.invisible($0) }, "\(shown.debugDescription)")
        }
        #expect(Array(Legible.unescaped(#"x\u{zz}\u{+41}\q\"#).utf8) == Array(#"x\u{zz}\u{+41}\q\"#.utf8))
        #expect(Legible.text(#"A\u{41}"#) == #"A\u{5C}u{41}"#)
    }

    @Test("a failure's differences name the record, its slots, links and strings escaped")
    func differencesAreLegible() {
        let key = OracleText("Character:\u{1}1\t")
        let expected = OracleRecord(typename: "Character", cells: [
            "name": OracleCell(.string("cafe\u{301}")),
            "friend": OracleCell(.link("Character:\u{2028}2")),
        ])
        let actual = OracleRecord(typename: "Character", cells: [
            "name": OracleCell(.string("caf\u{E9}")),
            "friend": OracleCell(.null, errors: [OracleFieldError(message: "no\u{200B}pe", path: "character.friend")]),
        ])
        let lines = OracleDifference.records(key: key, expected: expected, actual: actual)
        #expect(lines == [
            #"Character:\u{1}1\u{9}.friend: expected @Character:\u{2028}2 ≠ actual null (error "no\u{200B}pe" at character.friend)"#,
            #"Character:\u{1}1\u{9}.name: expected "cafe\u{301}" ≠ actual "caf"# + "\u{E9}\"",
        ])
    }

    @MainActor
    @Test("a run's trace prints no character that shows nothing, in either built-in world; --key takes a key as printed")
    func tracesAreLegible() throws {
        var trickyKeys = 0
        for (world, seeds) in [(World.standard, UInt64(20)...25), (World.builtIn("github")!, UInt64(20)...23)] {
            for seed in seeds {
                let outcome = Simulation.run(seed: seed, options: .init(events: 200, recordsTimeline: true, world: world))
                #expect(outcome.failure == nil)
                for line in outcome.trace {
                    #expect(line.unicodeScalars.allSatisfy { !Self.invisible($0) }, "seed \(seed): \(line.debugDescription)")
                }
                let timeline = try #require(outcome.timeline)
                for key in KeyHistory.keys(in: timeline) where Legible.text(key) != key {
                    trickyKeys += 1
                    guard let lines = KeyHistory.lines(of: Legible.text(key), in: timeline) else {
                        Issue.record("--key \(Legible.text(key)) finds no history for \(key.debugDescription)")
                        continue
                    }
                    #expect(lines[0].hasPrefix("history of \(Legible.text(key)): "))
                    #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy { !Self.invisible($0) } })
                }
            }
        }
        // The seeds draw tricky ids: the check above read some.
        #expect(trickyKeys > 0)
    }

    /// A scalar a reader would not see, or would take for part of a plainer character.
    static func invisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        case .format: scalar != "\u{200D}"
        default: false
        }
    }
}
