extension TimelinePage {
    static let style = """
    body { font: 13px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
    h1 { font-size: 16px; margin: 0 0 8px; }
    #failure { background: #fde8e8; border: 1px solid #d33; padding: 6px 8px; margin-bottom: 8px; }
    #legend { color: #555; font-size: 12px; margin-bottom: 6px; }
    .sync-key { color: #2a2; } .tear-key { color: #d00; font-weight: 700; }
    .durable-key { background: #567; color: #fff; padding: 0 3px; } .pending-key { background: #e9a; padding: 0 3px; }
    .failure-headline { font-weight: 600; }
    ul.diff { margin: 4px 0 0; padding-left: 18px; font-family: monospace; font-size: 12px; }
    ul.diff li { margin: 1px 0; }
    #lanes { display: grid; grid-template-columns: 110px 1fr; row-gap: 2px; overflow-x: auto; }
    .axis { position: relative; height: 16px; min-width: 100%; font-size: 10px; color: #777; }
    .axis span { position: absolute; top: 2px; }
    .lane-name { font-weight: 600; padding: 6px 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .lane-name.file-name { font-weight: 400; font-family: monospace; font-size: 11px; color: #555; padding-left: 8px; }
    .lane { position: relative; height: 34px; background: #f6f6f6; min-width: 100%; }
    .lane.file { height: 30px; background: #fafafa; }
    .mark { position: absolute; top: 8px; width: 10px; height: 18px; border-radius: 2px; cursor: pointer; background: #69c; }
    .mark.kind-drain, .mark.kind-drainPartway, .mark.kind-drainBegins, .mark.kind-drainEnds { background: #4a4; }
    .mark.kind-check { background: #c90; }
    .mark.kind-collect { background: #a6c; }
    .mark.kind-kill, .mark.kind-powerLoss, .mark.kind-corruptFile { background: #333; }
    .mark.kind-relaunch, .mark.kind-upgrade, .mark.kind-quit { background: #888; }
    .mark.kind-fault { background: #e60; }
    .mark.failing { outline: 3px solid #d00; outline-offset: 1px; }
    .mark.selected { box-shadow: 0 0 0 2px #000; }
    .tick { position: absolute; width: 10px; text-align: center; font-size: 10px; line-height: 10px; cursor: pointer; }
    .tick.sync { top: 0; color: #2a2; }
    .tick.tear { bottom: 0; color: #d00; font-weight: 700; }
    .bar { position: absolute; bottom: 2px; width: 10px; cursor: pointer; }
    .bar.durable { background: #567; }
    .bar.pending { background: #e9a; }
    #details { border: 1px solid #ccc; padding: 6px 8px; margin-top: 8px; min-height: 60px; }
    #details .event-title { font-weight: 600; }
    #details pre.trace { margin: 4px 0; font-size: 12px; white-space: pre-wrap; }
    #details .keys { display: flex; flex-wrap: wrap; gap: 2px 10px; }
    #details .key { color: #06c; cursor: pointer; text-decoration: underline; }
    #details .failure-headline { color: #b00; margin-top: 4px; }
    #details details.response summary { cursor: pointer; color: #06c; }
    #details pre.response-body { margin: 4px 0; font-size: 12px; max-height: 420px; overflow: auto; background: #f7f7f7; }
    #history { margin-top: 8px; }
    #history table { border-collapse: collapse; margin-top: 6px; }
    #history td, #history th { border: 1px solid #ccc; padding: 2px 6px; vertical-align: top; font-family: monospace; font-size: 12px; }
    #history td.event { color: #06c; cursor: pointer; text-decoration: underline; }
    #history tr.failing td { background: #fde8e8; }
    #history td.differs, #history tr.failing td.differs { background: #fff4c2; }
    """

