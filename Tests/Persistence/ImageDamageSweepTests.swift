import BatonSim
import Foundation
import Testing

@testable import Baton

/// Issue 9's damage sweep, a quick slice: 200 seeded damages to real-shaped images (the full
/// sweep is `scripts/damage-sweep.sh`, 10,000 damages over larger images too).
@Suite("Damaged images: right or a miss, never wrong")
@MainActor
struct ImageDamageSweepTests {
    static let shapes: [ImageDamageShape] = [
        .shelf(size: 4, seed: 7), .shelf(size: 9, seed: 8),
        .pages(name: "character page", schema: CharacterPageFixture.schema, document: CharacterPageFixture.document) { page in
            CharacterPageFixture.response(page: page, characters: 4, episodes: 6, castSize: 5)
        },
    ]

    @Test("200 damages (seed 2026): every answer, dumped row and later write is right or a miss", arguments: 0..<4)
    func slice(part: Int) throws {
        let directory = try ImageTestDirectory(inMemory: true)
        let outcome = try ImageDamageSweep.run(seed: 2026, first: part * 50, count: 50, shapes: Self.shapes, directory: directory.url.path)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.prefix(5))")
        #expect(outcome.damages == 50)
        // The slice reaches what it is for: files kept and files started again, right answers
        // and misses, damage reported by dumps, and writes that land after the damage.
        #expect(outcome.openings["opened", default: 0] > 0)
        #expect(outcome.openings.keys.contains { $0.hasPrefix("recreated") })
        #expect(outcome.answersRight > 0 && outcome.answersMissed > 0)
        #expect(outcome.dumpsReporting > 0)
        #expect(outcome.rewritesRight > 0)
        #expect(outcome.rewritesFailed == 0)
    }

    @Test("the same seed draws the same damages and finds the same counts")
    func deterministic() throws {
        let first = try ImageTestDirectory(inMemory: true)
        let second = try ImageTestDirectory(inMemory: true)
        var drawn: [[String]] = [[], []]
        let a = try ImageDamageSweep.run(seed: 5, count: 12, shapes: Self.shapes, directory: first.url.path) { drawn[0].append($1) }
        let b = try ImageDamageSweep.run(seed: 5, count: 12, shapes: Self.shapes, directory: second.url.path) { drawn[1].append($1) }
        #expect(drawn[0] == drawn[1])
        #expect(a.answersRight == b.answersRight && a.rowsRight == b.rowsRight && a.openings == b.openings)
    }
}
