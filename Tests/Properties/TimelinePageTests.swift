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
        // The failure's cell diff, in the banner and in the failing event's details (selected at
        // load), one item per differing cell.
        let diff = #"<li class="diff-line">Character:1.species: expected "Human" ≠ actual nothing</li>"#
        #expect(failure.differences.contains(#"Character:1.species: expected "Human" ≠ actual nothing"#))
        #expect(dom.components(separatedBy: diff).count - 1 == 2)
        let details = try #require(dom.range(of: "<div id=\"details\" data-event=\"\(failure.eventIndex)\">"))
        #expect(dom[details.upperBound...].prefix(4000).contains(diff))
        #expect(dom[details.upperBound...].prefix(4000).contains("<pre class=\"trace\">#4 drain → FAILED image-equals-model"))
        // The disk lane has a track per file.
        #expect(dom.contains("data-file=\"/app.image\"") && dom.contains("data-file=\"/app.image-wal\""))
        // The record the failure names is chosen, and its history table is drawn, the failing
        // row marked and its image cell flagged as differing from the model's image.
        let key = try #require(timeline.failure?.key)
        #expect(key == "Character:1")
        #expect(dom.contains("<option value=\"\(key)\""))
        #expect(dom.contains("<table data-key=\"\(key)\">"))
        #expect(dom.contains("<th>writer queue</th>"))
        let rows = dom.components(separatedBy: "<td class=\"event\">#").count - 1
        #expect(rows == timeline.histories[OracleText(key)]?.count)
        #expect(dom.contains("<tr class=\"failing\"><td class=\"event\">#\(failure.eventIndex)</td>"))
        #expect(dom.contains("<td class=\"differs\" title=\"the model expects: used 2 Character {"))
    }

    @Test("a response event shows the response: members in the order the server sent them, escapes decoded")
    func responseShown() throws {
        let file = try FailureReportTests.file("Fixtures/regressions", "seed-14-memory-agrees-with-model-connectionNodesReplaced.json")
        let outcome = FailureReportTests.replay(file, mutant: .connectionNodesReplaced, timeline: true)
        let failure = try #require(outcome.failure)
        let timeline = try #require(outcome.timeline)
        #expect(timeline.events.allSatisfy { ($0.kind == "response") == ($0.response != nil) })
        let dom = try Self.renderedDOM(of: TimelinePage.render(timeline))
        #expect(dom.contains("data-rendered=\"ok\""))
        #expect(!dom.contains("data-errors=\""))
        // The failing event is a response, selected at load: its text is shown below its details.
        let details = try #require(dom.range(of: "<div id=\"details\" data-event=\"\(failure.eventIndex)\">"))
        let shown = try #require(dom[details.upperBound...].range(of: "<pre class=\"response-body\">"))
        let text = dom[shown.upperBound...].prefix { $0 != "<" }
        // The server wrote note 1's text before its id, and every member name and cursor with
        // escapes (`\\u0069d`): the page shows them in that order, read.
        #expect(text.contains(#"{"text": "text 485", "id": "1"}"#))
        #expect(text.contains(#""endCursor": "offset:3""#))
        #expect(!text.contains(#"\u00"#))
        #expect(dom.contains("<details class=\"response\" open=\"\">"))
    }

    @Test("the disk lane marks syncs and a power loss's dropped or torn writes; every event has its details")
    func diskLane() throws {
        let (_, file) = try #require(try SimulationProperties.scenarios().first { $0.0 == "image-expectations-every-kind.json" })
        let outcome = Simulation.replay(file.events, seed: file.seed, options: .init(events: file.events.count, recordsTimeline: true))
        #expect(outcome.failure == nil)
        let timeline = try #require(outcome.timeline)
        let loss = try #require(timeline.events.first { $0.kind == "powerLoss" })
        #expect(loss.disk.dropped + loss.disk.torn > 0)
        #expect(loss.details.contains { $0.hasPrefix("disk: ") && $0.contains("power loss: ") })
        #expect(timeline.events.contains { $0.disk.syncs > 0 })
        #expect(timeline.events.allSatisfy { event in event.details.contains { $0.hasPrefix("#\(event.index) ") } })
        let dom = try Self.renderedDOM(of: TimelinePage.render(timeline))
        #expect(dom.contains("data-rendered=\"ok\""))
        #expect(!dom.contains("data-errors=\""))
        #expect(dom.contains("class=\"tick sync\""))
        #expect(dom.contains("class=\"tick tear\""))
        #expect(dom.contains("<div id=\"failure\" hidden=\"\"></div>"))
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