    static let script = """
    window.onerror = function (message) {
      var old = document.body.getAttribute('data-errors');
      document.body.setAttribute('data-errors', (old ? old + ' | ' : '') + message);
    };
    (function () {
      var data = JSON.parse(document.getElementById('timeline-data').textContent);
      var histories = {};
      var recordKeys = [];
      // Keys as the page shows them: invisible and look-alike characters escaped (Legible).
      var labels = {};
      data.histories.forEach(function (h) { histories[h.key] = h.states; labels[h.key] = h.label; recordKeys.push(h.key); });
      var available = document.documentElement.clientWidth - 160;
      var step = Math.max(14, Math.min(48, Math.floor(available / (data.events.length + 1))));
      var failing = data.failure ? data.failure.event : -1;
      function el(tag, cls, text) {
        var e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined) e.textContent = text;
        return e;
      }
      function diffList(lines) {
        var list = el('ul', 'diff');
        lines.forEach(function (line) { list.appendChild(el('li', 'diff-line', line)); });
        return list;
      }
      function failureHeadline() {
        return 'FAILED ' + data.failure.invariant + ' after event #' + data.failure.event + ': ' + data.failure.headline;
      }
      if (data.failure) {
        var banner = document.getElementById('failure');
        banner.hidden = false;
        banner.appendChild(el('div', 'failure-headline', failureHeadline()));
        if (data.failure.differences.length) banner.appendChild(diffList(data.failure.differences));
      }
      var lanes = document.getElementById('lanes');
      var width = Math.max(200, (data.events.length + 1) * step);
      var marks = [];
      var positions = {};
      data.events.forEach(function (e, position) { positions[e.index] = position; });
      var markWidth = Math.min(step - 4, 20) + 'px';
      function at(position) { return (position * step) + 'px'; }
      function track(name, nameClass, attribute, value) {
        lanes.appendChild(el('div', nameClass, name));
        var row = el('div', 'lane');
        row.setAttribute(attribute, value);
        row.style.width = width + 'px';
        lanes.appendChild(row);
        return row;
      }
      function clickable(node, position) {
        node.onclick = function () { select(position); };
        return node;
      }
      lanes.appendChild(el('div', 'lane-name', 'event'));
      var axis = el('div', 'axis');
      axis.style.width = width + 'px';
      var every = step >= 28 ? 1 : step >= 20 ? 2 : 5;
      data.events.forEach(function (e, position) {
        if (position % every !== 0) return;
        var label = el('span', '', '#' + e.index);
        label.style.left = at(position);
        axis.appendChild(label);
      });
      lanes.appendChild(axis);
      var files = [];
      data.events.forEach(function (e) {
        e.files.forEach(function (file) { if (files.indexOf(file.name) < 0) files.push(file.name); });
      });
      files.sort();
      function fileTracks() {
        files.forEach(function (name) {
          var row = track(name.replace(/^[/]/, ''), 'lane-name file-name', 'data-file', name);
          row.classList.add('file');
          var most = 1;
          data.events.forEach(function (e) {
            e.files.forEach(function (file) { if (file.name === name) most = Math.max(most, file.size, file.durable); });
          });
          data.events.forEach(function (e, position) {
            var file = e.files.find(function (f) { return f.name === name; });
            if (!file) return;
            var title = '#' + e.index + ' ' + name + ': ' + file.durable + ' bytes durable, ' + file.size + ' bytes seen, ' + file.pending + ' pending writes';
            var durable = Math.round(24 * file.durable / most);
            var d = clickable(el('div', 'bar durable'), position);
            d.style.left = at(position);
            d.style.width = markWidth;
            d.style.height = durable + 'px';
            d.title = title;
            row.appendChild(d);
            if (file.pending > 0) {
              var p = clickable(el('div', 'bar pending'), position);
              p.style.left = at(position);
              p.style.width = markWidth;
              p.style.bottom = (2 + durable) + 'px';
              p.style.height = Math.max(2, Math.round(24 * Math.abs(file.size - file.durable) / most)) + 'px';
              p.title = title;
              row.appendChild(p);
            }
          });
        });
      }
      data.lanes.forEach(function (lane) {
        var row = track(lane, 'lane-name', 'data-lane', lane);
        data.events.forEach(function (e, position) {
          if (lane === 'disk') {
            if (e.disk.syncs > 0) {
              var s = clickable(el('div', 'tick sync', '●'), position);
              s.style.left = at(position);
              s.style.width = markWidth;
              s.title = '#' + e.index + ' ' + e.disk.syncs + ' syncs';
              row.appendChild(s);
            }
            if (e.disk.torn + e.disk.dropped > 0) {
              var t = clickable(el('div', 'tick tear', '✕'), position);
              t.style.left = at(position);
              t.style.width = markWidth;
              t.title = '#' + e.index + ' power loss: ' + e.disk.kept + ' pending writes kept, ' + e.disk.dropped + ' dropped, ' + e.disk.torn + ' torn';
              row.appendChild(t);
            }
          }
          if (e.lane !== lane) return;
          var m = clickable(el('div', 'mark kind-' + e.kind + (e.index === failing ? ' failing' : '')), position);
          m.style.left = at(position);
          m.style.width = markWidth;
          m.title = '#' + e.index + ' ' + e.summary;
          m.setAttribute('data-index', e.index);
          row.appendChild(m);
          marks[position] = m;
        });
        if (lane === 'disk') fileTracks();
      });
      var details = document.getElementById('details');
      function select(position) {
        marks.forEach(function (m) { if (m) m.classList.remove('selected'); });
        if (marks[position]) marks[position].classList.add('selected');
        var e = data.events[position];
        details.textContent = '';
        details.setAttribute('data-event', e.index);
        details.appendChild(el('div', 'event-title', '#' + e.index + ' [' + e.lane + '] ' + e.summary));
        if (e.details.length) details.appendChild(el('pre', 'trace', e.details.join('\\n')));
        if (e.keys.length) {
          var keys = el('div', 'keys', 'records: ');
          e.keys.forEach(function (key, i) {
            var k = el('span', 'key', e.keyLabels[i]);
            k.onclick = function () { showRecord(key); };
            keys.appendChild(k);
          });
          details.appendChild(keys);
        }
        if (data.failure && e.index === failing) {
          details.appendChild(el('div', 'failure-headline', failureHeadline()));
          if (data.failure.differences.length) details.appendChild(diffList(data.failure.differences));
        }
        if (e.response !== undefined) {
          var response = el('details', 'response', '');
          response.open = true;
          response.appendChild(el('summary', '', 'the response (members in the order sent, escapes decoded)'));
          response.appendChild(el('pre', 'response-body', e.response));
          details.appendChild(response);
        }
      }
      var chooser = document.getElementById('record');
      recordKeys.forEach(function (key) {
        var option = el('option', '', labels[key]);
        option.value = key;
        chooser.appendChild(option);
      });
      chooser.onchange = function () { showRecord(chooser.value); };
      function showRecord(key) {
        chooser.value = key;
        var box = document.getElementById('history-table');
        box.textContent = '';
        var states = histories[key] || [];
        var table = el('table');
        table.setAttribute('data-key', key);
        var header = el('tr');
        ['event', 'memory', 'writer queue', 'image', 'model', 'differences'].forEach(function (h) { header.appendChild(el('th', '', h)); });
        table.appendChild(header);
        states.forEach(function (s) {
          var row = el('tr', s.event === failing ? 'failing' : '');
          var event = el('td', 'event', '#' + s.event);
          if (positions[s.event] !== undefined) event.onclick = function () { select(positions[s.event]); };
          row.appendChild(event);
          ['memory', 'queue', 'image', 'model'].forEach(function (part) {
            var cell = el('td', '', s[part] === null ? '—' : s[part]);
            var differs = s.differences.some(function (line) { return line.indexOf(part + ' ') === 0; });
            if (differs) cell.className = 'differs';
            if (part === 'image' && s.modelImage !== s.image) cell.title = 'the model expects: ' + (s.modelImage === null ? 'no row' : s.modelImage);
            row.appendChild(cell);
          });
          var lines = el('td', 'differences');
          if (s.differences.length) lines.appendChild(diffList(s.differences));
          row.appendChild(lines);
          table.appendChild(row);
        });
        box.appendChild(table);
      }
      var first = data.failure && data.failure.key ? data.failure.key : recordKeys[0];
      if (first !== undefined) showRecord(first);
      if (positions[failing] !== undefined) select(positions[failing]);
      else if (data.events.length) select(data.events.length - 1);
      document.body.setAttribute('data-rendered', 'ok');
    })();

    """
}
