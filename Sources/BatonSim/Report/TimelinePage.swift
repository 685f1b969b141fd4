import Baton

/// Renders a ``Timeline`` as one self-contained HTML page: no network, no external scripts.
///
/// The page draws a lane per part of the system with a mark per event, and under the disk lane a
/// track per file (durable bytes, and pending bytes above them; syncs and tears as marks).
/// Hovering a mark shows its summary; clicking it shows the event's trace lines, what the disk did,
/// the records it touched, and on the failing event the failure's cell diff. Choosing a record
/// shows its history (memory, writer queue, image, model) after every event that touched it. The
/// failing event and the record it broke are selected when the page opens. The page marks its
/// `<body>` with `data-rendered="ok"` when it has drawn, and with `data-errors` if a script
/// failed, so a headless browser can check it.
package enum TimelinePage {
    /// The page's HTML.
    package static func render(_ timeline: Timeline) -> String {
        let data = CanonicalJSON.render(json(timeline))
            // Inside a <script> element nothing may close it: escape every `<` (only strings hold one).
            .replacingOccurrences(of: "<", with: "\\u003c")
        return head(title: timeline.title) + "<script id=\"timeline-data\" type=\"application/json\">" + data
            + "</script>\n<script>\n" + script + "</script>\n</body>\n</html>\n"
    }

    // MARK: Data

    static func json(_ timeline: Timeline) -> JSONValue {
        let events: [JSONValue] = timeline.events.map { event in
            var object: [String: JSONValue] = [
                "index": .int(event.index),
                "lane": .string(event.lane.rawValue),
                "kind": .string(event.kind),
                "summary": .string(event.summary),
                "details": strings(event.details),
                "keys": strings(event.keys),
                "keyLabels": strings(event.keys.map(Legible.text)),
                "files": .array(event.files.map { file in
                    .object([
                        "name": .string(file.name), "size": .int(file.size),
                        "durable": .int(file.durableSize), "pending": .int(file.pendingOperations),
                    ])
                }),
                "disk": .object([
                    "writes": .int(event.disk.writes), "bytes": .int(event.disk.bytesWritten), "syncs": .int(event.disk.syncs),
                    "faults": .int(event.disk.faults), "kept": .int(event.disk.kept), "dropped": .int(event.disk.dropped),
                    "torn": .int(event.disk.torn),
                ]),
            ]
            if let response = event.response { object["response"] = .string(response) }
            return .object(object)
        }
        // A list, not an object: two keys that differ only in how a character is composed are
        // two records, and one JSON object could not hold both.
        var histories: [JSONValue] = []
        for (key, states) in timeline.histories.sorted(by: { $0.key < $1.key }) {
            let list: JSONValue = .array(states.map { state in
                var object: [String: JSONValue] = ["event": .int(state.eventIndex), "differences": strings(state.differences)]
                object["memory"] = optional(state.memory)
                object["queue"] = optional(state.queue)
                object["image"] = optional(state.image)
                object["model"] = optional(state.model)
                object["modelImage"] = optional(state.modelImage)
                return .object(object)
            })
            histories.append(.object(["key": .string(key.string), "label": .string(Legible.text(key.string)), "states": list]))
        }
        var root: [String: JSONValue] = [
            "title": .string(timeline.title),
            "lanes": strings(Timeline.Lane.allCases.map(\.rawValue)),
            "events": .array(events),
            "histories": .array(histories),
        ]
        if let failure = timeline.failure {
            root["failure"] = .object([
                "event": .int(failure.eventIndex), "invariant": .string(failure.invariant),
                "headline": .string(failure.headline), "differences": strings(failure.differences),
                "key": optional(failure.key),
            ])
        }
        return .object(root)
    }

    private static func strings(_ values: [String]) -> JSONValue {
        .array(values.map { .string($0) })
    }

    private static func optional(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    // MARK: Page

    private static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>\(escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        <h1>\(escape(title))</h1>
        <div id="failure" hidden></div>
        <div id="legend">lanes: the process (launches, quits, kills, power losses), the main actor (commits, checks, collections), the writer (drains), the disk (faults, <span class="sync-key">●</span> syncs, <span class="tear-key">✕</span> power-loss tears) and a track per file: <span class="durable-key">durable</span> and <span class="pending-key">pending</span> bytes</div>
        <div id="lanes"></div>
        <div id="details">Click an event.</div>
        <div id="history"><label>Record <select id="record"></select></label><div id="history-table"></div></div>

        """
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
