import Testing

@testable import Baton

@Suite("CRC-32C by the processor's instruction")
struct CRC32CInstructionTests {
    @Test("The instruction and the tables agree for every length, offset and running state")
    func instructionMatchesTables() {
        let bytes = (0..<96).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        let states: [UInt32] = [CRC32C.initial, 0, 0x1234_5678, 0x8000_0001]
        bytes.withUnsafeBytes { all in
            for offset in 0..<8 {
                for length in 0...(all.count - offset) {
                    let piece = UnsafeRawBufferPointer(rebasing: all[offset..<offset + length])
                    for state in states {
                        #expect(CRC32C.update(state, with: piece) == CRC32C.updateByTables(state, with: piece))
                    }
                }
            }
        }
        #expect(CRC32C.finalize(CRC32C.update(CRC32C.initial, with: "123456789")) == 0xE306_9283)
    }
}
