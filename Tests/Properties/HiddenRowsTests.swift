import Testing

@testable import BatonSim

/// The rows a launch found hidden by a damaged name: the state it lands on must hold each, with the
/// `used` stamp the file's row has (seed 845481992 of the default world at 2,000 events).
@Suite("Oracle: rows a damaged name hides, and their stamps")
struct HiddenRowsTests {
    static let rootKey = OracleText(#"character(id:"3")"#)
    static let recordKey = OracleText("Character:3")

    static let found = HiddenRows([
        .init(table: "root", key: rootKey.description, reason: "uses name #2, whose checksum fails", damagedName: 2, used: 2),
        .init(table: "records", key: recordKey.description, reason: "uses name #2, whose checksum fails", damagedName: 2, used: 1),
    ])

    static func state(rootStamp: Int?, recordStamp: Int?) -> OracleImage {
        var state = OracleImage(generation: 3)
        if let rootStamp { state.root[rootKey] = OracleRootRow(used: rootStamp, cell: OracleCell(.link("Character:3"))) }
        if let recordStamp { state.records[recordKey] = OracleRow(used: recordStamp, typename: "Character") }
        return state
    }

    @Test("a state holding every hidden row with the file's stamps is the one the launch found")
    func sameStamps() {
        let state = Self.state(rootStamp: 2, recordStamp: 1)
        #expect(Self.found.held(by: state, keptAside: OracleImage(generation: 0)))
        #expect(Self.found.differences(from: state, keptAside: OracleImage(generation: 0)).isEmpty)
    }

    @Test("a state whose hidden row has another stamp, or lacks it, is not; the report names the row")
    func otherStamp() {
        let older = Self.state(rootStamp: 1, recordStamp: 1)
        #expect(!Self.found.held(by: older, keptAside: OracleImage(generation: 0)))
        #expect(Self.found.differences(from: older, keptAside: OracleImage(generation: 0)) == [
            #"root field character(id:"3"), hidden by a damaged name: the file holds it stamped 2, the state stamped 1"#
        ])
        let without = Self.state(rootStamp: 2, recordStamp: nil)
        #expect(!Self.found.held(by: without, keptAside: OracleImage(generation: 0)))
        #expect(Self.found.differences(from: without, keptAside: OracleImage(generation: 0)) == [
            "record Character:3, hidden by a damaged name: the file holds it stamped 1, the state does not"
        ])
    }

    @Test("a row the model already keeps aside is not asked of the state")
    func keptAside() {
        var aside = OracleImage(generation: 0)
        aside.records[Self.recordKey] = OracleRow(used: 1, typename: "Character")
        #expect(Self.found.held(by: Self.state(rootStamp: 2, recordStamp: nil), keptAside: aside))
    }
}
