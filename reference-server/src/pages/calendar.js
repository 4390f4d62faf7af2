// The calendar page: a month view and the upcoming events, built from the public API alone.
// Every text from the API goes into the page through textContent, never as HTML.
(function () {
  'use strict';

  var STRINGS = {
    en: { title: 'Calendar', upcoming: 'Upcoming events', none: 'No upcoming events.', venue: 'Venue',
          organizers: 'Organizers', categories: 'Categories', allDay: 'All day', loading: 'Loading…',
          failed: 'The calendar could not be loaded', builtFrom: 'Built from the public API at',
          more: 'more', previous: 'Previous month', next: 'Next month' },
    fr: { title: 'Agenda', upcoming: 'Événements à venir', none: 'Aucun événement à venir.', venue: 'Lieu',
          organizers: 'Organisateurs', categories: 'Catégories', allDay: 'Toute la journée', loading: 'Chargement…',
          failed: "L'agenda n'a pas pu être chargé", builtFrom: "Construit à partir de l'API publique",
          more: 'de plus', previous: 'Mois précédent', next: 'Mois suivant' },
    de: { title: 'Kalender', upcoming: 'Kommende Veranstaltungen', none: 'Keine kommenden Veranstaltungen.',
          venue: 'Ort', organizers: 'Veranstalter', categories: 'Kategorien', allDay: 'Ganztägig',
          loading: 'Wird geladen…', failed: 'Der Kalender konnte nicht geladen werden',
          builtFrom: 'Erstellt aus der öffentlichen API unter', more: 'weitere', previous: 'Voriger Monat',
          next: 'Nächster Monat' },
    es: { title: 'Calendario', upcoming: 'Próximos eventos', none: 'No hay próximos eventos.', venue: 'Lugar',
          organizers: 'Organizadores', categories: 'Categorías', allDay: 'Todo el día', loading: 'Cargando…',
          failed: 'No se pudo cargar el calendario', builtFrom: 'Hecho con la API pública en',
          more: 'más', previous: 'Mes anterior', next: 'Mes siguiente' }
  };
  var PER_CELL = 3;
  var MAX_PAGES = 20;

  var body = document.body;
  var api = body.getAttribute('data-api');
  var site = body.getAttribute('data-site');
  var lang = body.getAttribute('data-lang');
  var today = body.getAttribute('data-today');
  var T = STRINGS[lang] || STRINGS.en;

  function $(id) { return document.getElementById(id); }

  // An element with attributes and children (strings become text nodes).
  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  // A description from the API (HTML) as plain text: entities decoded, tags and scripts dropped.
  // A document made by DOMParser runs no script and loads nothing.
  function plain(html) {
    if (typeof html !== 'string') return '';
    var doc = new DOMParser().parseFromString(html, 'text/html');
    Array.prototype.forEach.call(doc.querySelectorAll('script, style, template'), function (node) { node.remove(); });
    return (doc.body.textContent || '').replace(/\s+/g, ' ').trim();
  }

  // A name from the API (a title, a venue…) as written: entities decoded (`&amp;` is `&`), any
  // markup kept as the characters it is made of. A textarea's content is text, never elements.
  function named(html) {
    if (typeof html !== 'string') return '';
    var doc = new DOMParser().parseFromString('<textarea>' + html.replace(/<\/textarea/gi, '&lt;/textarea') + '</textarea>', 'text/html');
    var area = doc.querySelector('textarea');
    return (area ? area.value : html).trim();
  }

  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function isoDay(date) { return date.getUTCFullYear() + '-' + pad(date.getUTCMonth() + 1) + '-' + pad(date.getUTCDate()); }
  function dayOf(text) { return String(text || '').slice(0, 10); }
  function timeOf(text) { return String(text || '').slice(11, 16); }
  function utcDate(text) { var p = text.split('-'); return new Date(Date.UTC(+p[0], +p[1] - 1, +(p[2] || 1))); }

  function fetchJSON(url) {
    return fetch(url, { headers: { Accept: 'application/json' }, credentials: 'omit' }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (json) {
        if (!response.ok) {
          var code = json && typeof json.code === 'string' ? json.code : '';
          throw new Error(response.status + (code ? ' ' + code : ''));
        }
        return { json: json, headers: response.headers };
      });
    });
  }

  // Every event that starts in [start, end], page after page.
  function eventsBetween(start, end) {
    var found = [];
    function page(n) {
      var url = api + '/events?per_page=50&page=' + n + '&start_date=' + encodeURIComponent(start + ' 00:00:00') +
        '&end_date=' + encodeURIComponent(end + ' 23:59:59');
      return fetchJSON(url).then(function (result) {
        var events = (result.json && result.json.events) || [];
        found = found.concat(events);
        var pages = parseInt(result.headers.get('X-TEC-TotalPages') || result.headers.get('X-WP-TotalPages') || '1', 10);
        return n < pages && n < MAX_PAGES ? page(n + 1) : found;
      }).catch(function (error) {
        // A page past the end answers 404: what came so far is the month.
        if (n > 1 && /^404/.test(error.message)) return found;
        throw error;
      });
    }
    return page(1);
  }

  function monthLabel(year, month) {
    return new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' })
      .format(new Date(Date.UTC(year, month - 1, 1)));
  }

  function weekdayNames() {
    var names = [];
    var format = new Intl.DateTimeFormat(lang, { weekday: 'short', timeZone: 'UTC' });
    for (var i = 0; i < 7; i++) names.push(format.format(new Date(Date.UTC(2024, 0, 1 + i)))); // a Monday first
    return names;
  }

  function link(month) { return '?month=' + month; }

  function renderMonth(year, month, events) {
    $('month-title').textContent = monthLabel(year, month);
    var previous = new Date(Date.UTC(year, month - 2, 1));
    var next = new Date(Date.UTC(year, month, 1));
    $('previous').setAttribute('href', link(isoDay(previous).slice(0, 7)));
    $('previous').setAttribute('title', T.previous);
    $('next').setAttribute('href', link(isoDay(next).slice(0, 7)));
    $('next').setAttribute('title', T.next);
    var head = $('weekdays');
    head.textContent = '';
    weekdayNames().forEach(function (name) { head.appendChild(el('th', { scope: 'col' }, [name])); });

    var byDay = {};
    events.forEach(function (event) {
      var first = dayOf(event.start_date);
      var last = dayOf(event.end_date) || first;
      // An event is shown on each of its days (at most 62, for very long ones).
      var day = utcDate(first);
      for (var i = 0; i < 62 && isoDay(day) <= last; i++) {
        (byDay[isoDay(day)] = byDay[isoDay(day)] || []).push(event);
        day = new Date(day.getTime() + 86400000);
      }
    });

    var weeks = $('weeks');
    weeks.textContent = '';
    var first = new Date(Date.UTC(year, month - 1, 1));
    var offset = (first.getUTCDay() + 6) % 7;
    var cursor = new Date(first.getTime() - offset * 86400000);
    for (var week = 0; week < 6; week++) {
      var row = el('tr');
      for (var d = 0; d < 7; d++) {
        var key = isoDay(cursor);
        var inMonth = cursor.getUTCMonth() === month - 1;
        var classes = ['day'];
        if (!inMonth) classes.push('other-month');
        if (key === today) classes.push('today');
        var cell = el('td', { 'class': classes.join(' '), 'data-day': key }, [el('span', { 'class': 'day-number' }, [String(cursor.getUTCDate())])]);
        var list = (byDay[key] || []);
        if (list.length) {
          var items = el('ul', { 'class': 'day-events' });
          list.slice(0, PER_CELL).forEach(function (event) {
            var time = event.all_day ? '' : timeOf(event.start_date) + ' ';
            items.appendChild(el('li', { 'class': 'day-event', title: named(event.title) }, [
              time ? el('span', { 'class': 'time' }, [time]) : null, named(event.title)
            ]));
          });
          if (list.length > PER_CELL) items.appendChild(el('li', { 'class': 'more' }, ['+' + (list.length - PER_CELL) + ' ' + T.more]));
          cell.appendChild(items);
        }
        row.appendChild(cell);
        cursor = new Date(cursor.getTime() + 86400000);
      }
      weeks.appendChild(row);
      if (cursor.getUTCMonth() !== month - 1 && week >= 3) break;
    }
  }

  function when(event) {
    var format = new Intl.DateTimeFormat(lang, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    var text = format.format(utcDate(dayOf(event.start_date)));
    if (event.all_day) return text + ' · ' + T.allDay;
    return text + ' · ' + timeOf(event.start_date) + '–' + timeOf(event.end_date) + (event.timezone_abbr ? ' ' + event.timezone_abbr : '');
  }

  function renderUpcoming(events) {
    var list = $('upcoming-list');
    list.textContent = '';
    if (!events.length) {
      list.appendChild(el('li', { 'class': 'empty' }, [T.none]));
      return;
    }
    events.forEach(function (event) {
      var details = el('dl', { 'class': 'details' });
      var venue = event.venue && !Array.isArray(event.venue) ? event.venue : null;
      if (venue) {
        var place = [named(venue.venue), named(venue.city), named(venue.country)].filter(Boolean).join(', ');
        details.appendChild(el('dt', {}, [T.venue]));
        details.appendChild(el('dd', { 'class': 'venue' }, [place]));
      }
      var organizers = (Array.isArray(event.organizer) ? event.organizer : []).map(function (o) { return named(o.organizer); }).filter(Boolean);
      if (organizers.length) {
        details.appendChild(el('dt', {}, [T.organizers]));
        details.appendChild(el('dd', { 'class': 'organizers' }, [organizers.join(', ')]));
      }
      var categories = (Array.isArray(event.categories) ? event.categories : []).map(function (c) { return named(c.name); }).filter(Boolean);
      if (categories.length) {
        details.appendChild(el('dt', {}, [T.categories]));
        var tags = el('dd', { 'class': 'categories' });
        categories.forEach(function (name) { tags.appendChild(el('span', { 'class': 'category' }, [name])); });
        details.appendChild(tags);
      }
      var summary = plain(event.excerpt) || plain(event.description);
      if (summary.length > 220) summary = summary.slice(0, 217) + '…';
      list.appendChild(el('li', { 'class': 'event', 'data-id': String(event.id) }, [
        el('p', { 'class': 'when' }, [when(event)]),
        el('h3', { 'class': 'event-title' }, [named(event.title)]),
        summary ? el('p', { 'class': 'summary' }, [summary]) : null,
        details,
        event.cost ? el('p', { 'class': 'cost' }, [named(event.cost)]) : null
      ]));
    });
  }

  function renderLanguages() {
    var nav = $('languages');
    [['en', ''], ['fr', '/fr/'], ['de', '/de/'], ['es', '/es/']].forEach(function (pair) {
      var attributes = { href: (site || '') + (pair[1] || '/'), hreflang: pair[0] };
      if (pair[0] === lang) attributes['aria-current'] = 'page';
      nav.appendChild(el('a', attributes, [pair[0].toUpperCase()]));
    });
  }

  function fail(error) {
    var status = $('status');
    status.className = 'error';
    status.textContent = T.failed + ': ' + error.message;
  }

  function start() {
    document.title = T.title;
    $('heading').textContent = T.title;
    $('upcoming-title').textContent = T.upcoming;
    $('built-from').textContent = T.builtFrom;
    $('api-address').textContent = api;
    $('status').textContent = T.loading;
    renderLanguages();

    var wanted = new URLSearchParams(location.search).get('month') || '';
    var month = /^\d{4}-(0[1-9]|1[0-2])$/.test(wanted) ? wanted : today.slice(0, 7);
    var year = +month.slice(0, 4);
    var number = +month.slice(5, 7);
    var last = new Date(Date.UTC(year, number, 0));
    var monthDone = eventsBetween(month + '-01', isoDay(last)).then(function (events) {
      renderMonth(year, number, events);
    });
    // The server's default window starts today: the upcoming events.
    var upcomingDone = fetchJSON(api + '/events?per_page=10').then(function (result) {
      renderUpcoming((result.json && result.json.events) || []);
    });
    Promise.all([monthDone, upcomingDone]).then(function () {
      $('status').textContent = '';
      body.setAttribute('data-ready', 'true');
    }).catch(function (error) {
      fail(error);
      body.setAttribute('data-ready', 'error');
    });
  }

  start();
})();
