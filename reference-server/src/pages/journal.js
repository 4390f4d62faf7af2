// The request journal page: polls the admin API for the requests after the last one shown and
// adds them on top, reading page after page while the API says more follow; requests the journal
// no longer held when they were asked for are shown as one gap row. A click on an entry shows its
// request's and answer's bodies below it (tr.bodies, with .request-body and .response-body), read
// one entry at a time (`#open=N` in the address opens entry N's). Every text goes into the page through textContent, never as HTML.
(function () {
  'use strict';

  var POLL_MS = 1000;
  var MAX_ROWS = 500;
  var admin = document.body.getAttribute('data-admin');
  var last = 0;
  var paused = false;

  function $(id) { return document.getElementById(id); }

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function statusClass(status) {
    if (status === null || status === undefined) return 'dropped';
    if (status >= 500) return 's5';
    if (status >= 400) return 's4';
    if (status >= 300) return 's3';
    return 's2';
  }

  function why(entry) {
    var parts = [];
    if (entry.fault) parts.push(el('span', { 'class': 'fault' }, ['fault: ' + entry.fault]));
    if (entry.stub) parts.push(el('span', { 'class': 'stub' }, [entry.stub]));
    if (entry.cors) parts.push(el('span', { 'class': 'reason cors' }, ['CORS: ' + entry.cors]));
    if (entry.reason) {
      var text = entry.reason + (entry.hint ? ' — ' + entry.hint : '');
      parts.push(el('span', { 'class': 'reason' }, [text]));
    }
    (entry.findings || []).forEach(function (finding) {
      var text = finding.side + ': ' + finding.reason + (finding.hint ? ' — ' + finding.hint : '');
      parts.push(el('span', { 'class': 'finding ' + (finding.side === 'answer' ? 'answer' : 'request') }, [text]));
    });
    if (entry.code) parts.push(el('code', { 'class': 'code' }, [entry.code]));
    return parts;
  }

  /// The path as its segments, with a line break allowed only after a `/`, `?` or `&`: a long
  /// path wraps between segments, never inside one (a segment of more than 60 characters, which
  /// would not fit, may wrap anywhere).
  function pathPieces(path) {
    var children = [];
    String(path || '').split(/(?<=[\/?&])/).forEach(function (piece, i) {
      if (i) children.push(el('wbr', {}, []));
      children.push(el('span', { 'class': piece.length > 60 ? 'seg long' : 'seg' }, [piece]));
    });
    return children;
  }

  function row(entry) {
    var time = String(entry.time || '').slice(11, 23);
    var found = entry.findings && entry.findings.length ? ' found' : '';
    var tr = el('tr', { 'class': 'entry ' + statusClass(entry.status) + found, 'data-seq': String(entry.seq) }, [
      el('td', { 'class': 'seq' }, [String(entry.seq)]),
      el('td', { 'class': 'time' }, [time]),
      el('td', { 'class': 'method' }, [entry.method || '']),
      el('td', { 'class': 'path' }, pathPieces(entry.path)),
      el('td', { 'class': 'user' }, [entry.user || '—']),
      el('td', { 'class': 'status' }, [entry.status === null || entry.status === undefined ? 'dropped' : String(entry.status)]),
      el('td', { 'class': 'ms' }, [String(entry.duration_ms)]),
      el('td', { 'class': 'why' }, why(entry))
    ]);
    tr.setAttribute('data-search', [entry.method, entry.path, entry.user, entry.status, entry.reason, entry.hint, entry.fault, entry.cors, entry.code, entry.stub, findingsText(entry)].join(' ').toLowerCase());
    return tr;
  }

  function findingsText(entry) {
    return (entry.findings || []).map(function (finding) { return finding.reason + ' ' + (finding.hint || ''); }).join(' ');
  }

  // One kept body as text (never HTML), with its length and whether it was cut or redacted.
  function bodyBlock(label, kept, className) {
    if (!kept) return el('div', { 'class': className }, [el('h3', {}, [label]), el('p', {}, ['none'])]);
    var notes = [kept.bytes + ' bytes'];
    if (kept.content_type) notes.push(kept.content_type);
    if (kept.truncated) notes.push('only the first ' + kept.text.length + ' characters are kept');
    if (kept.redacted) notes.push('secrets redacted');
    return el('div', { 'class': className }, [
      el('h3', {}, [label + ' (' + notes.join(', ') + ')']),
      el('pre', { 'class': 'body-text' }, [kept.text])
    ]);
  }

  // Click on an entry: its bodies below it, read from the admin API; click again to hide them.
  function toggleBodies(tr) {
    var next = tr.nextSibling;
    if (next && next.className === 'bodies') { next.parentNode.removeChild(next); return; }
    var seq = tr.getAttribute('data-seq');
    var cell = el('td', { colspan: '8' }, ['Reading the bodies…']);
    var detail = el('tr', { 'class': 'bodies', 'data-seq': seq }, [cell]);
    detail.setAttribute('data-search', '');
    tr.parentNode.insertBefore(detail, tr.nextSibling);
    fetch(admin + '/requests/' + encodeURIComponent(seq), { headers: { Accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) throw new Error('the journal no longer holds this request (' + response.status + ')');
        return response.json();
      })
      .then(function (entry) {
        cell.textContent = '';
        cell.appendChild(bodyBlock('Request body', entry.request_body, 'request-body'));
        cell.appendChild(bodyBlock('Response body', entry.response_body, 'response-body'));
        detail.setAttribute('data-loaded', 'true');
      })
      .catch(function (error) { cell.textContent = 'The bodies could not be read: ' + error.message; });
  }

  // `#open=N` in the address opens entry N's bodies once it is shown (a link to one request).
  function openFromHash() {
    var wanted = /^#open=(\d+)$/.exec(location.hash);
    if (!wanted) return;
    var tr = $('rows').querySelector('tr.entry[data-seq="' + wanted[1] + '"]');
    if (!tr) return;
    history.replaceState(null, '', location.pathname + location.search);
    toggleBodies(tr);
  }

  // A row that stands for requests the journal dropped before this page read them.
  function gap(count) {
    var text = count + (count === 1 ? ' request' : ' requests') + ' not shown: the journal no longer held them';
    var tr = el('tr', { 'class': 'gap' }, [el('td', { colspan: '8' }, [text])]);
    tr.setAttribute('data-search', '');
    return tr;
  }

  function applyFilter(tr) {
    if (tr.className === 'gap' || tr.className === 'bodies') return;
    var refusalsOnly = $('refusals-only').checked;
    var needle = $('filter').value.trim().toLowerCase();
    var refused = /\b(s4|s5|dropped|found)\b/.test(tr.className);
    var shown = (!refusalsOnly || refused) && (!needle || tr.getAttribute('data-search').indexOf(needle) >= 0);
    tr.hidden = !shown;
    var next = tr.nextSibling;
    if (next && next.className === 'bodies') next.hidden = tr.hidden;
  }

  function refilter() {
    Array.prototype.forEach.call($('rows').children, applyFilter);
  }

  function poll() {
    if (paused) return schedule();
    var more = false;
    fetch(admin + '/requests?since=' + last + '&limit=200', { headers: { Accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) throw new Error('the admin API answered ' + response.status);
        return response.json();
      })
      .then(function (result) {
        var rows = $('rows');
        if (result.missed > 0 && last > 0) rows.insertBefore(gap(result.missed), rows.firstChild);
        more = result.more === true;
        (result.requests || []).forEach(function (entry) {
          var tr = row(entry);
          applyFilter(tr);
          rows.insertBefore(tr, rows.firstChild);
          last = Math.max(last, entry.seq);
        });
        while (rows.children.length > MAX_ROWS) rows.removeChild(rows.lastChild);
        $('status').textContent = rows.children.length ? '' : 'Waiting for requests…';
        document.body.setAttribute('data-polled', String(last));
        openFromHash();
      })
      .catch(function (error) {
        $('status').textContent = 'The journal could not be read: ' + error.message;
      })
      .then(function () { return more ? poll() : schedule(); });
  }

  function schedule() { setTimeout(poll, POLL_MS); }

  $('rows').addEventListener('click', function (event) {
    var tr = event.target.closest('tr.entry');
    if (tr) toggleBodies(tr);
  });
  $('refusals-only').addEventListener('change', refilter);
  $('filter').addEventListener('input', refilter);
  $('pause').addEventListener('click', function () {
    paused = !paused;
    $('pause').textContent = paused ? 'Resume' : 'Pause';
  });
  $('clear').addEventListener('click', function () {
    fetch(admin + '/requests', { method: 'DELETE' }).then(function () { $('rows').textContent = ''; });
  });
  poll();
})();
