// The HTML report's small helpers (see report.js): the page's root, element building and the
// formats of numbers, bytes and times, badges, sections, tables, folds and listings, and the
// run's script lines that findings quote. Every text from a report goes in as text (textContent),
// never as markup. Registers onto window.PsReportParts; the page loads report-base.js,
// report-capture.js, report-diff.js, report.js in that order.
(function () {
  'use strict';

  const parts = (window.PsReportParts = window.PsReportParts || {});

  const root = document.getElementById('ps-report');

  // ---- small helpers -------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else if (key === 'dataset') Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? '' : value);
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
    }
    return node;
  }

  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const str = (v) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
  const firstLine = (s) => str(s).split('\n')[0];
  const baseName = (p) => str(p).split('/').pop();

  function num(v, digits) {
    if (typeof v !== 'number' || !isFinite(v)) return '—';
    if (v === 0) return '0';
    const a = Math.abs(v);
    if (a >= 1e4 || a < 1e-3) return v.toExponential(digits === undefined ? 2 : digits);
    return v.toPrecision(digits === undefined ? 3 : digits).replace(/\.?0+$/, '');
  }

  function seconds(v) {
    if (typeof v !== 'number' || !isFinite(v)) return '—';
    if (v < 1e-3) return (v * 1e6).toFixed(0) + ' µs';
    if (v < 1) return (v * 1e3).toFixed(1) + ' ms';
    return v.toFixed(2) + ' s';
  }

  function micros(us) {
    if (typeof us !== 'number' || !isFinite(us)) return '—';
    return us >= 1000 ? (us / 1000).toFixed(2) + ' ms' : us.toFixed(1) + ' µs';
  }

  function bytes(n) {
    if (typeof n !== 'number' || !isFinite(n)) return '—';
    if (n < 1024) return n + ' B';
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KiB';
    return (n / (1024 * 1024)).toFixed(1) + ' MiB';
  }

  // An outcome word's tone, as the engine decided it from the typed outcome (model::Tone, the
  // page data's "tones"; the window colours by the same rule). A word the engine did not list
  // reads as bad: never shown as fine.
  let tones = {};
  function setTones(table) {
    tones = isObject(table) ? table : {};
  }
  function tone(word) {
    const t = Object.prototype.hasOwnProperty.call(tones, word) ? tones[word] : 'bad';
    return ['good', 'warn', 'serious', 'bad', 'muted'].includes(t) ? t : 'bad';
  }

  function badge(word, extraClass) {
    return el('span', { class: 'ps-badge ps-tone-' + tone(word) + (extraClass ? ' ' + extraClass : ''), text: word });
  }

  function section(id, title, ...children) {
    return el('section', { id, class: 'ps-section', 'aria-labelledby': id + '-h' },
      el('h2', { id: id + '-h', text: title }), ...children);
  }

  function table(headers, rows, className) {
    return el('table', { class: 'ps-table' + (className ? ' ' + className : '') },
      el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col', text: h })))),
      el('tbody', {}, rows.map((r) => el('tr', {}, r.map((c) => el('td', {}, c))))));
  }

  function facts(pairs) {
    const dl = el('dl', { class: 'ps-facts' });
    for (const [k, v] of pairs) {
      if (v === undefined || v === null || v === '') continue;
      dl.append(el('dt', { text: k }), el('dd', {}, v));
    }
    return dl;
  }

  function fold(title, open, build, className) {
    // The body is built when first opened: a big python_code costs nothing until it is read.
    const body = el('div', { class: 'ps-fold-body' });
    const details = el('details', { class: 'ps-fold' + (className ? ' ' + className : '') },
      el('summary', {}, title), body);
    let built = false;
    const fill = () => {
      if (!built && details.open) {
        built = true;
        body.append(build());
      }
    };
    details.addEventListener('toggle', fill);
    if (open) {
      details.open = true;
      fill();
    }
    return details;
  }

  // Lines of a text as a numbered listing; `mark` is the line (1-based) to highlight.
  function listing(lines, firstNumber, mark, className) {
    const pre = el('pre', { class: 'ps-code' + (className ? ' ' + className : '') });
    lines.forEach((line, i) => {
      const n = firstNumber + i;
      pre.append(el('span', { class: 'ps-line' + (n === mark ? ' ps-mark' : ''), dataset: { line: String(n) } },
        el('span', { class: 'ps-ln', 'aria-hidden': 'true', text: String(n) }), line));
    });
    return pre;
  }

  // ---- the script's lines ------------------------------------------------------------------

  // The run's script (runPage sets it): its path, and its lines or null where the page has none.
  const script = { path: '', lines: null };

  function sameScript(file) {
    if (!script.lines || !file) return false;
    return file === script.path || baseName(file) === baseName(script.path);
  }

  // The script's line `line` with two lines around it, or null where the text is not at hand.
  function sourceExcerpt(file, line) {
    if (!sameScript(file) || !(line > 0) || line > script.lines.length) return null;
    const from = Math.max(1, line - 2);
    const to = Math.min(script.lines.length, line + 2);
    return el('figure', { class: 'ps-source' },
      el('figcaption', { text: baseName(file) + ':' + line }),
      listing(script.lines.slice(from - 1, to), from, line));
  }

  function where(location) {
    if (!isObject(location) || !location.file) return '';
    return baseName(location.file) + (location.line > 0 ? ':' + location.line : '');
  }

  // A violation, an error or a warning (model::Violation's fields) with its source line and fix.
  function finding(v, kind, stage) {
    const invariant = typeof v.invariant === 'number' ? 'invariant ' + v.invariant : '';
    const words = v.summary || firstLine(v.message);
    const head = el('p', { class: 'ps-finding-head' },
      badge(kind),
      stage ? el('span', { class: 'ps-stage', text: stage }) : null,
      invariant ? el('span', { class: 'ps-invariant', text: invariant }) : null,
      v.rule ? el('code', { class: 'ps-rule', text: v.rule }) : null,
      where(v.location) ? el('span', { class: 'ps-where', text: where(v.location) }) : null);
    const box = el('article', { class: 'ps-finding ps-finding-' + kind.replace(/\W+/g, '-') },
      head, el('p', { class: 'ps-finding-text', text: (v.kind && kind !== 'warning' ? v.kind + ': ' : '') + words }));
    if (isObject(v.location)) {
      const excerpt = sourceExcerpt(v.location.file, v.location.line);
      if (excerpt) box.append(excerpt);
    }
    const chain = Array.isArray(v.chain) ? v.chain.filter(isObject) : [];
    if (chain.length) {
      box.append(el('ol', { class: 'ps-chain', 'aria-label': 'from your line to the torch op' },
        chain.map((s) => el('li', {},
          s.role === 'torch' ? el('code', { text: s.op }) :
            [s.package ? s.package + (s.version ? ' ' + s.version : '') + ' · ' : '',
              baseName(s.file) + ':' + s.line, s.function && s.role !== 'user' ? ' in ' + s.function : '',
              s.code ? el('code', { text: s.code }) : null]))));
    }
    if (v.explanation) box.append(el('p', { class: 'ps-explanation', text: v.explanation }));
    if (v.fix) box.append(el('p', { class: 'ps-fix' }, el('strong', { text: 'Fix: ' }), v.fix));
    if (isObject(v.details) && v.details.guard) box.append(el('p', { text: 'Guard: ' }, el('code', { text: v.details.guard })));
    if (words !== str(v.message) && v.message) {
      box.append(fold('torch’s message', false, () => el('pre', { class: 'ps-text', text: v.message })));
    }
    if (v.traceback) box.append(fold('Traceback', false, () => el('pre', { class: 'ps-text', text: v.traceback })));
    return box;
  }

  Object.assign(parts, {
    root, el, isObject, str, firstLine, baseName, num, seconds, micros, bytes, setTones, tone, badge, section,
    table, facts, fold, listing, script, sameScript, sourceExcerpt, where, finding,
  });
})();
