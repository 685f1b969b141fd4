import Baton

/// Renders a ``Timeline`` as one self-contained HTML page: no network, no external scripts.
///
/// The page draws a lane per part of the system with a mark per event; hovering a mark shows its
/// summary, clicking it shows its details and the records it touched; choosing a record shows its
/// history (memory, writer queue, image, model) after every event that touched it. The failing
/// event and the record it broke are selected when the page opens. The page marks its `<body>`
/// with `data-rendered="ok"` when it has drawn, and with `data-errors` if a script failed, so a
/// headless browser can check it.
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
            .object([
                "index": .int(event.index),
                "lane": .string(event.lane.rawValue),
                "kind": .string(event.kind),
                "summary": .string(event.summary),
                "details": .array(event.details.map { .string($0) }),
                "keys": .array(event.keys.map { .string($0) }),
                "files": .array(event.files.map { file in
                    .object([
                        "name": .string(file.name), "size": .int(file.size),
                        "durable": .int(file.durableSize), "pending": .int(file.pendingOperations),
                    ])
                }),
            ])
        }
        var histories: [String: JSONValue] = [:]
        for (key, states) in timeline.histories {
            histories[key] = .array(states.map { state in
                var object: [String: JSONValue] = ["event": .int(state.eventIndex)]
                object["memory"] = state.memory.map { .string($0) } ?? .null
                object["queue"] = state.queue.map { .string($0) } ?? .null
                object["image"] = state.image.map { .string($0) } ?? .null
                object["model"] = state.model.map { .string($0) } ?? .null
                return .object(object)
            })
        }
        var root: [String: JSONValue] = [
            "title": .string(timeline.title),
            "lanes": .array(Timeline.Lane.allCases.map { .string($0.rawValue) }),
            "events": .array(events),
            "histories": .object(histories),
        ]
        if let failure = timeline.failure {
            root["failure"] = .object([
                "event": .int(failure.eventIndex), "invariant": .string(failure.invariant),
                "detail": .string(failure.detail), "key": failure.key.map { .string($0) } ?? .null,
            ])
        }
        return .object(root)
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
        body { font: 13px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
        h1 { font-size: 16px; margin: 0 0 8px; }
        #failure { background: #fde8e8; border: 1px solid #d33; padding: 6px 8px; margin-bottom: 8px; white-space: pre-wrap; }
        #lanes { display: grid; grid-template-columns: 80px 1fr; row-gap: 2px; overflow-x: auto; }
        .lane-name { font-weight: 600; padding: 6px 0; }
        .lane { position: relative; height: 34px; background: #f6f6f6; min-width: 100%; }
        .mark { position: absolute; top: 8px; width: 10px; height: 18px; border-radius: 2px; cursor: pointer; background: #69c; }
        .mark.kind-drain, .mark.kind-drainPartway { background: #4a4; }
        .mark.kind-check { background: #c90; }
        .mark.kind-collect { background: #a6c; }
        .mark.kind-kill, .mark.kind-powerLoss, .mark.kind-corruptFile { background: #333; }
        .mark.kind-relaunch, .mark.kind-quit { background: #888; }
        .mark.kind-fault { background: #e60; }
        .mark.failing { outline: 3px solid #d00; outline-offset: 1px; }
        .mark.selected { box-shadow: 0 0 0 2px #000; }
        .bar { position: absolute; bottom: 2px; width: 10px; }
        .bar.durable { background: #567; }
        .bar.pending { background: #e9a; }
        #details { border: 1px solid #ccc; padding: 6px 8px; margin-top: 8px; min-height: 60px; white-space: pre-wrap; }
        #details .key { color: #06c; cursor: pointer; text-decoration: underline; margin-right: 8px; }
        #history table { border-collapse: collapse; margin-top: 6px; }
        #history td, #history th { border: 1px solid #ccc; padding: 2px 6px; vertical-align: top; font-family: monospace; font-size: 12px; }
        #history tr.failing td { background: #fde8e8; }
        #history td.differs { background: #fff4c2; }
        </style>
        </head>
        <body>
        <h1>\(escape(title))</h1>
        <div id="failure" hidden></div>
        <div id="lanes"></div>
        <div id="details">Click an event.</div>
        <div id="history"><label>Record <select id="record"></select></label><div id="history-table"></div></div>

        """
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static let script = """
    window.onerror = function (message) {
      var old = document.body.getAttribute('data-errors');
      document.body.setAttribute('data-errors', (old ? old + ' | ' : '') + message);
    };
    (function () {
      var data = JSON.parse(document.getElementById('timeline-data').textContent);
      var step = 14;
      var failing = data.failure ? data.failure.event : -1;
      function el(tag, cls, text) {
        var e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined) e.textContent = text;
        return e;
      }
      if (data.failure) {
        var f = document.getElementById('failure');
        f.hidden = false;
        f.textContent = 'FAILED ' + data.failure.invariant + ' after event #' + data.failure.event + ': ' + data.failure.detail;
      }
      var lanes = document.getElementById('lanes');
      var width = Math.max(200, (data.events.length + 1) * step);
      var marks = [];
      var maxBytes = 1;
      data.events.forEach(function (e) {
        var total = 0;
        e.files.forEach(function (file) { total += file.size; });
        maxBytes = Math.max(maxBytes, total);
      });
      data.lanes.forEach(function (lane) {
        lanes.appendChild(el('div', 'lane-name', lane));
        var row = el('div', 'lane');
        row.setAttribute('data-lane', lane);
        row.style.width = width + 'px';
        lanes.appendChild(row);
        data.events.forEach(function (e, position) {
          if (lane === 'disk') {
            var durable = 0, size = 0;
            e.files.forEach(function (file) { durable += file.durable; size += file.size; });
            var d = el('div', 'bar durable');
            d.style.left = (position * step) + 'px';
            d.style.height = Math.round(28 * durable / maxBytes) + 'px';
            d.title = '#' + e.index + ' ' + e.files.map(function (file) {
              return file.name + ': ' + file.durable + ' durable, ' + file.size + ' seen, ' + file.pending + ' pending';
            }).join('\\n');
            row.appendChild(d);
            if (size > durable) {
              var p = el('div', 'bar pending');
              p.style.left = (position * step) + 'px';
              p.style.bottom = (2 + Math.round(28 * durable / maxBytes)) + 'px';
              p.style.height = Math.max(2, Math.round(28 * (size - durable) / maxBytes)) + 'px';
              p.title = d.title;
              row.appendChild(p);
            }
          }
          if (e.lane !== lane) return;
          var m = el('div', 'mark kind-' + e.kind + (e.index === failing ? ' failing' : ''));
          m.style.left = (position * step) + 'px';
          m.title = '#' + e.index + ' ' + e.summary;
          m.setAttribute('data-index', e.index);
          m.onclick = function () { select(position); };
          row.appendChild(m);
          marks[position] = m;
        });
      });
      var details = document.getElementById('details');
      function select(position) {
        marks.forEach(function (m) { if (m) m.classList.remove('selected'); });
        if (marks[position]) marks[position].classList.add('selected');
        var e = data.events[position];
        details.textContent = '';
        details.appendChild(el('div', '', '#' + e.index + ' [' + e.lane + '] ' + e.summary));
        e.details.forEach(function (line) { details.appendChild(el('div', '', line)); });
        if (e.keys.length) {
          var keys = el('div', '', 'records: ');
          e.keys.forEach(function (key) {
            var k = el('span', 'key', key);
            k.onclick = function () { showRecord(key); };
            keys.appendChild(k);
          });
          details.appendChild(keys);
        }
      }
      var chooser = document.getElementById('record');
      Object.keys(data.histories).sort().forEach(function (key) {
        var option = el('option', '', key);
        option.value = key;
        chooser.appendChild(option);
      });
      chooser.onchange = function () { showRecord(chooser.value); };
      function showRecord(key) {
        chooser.value = key;
        var box = document.getElementById('history-table');
        box.textContent = '';
        var states = data.histories[key] || [];
        var table = el('table');
        var header = el('tr');
        ['event', 'memory', 'writer queue', 'image', 'model'].forEach(function (h) { header.appendChild(el('th', '', h)); });
        table.appendChild(header);
        states.forEach(function (s) {
          var row = el('tr', s.event === failing ? 'failing' : '');
          row.appendChild(el('td', '', '#' + s.event));
          ['memory', 'queue', 'image', 'model'].forEach(function (part) {
            var text = s[part] === null ? '—' : s[part];
            var cell = el('td', '', text);
            var plain = s[part] === null ? null : s[part].replace(/^used \\d+ /, '');
            if ((part === 'memory' || part === 'image') && s.model !== null && plain !== null && plain !== s.model) cell.className = 'differs';
            row.appendChild(cell);
          });
          table.appendChild(row);
        });
        box.appendChild(table);
      }
      var first = data.failure && data.failure.key ? data.failure.key : Object.keys(data.histories).sort()[0];
      if (first !== undefined) showRecord(first);
      var failingPosition = data.events.findIndex(function (e) { return e.index === failing; });
      if (failingPosition >= 0) select(failingPosition);
      else if (data.events.length) select(data.events.length - 1);
      document.body.setAttribute('data-rendered', 'ok');
    })();

    """
}
