@testable import Baton
import Testing

/// `CellTable` against the dictionary it replaced: the same contents after any run of writes and
/// removals, in any order, with equality and hashing blind to the order cells were written in.
@Suite struct CellTableTests {
    /// A small deterministic generator (the tests draw their own operations).
    private struct Draws {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private static let slots = (0..<40).map { SlotID.named("cellTableTest\($0)") }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func writesAndRemovalsAgreeWithADictionary(seed: UInt64) {
        var draws = Draws(state: seed)
        var table = CellTable()
        var model: [SlotID: Cell] = [:]
        for step in 0..<600 {
            let slot = Self.slots[draws.next(Self.slots.count)]
            switch draws.next(5) {
            case 0:
                table[slot] = nil
                model[slot] = nil
            case 1:
                #expect(table.removeValue(forKey: slot) == model.removeValue(forKey: slot))
            default:
                table[slot] = Cell(.int(step))
                model[slot] = Cell(.int(step))
            }
            #expect(table.count == model.count)
            #expect(table[slot] == model[slot])
        }
        for slot in Self.slots { #expect(table[slot] == model[slot]) }
        let iterated = table.map(\.key.index)
        #expect(iterated == iterated.sorted(), "cells iterate in slot order")
        #expect(Set(iterated).count == iterated.count, "one cell per slot")
        #expect(Array(table.keys) == table.map(\.key))
        #expect(Array(table.values) == table.map(\.value))
        #expect(table == CellTable(model.map { ($0.key, $0.value) }))
    }

    @Test func equalityAndHashIgnoreTheOrderOfWrites() {
        var forward = CellTable()
        var backward = CellTable()
        for (index, slot) in Self.slots.enumerated() { forward[slot] = Cell(.int(index)) }
        for (index, slot) in Self.slots.enumerated().reversed() { backward[slot] = Cell(.int(index)) }
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        backward[Self.slots[7]] = Cell(.string("changed"))
        #expect(forward != backward)
    }

    @Test func laterCellsWinAndFilterKeepsOrder() {
        let a = Self.slots[3]
        let b = Self.slots[1]
        let table: CellTable = [a: Cell(.int(1)), b: Cell(.int(2)), a: Cell(.int(3))]
        #expect(table.count == 2)
        #expect(table[a] == Cell(.int(3)))
        let kept = table.filter { $0.key == a }
        #expect(kept.count == 1 && kept[a] == Cell(.int(3)) && kept[b] == nil)
    }

    @Test func copiesShareStorageUntilOneIsWritten() {
        var original = CellTable()
        original[Self.slots[0]] = Cell(.bool(true))
        var copy = original
        #expect(copy.sharesStorage(with: original))
        copy[Self.slots[1]] = Cell(.bool(false))
        #expect(!copy.sharesStorage(with: original))
        #expect(original.count == 1 && copy.count == 2)
    }
}
