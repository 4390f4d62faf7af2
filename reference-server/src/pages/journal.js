// The request journal page: polls the admin API for the requests after the last one shown and
// adds them on top, reading page after page while the API says more follow; requests the journal
// no longer held when they were asked for are shown as one gap row. Every text goes into the page
// through textContent, never as HTML.
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
    tr.setAttribute('data-search', [entry.method, entry.path, entry.user, entry.status, entry.reason, entry.hint, entry.fault, entry.cors, entry.code, findingsText(entry)].join(' ').toLowerCase());
    return tr;
  }

  function findingsText(entry) {
    return (entry.findings || []).map(function (finding) { return finding.reason + ' ' + (finding.hint || ''); }).join(' ');
  }

  // A row that stands for requests the journal dropped before this page read them.
  function gap(count) {
    var text = count + (count === 1 ? ' request' : ' requests') + ' not shown: the journal no longer held them';
    var tr = el('tr', { 'class': 'gap' }, [el('td', { colspan: '8' }, [text])]);
    tr.setAttribute('data-search', '');
    return tr;
  }

  function applyFilter(tr) {
    if (tr.className === 'gap') return;
    var refusalsOnly = $('refusals-only').checked;
    var needle = $('filter').value.trim().toLowerCase();
    var refused = /\b(s4|s5|dropped|found)\b/.test(tr.className);
    var shown = (!refusalsOnly || refused) && (!needle || tr.getAttribute('data-search').indexOf(needle) >= 0);
    tr.hidden = !shown;
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
      })
      .catch(function (error) {
        $('status').textContent = 'The journal could not be read: ' + error.message;
      })
      .then(function () { return more ? poll() : schedule(); });
  }

  function schedule() { setTimeout(poll, POLL_MS); }

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
