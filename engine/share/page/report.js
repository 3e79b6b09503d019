// The HTML report's own script (engine/share/page/report.js, embedded by ps_share).
// It decodes the page data (gzip + base64 in #ps-data, built by engine/share/PageData) and draws
// the run, or the comparison of two runs, into #ps-report. Every text from a report goes in as
// text (textContent), never as markup. No library: plain DOM.
// When everything is drawn, document.body.dataset.ready becomes "1"; on a failure the page says
// so in the page and on the console (console.error), which the browser tests fail on.
// This file holds the run page and the start. The page loads report-base.js (helpers),
// report-capture.js (one capture's sections), report-diff.js (the diff page), then this file, in
// that order, sharing window.PsReportParts.
(function () {
  'use strict';

  const parts = (window.PsReportParts = window.PsReportParts || {});
  const {
    root, el, isObject, str, baseName, setTones, tone, badge, section, facts, fold, listing, script, finding,
    capture, diffPage,
  } = parts;

  // ---- the run page ------------------------------------------------------------------------

  function runPage(data) {
    const report = isObject(data.report) ? data.report : {};
    const verdict = isObject(data.verdict) ? data.verdict : {};
    const captures = Array.isArray(report.captures) ? report.captures.filter(isObject) : [];
    const extras = Array.isArray(data.captures) ? data.captures : [];
    script.path = str(report.script);
    script.lines = typeof data.script_text === 'string' && data.script_text ? data.script_text.split('\n') : null;
    if (script.lines && script.lines.length > 1 && script.lines[script.lines.length - 1] === '') script.lines.pop();
    const pending = [];

    const word = str(verdict.word) || 'error';
    const header = el('header', { class: 'ps-header' },
      el('h1', {}, el('span', { class: 'ps-script', text: baseName(report.script) || '(no script)' })),
      el('p', { class: 'ps-verdict', id: 'ps-verdict' }, badge(word, 'ps-verdict-word'), ' ',
        el('span', { class: 'ps-message', text: str(verdict.message) })),
      facts([
        ['script', str(report.script)],
        ['run', typeof report.run_id === 'number' ? (report.stored ? 'stored run #' : 'run #') + report.run_id : 'run (not stored)'],
        ['not stored', report.store_error ? str(report.store_error) : null],
        ['exit code', String(verdict.exit_code)],
        ['captures', String(captures.length)],
        ['ran on', isObject(report.worker) ? [report.worker.hostname, report.worker.torch ? 'torch ' + report.worker.torch : '']
          .filter(Boolean).join(' · ') : null],
        ['made with', typeof data.stamps === 'string' ? data.stamps : null],
      ]));
    document.title = (baseName(report.script) || 'run') + ': ' + word + ' · Precompile Studio';

    // Every finding first, where a reader looks.
    const findings = [];
    // A finding is an error when its status says so; one without a status is judged by its rule.
    const kindOf = (v) => (typeof v.status === 'string' && tone(v.status) === 'bad') || !v.rule ? 'error' : 'violation';
    if (isObject(report.violation)) findings.push(finding(report.violation, 'violation', 'script'));
    for (const w of Array.isArray(report.warnings) ? report.warnings.filter(isObject) : []) findings.push(finding(w, 'warning'));
    captures.forEach((c) => {
      const label = str(c.name);
      if (isObject(c.violation)) {
        findings.push(finding(c.violation, kindOf(c.violation), label + ' · capture'));
      }
      if (isObject(c.outcome) && str(c.outcome.where) !== 'capture' && !isObject(c.violation)) {
        findings.push(finding(c.outcome, kindOf(c.outcome),
          label + (c.outcome.where ? ' · ' + c.outcome.where : '')));
      }
      for (const w of Array.isArray(c.warnings) ? c.warnings.filter(isObject) : []) findings.push(finding(w, 'warning', label));
    });

    const nav = el('nav', { class: 'ps-toc', 'aria-label': 'Sections' }, el('ul', {},
      el('li', {}, el('a', { href: '#findings', text: 'Violations and warnings (' + findings.length + ')' })),
      captures.map((c, i) => el('li', {}, el('a', { href: '#capture-' + i, text: str(c.name) || 'capture ' + (i + 1) }))),
      script.lines ? el('li', {}, el('a', { href: '#script', text: 'Script' })) : null));

    const body = [header, nav,
      section('findings', 'Violations and warnings', findings.length ? findings
        : el('p', { class: 'ps-note', text: tone(word) === 'good' ? 'None: every check passed.' : 'No violation or warning was reported.' }))];
    captures.forEach((c, i) => body.push(capture(c, isObject(extras[i]) ? extras[i] : {}, i, pending)));
    if (script.lines) {
      body.push(section('script', 'Script', fold(baseName(report.script) + ' (' + script.lines.length + ' lines)', false,
        () => listing(script.lines, 1, 0))));
    }
    if (isObject(report.log) && typeof report.log.text === 'string' && report.log.text) {
      body.push(section('log', 'Script output', fold('output', false, () => el('pre', { class: 'ps-text', text: report.log.text }))));
    }
    root.replaceChildren(...body);
    return pending;
  }

  // ---- start -------------------------------------------------------------------------------

  async function decode() {
    const holder = document.getElementById('ps-data');
    if (!holder) throw new Error('the page holds no data (#ps-data)');
    const binary = atob(holder.textContent.replace(/\s+/g, ''));
    const bytesOf = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytesOf[i] = binary.charCodeAt(i);
    const stream = new Blob([bytesOf]).stream().pipeThrough(new DecompressionStream('gzip'));
    return visible(JSON.parse(await new Response(stream).text()));
  }

  // Control characters (tab, newline and carriage return aside) and bidirectional controls in a
  // run's text are shown as escapes (\x1b, \u202e), as the terminal shows them
  // (library::TerminalText): a run's text never hides itself or reads backwards. Keys too; built
  // with fromEntries, so a key "__proto__" stays a key.
  // eslint-disable-next-line no-control-regex
  const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  const escapeOf = (c) => {
    const n = c.charCodeAt(0);
    return n < 0x80 ? '\\x' + n.toString(16).padStart(2, '0') : '\\u' + n.toString(16).padStart(4, '0');
  };

  function visible(v) {
    if (typeof v === 'string') return v.replace(HIDDEN, escapeOf);
    if (Array.isArray(v)) return v.map(visible);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [visible(k), visible(x)]));
    return v;
  }

  function fail(error) {
    const message = error && error.message ? error.message : String(error);
    root.replaceChildren(el('div', { class: 'ps-failure', role: 'alert' },
      el('h1', { text: 'This report could not be shown' }), el('p', { text: message })));
    console.error('Precompile Studio report: ' + message);
  }

  async function start() {
    const data = await decode();
    setTones(data.tones);
    const pending = data.kind === 'diff' ? diffPage(data) : runPage(data);
    // Graphs draw one after another: each lays out in the engine, which is one instance.
    for (const draw of pending) await draw();
    document.body.dataset.ready = '1';
  }

  start().catch(fail);
})();
