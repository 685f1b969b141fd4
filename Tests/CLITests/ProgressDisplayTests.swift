import Testing
@testable import baton

@Suite("Progress: redrawn on a terminal, a line every few seconds in a pipe")
struct ProgressDisplayTests {
    @Test("a terminal redraws one line in place, at most ten times a second")
    func terminal() {
        var written: [String] = []
        let display = ProgressDisplay(style: .terminal) { written.append($0) }
        display.show("a", at: 0)
        display.show("b", at: 0.05)
        display.show("c", at: 0.2)
        display.finish()
        #expect(written == ["\r\u{1B}[Ka", "\r\u{1B}[Kc", "\n"])
    }

    @Test("a pipe gets plain lines, the first at once, then every interval")
    func pipe() {
        var written: [String] = []
        let display = ProgressDisplay(style: .lines(every: 5)) { written.append($0) }
        for second in 0...12 { display.show("at \(second)", at: Double(second)) }
        display.finish()
        #expect(written == ["progress: at 0\n", "progress: at 5\n", "progress: at 10\n"])
    }

    @Test("the line names seeds of how many, events, failures, throughput and jobs")
    func line() {
        #expect(ProgressDisplay.line(seeds: 10, total: 100, events: 2000, failures: 1, seconds: 2, jobs: 2)
            == "10/100 seeds, 2000 events, 1 failures, 5.0 seeds/s, 1000 events/s, 2 s, 2 jobs")
        #expect(ProgressDisplay.line(seeds: 3, total: nil, events: 60, failures: 0, seconds: 0, jobs: 1)
            == "3 seeds, 60 events, 0 failures, starting, 0 s")
    }
}
