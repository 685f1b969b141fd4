import BatonSim
import Foundation
import Testing

@testable import Baton

/// The timeline page, rendered by a real headless browser.
@MainActor
@Suite("The timeline page in a headless browser")
struct TimelinePageTests {
    /// The headless browser `.ci/run` installs (Debian's `chromium-headless-shell`, or `chromium`).
    static func browser() -> String? {
        for path in ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return nil
    }

    /// Runs the browser on `page` and returns the DOM after its scripts ran.
    static func renderedDOM(of page: String) throws -> String {
        guard let browser = browser() else {
            Issue.record("no headless browser: install chromium-headless-shell (apt-get install -y chromium-headless-shell)")
            return ""
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-timeline-\(UInt64.random(in: 0..<UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("timeline.html")
        try page.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = ["--no-sandbox", "--disable-gpu", "--headless", "--user-data-dir=\(directory.path)/profile", "--dump-dom", file.absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("a failing scenario's timeline draws its lanes, marks the failing event, shows the broken record, and raises no script error")
    func failingScenario() throws {
        let (_, file) = try #require(try SimulationProperties.scenarios().first { $0.0 == "header-before-screen-writer-first.json" })
        let outcome = Simulation.replay(file.events, options: .init(events: file.events.count, mutant: .partialSnapshotReplaces, recordsTimeline: true))
        let failure = try #require(outcome.failure)
        let timeline = try #require(outcome.timeline)
        #expect(timeline.events.count == failure.eventIndex + 1)
        let page = TimelinePage.render(timeline)
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("src="))
        let dom = try Self.renderedDOM(of: page)
        #expect(dom.contains("data-rendered=\"ok\""))
        #expect(!dom.contains("data-errors=\""))
        for lane in Timeline.Lane.allCases {
            #expect(dom.contains("data-lane=\"\(lane.rawValue)\""), "lane \(lane.rawValue) missing")
        }
        #expect(dom.contains("class=\"mark kind-drain failing"))
        #expect(dom.contains("FAILED \(failure.invariant)"))
        // The record the failure names is chosen, and its history table is drawn.
        let key = try #require(timeline.failure?.key)
        #expect(failure.detail.contains(key))
        #expect(dom.contains("<option value=\"\(key)\""))
        #expect(dom.contains("<th>writer queue</th>"))
    }

    @Test("text that looks like markup stays text")
    func escaping() throws {
        var timeline = Timeline(title: "</script><b>title</b>")
        timeline.events.append(Timeline.Event(
            index: 0, lane: .main, kind: "response", summary: "</script><script>window.bad=1</script>", details: ["<i>x</i>"],
            keys: ["A:<1>"], files: []))
        timeline.histories["A:<1>"] = [Timeline.KeyState(eventIndex: 0, memory: "<b>m</b>", queue: nil, image: nil, model: "<b>m</b>")]
        let dom = try Self.renderedDOM(of: TimelinePage.render(timeline))
        #expect(dom.contains("data-rendered=\"ok\""))
        #expect(!dom.contains("data-errors=\""))
        #expect(!dom.contains("<b>title</b>"))
    }

    @Test("a script error on the page is seen (the check above can fail)")
    func scriptErrorsAreSeen() throws {
        let page = TimelinePage.render(Timeline(title: "broken")).replacingOccurrences(of: "</body>", with: "<script>noSuchFunction()</script></body>")
        let dom = try Self.renderedDOM(of: page)
        #expect(dom.contains("data-errors=\""))
    }
}
