// The HTML report's own script (engine/share/page/report.js, embedded by ps_share as kReportJs).
// It decodes the page data (gzip + base64 in #ps-data, built by engine/share/PageData) and draws
// the run, or the comparison of two runs, into #ps-report. Every text from a report goes in as
// text (textContent), never as markup. No library: plain DOM.
// When everything is drawn, document.body.dataset.ready becomes "1"; on a failure the page says
// so in the page and on the console (console.error), which the browser tests fail on.
(function () {
  'use strict';

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

  // A verdict word's tone, as the window colours it (ui/common/StatusStyle).
  function tone(word) {
    switch (word) {
      case 'ok':
      case 'equivalent':
      case 'matches':
      case 'rounding':
        return 'good';
      case 'numerics drift':
      case 'drift':
      case 'not stored':
      case 'mismatch':
      case 'differ':
      case 'differs':
      case 'skipped':
        return 'warn';
      case 'cancelled':
        return 'muted';
      default:
        return 'bad';
    }
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

  let scriptPath = '';
  let scriptLines = null;

  function sameScript(file) {
    if (!scriptLines || !file) return false;
    return file === scriptPath || baseName(file) === baseName(scriptPath);
  }

  // The script's line `line` with two lines around it, or null where the text is not at hand.
  function sourceExcerpt(file, line) {
    if (!sameScript(file) || !(line > 0) || line > scriptLines.length) return null;
    const from = Math.max(1, line - 2);
    const to = Math.min(scriptLines.length, line + 2);
    return el('figure', { class: 'ps-source' },
      el('figcaption', { text: baseName(file) + ':' + line }),
      listing(scriptLines.slice(from - 1, to), from, line));
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

  // ---- one capture -------------------------------------------------------------------------

  function artifactFacts(c) {
    const a = c.artifact;
    if (!isObject(a)) return null;
    return facts([
      ['python_code', bytes(a.python_code_bytes) + ' · sha256 ' + str(a.python_code_sha256).slice(0, 12)],
      ['cache', bytes(a.cache_bytes) + ' · sha256 ' + str(a.cache_sha256).slice(0, 12)],
    ]);
  }

  const groups = ['outputs', 'grads', 'buffers', 'parameters', 'inputs'];

  // Where a drift starts, named as `run` names it (ReportPrinter): an element of a node of several
  // outputs (getitem_88) by that node, with its module, up to three.
  function startsPhrase(starts, pageGraph, captureIndex) {
    const list = isObject(pageGraph) && isObject(pageGraph.graph) && Array.isArray(pageGraph.graph.node_list)
      ? pageGraph.graph.node_list.filter(isObject) : [];
    const byName = new Map(list.map((n) => [n.name, n]));
    const names = [];
    for (const start of starts) {
      let name = str(start);
      const n = byName.get(name);
      if (n && str(n.target).includes('getitem') && Array.isArray(n.inputs) && typeof n.inputs[0] === 'string') name = n.inputs[0];
      if (!names.includes(name)) names.push(name);
    }
    // Each node a link to the graph, as the window's Verify tab has it.
    const out = el('span', {});
    names.slice(0, 3).forEach((name, i) => {
      const n = byName.get(name);
      out.append(i ? ', ' : '', byName.has(name) ? nodeLink(captureIndex, name) : name,
        n && isObject(n.module) && n.module.path ? ' (' + n.module.path + ')' : '');
    });
    if (names.length > 3) out.append(' and ' + (names.length - 3) + ' more');
    return out;
  }

  // A button that selects a node in its capture's graph panel and brings the panel into view.
  function nodeLink(captureIndex, name) {
    return el('button', { type: 'button', class: 'ps-node-link', dataset: { node: name },
      title: 'Select ' + name + ' in the graph', onclick: () => {
        const container = document.querySelector('#capture-' + captureIndex + ' .ps-graph-container');
        if (!container || !container.psPanel) return;
        container.psPanel.select(name);
        container.scrollIntoView({ block: 'center' });
      } }, name);
  }

  function verification(v, pageGraph, captureIndex) {
    if (!isObject(v)) return null;
    const out = el('div', { class: 'ps-verify' });
    if (!v.ran) {
      out.append(el('p', { text: 'Verification did not run' + (v.reason ? ': ' + v.reason : '.') }));
      return out;
    }
    const acc = isObject(v.accuracy) ? v.accuracy : null;
    out.append(facts([
      ['status', badge(str(v.status))],
      ['matches eager', v.matches_eager === true ? 'yes' : v.matches_eager === false ? 'no' : '—'],
      ['verdict', acc && acc.verdict ? badge(acc.verdict) : null],
      ['max abs diff', num(v.max_abs_diff)],
      ['max rel diff', num(v.max_rel_diff)],
      ['calls', typeof v.calls === 'number' ? String(v.calls) : null],
      ['against float64', acc && typeof acc.artifact_error === 'number'
        ? 'artifact ' + num(acc.artifact_error) + ', eager ' + num(acc.eager_error) +
          (typeof acc.ratio === 'number' ? ', ' + num(acc.ratio) + '×' : '') : null],
      [acc && acc.verdict === 'drift' ? 'drift starts at' : 'the difference starts at',
        acc && Array.isArray(acc.drift_starts) && acc.drift_starts.length ? startsPhrase(acc.drift_starts, pageGraph, captureIndex) : null],
      ['where it starts', acc && !(Array.isArray(acc.drift_starts) && acc.drift_starts.length) && isObject(acc.localise) &&
        acc.localise.status && acc.localise.status !== 'done'
        ? str(acc.localise.status) + (acc.localise.reason ? ' (' + acc.localise.reason + ')' : '') : null],
    ]));
    if (acc && acc.message) out.append(el('p', { class: 'ps-note', text: acc.message }));
    const rows = [];
    for (const g of groups) {
      for (const entry of Array.isArray(v[g]) ? v[g] : []) {
        if (!isObject(entry)) continue;
        const r = isObject(entry.result) ? entry.result : entry;
        rows.push([g, el('code', { text: str(entry.name) }), badge(r.ok === true ? 'ok' : r.ok === false ? 'mismatch' : '—'),
          num(r.max_abs_diff), num(r.rms_rel_diff), Array.isArray(r.sizes) ? JSON.stringify(r.sizes[1]) : '',
          Array.isArray(r.dtypes) ? str(r.dtypes[1]) : '']);
      }
    }
    if (rows.length) {
      out.append(fold('Compared values (' + rows.length + ')', rows.length <= 12,
        () => table(['group', 'value', 'result', 'max abs diff', 'rms rel diff', 'sizes', 'dtype'], rows)));
    }
    const trials = isObject(v.perturbed) && Array.isArray(v.perturbed.trials) ? v.perturbed.trials : [];
    if (trials.length) {
      out.append(fold('Perturbed inputs (' + trials.length + ' trials)', false, () =>
        table(['trial', 'inputs', 'result', 'max abs diff', 'note'],
          trials.filter(isObject).map((t) => [str(t.kind), str(t.inputs), badge(str(t.status)), num(t.max_abs_diff), str(t.note)]))));
    }
    const skipped = isObject(v.budget) && Array.isArray(v.budget.skipped) ? v.budget.skipped.slice() : [];
    if (isObject(v.load_no_cache) && v.load_no_cache.ran === false) skipped.push('load without cache');
    if (skipped.length) {
      out.append(el('p', { class: 'ps-note', text: 'Skipped: ' + skipped.join(', ') + ' (' +
        (isObject(v.budget) && v.budget.how ? v.budget.how : 'run with --deep-verify for every check') + ')' }));
    }
    const nodes = acc && Array.isArray(acc.nodes) ? acc.nodes.filter(isObject) : [];
    if (nodes.length) {
      const worst = nodes.slice().sort((x, y) => (y.error || 0) - (x.error || 0)).slice(0, 10);
      out.append(fold('Error lens: the ' + worst.length + ' nodes of largest error (of ' + nodes.length + ' measured)', false,
        () => table(['node', 'error vs float64', 'eager’s error', 'leaves eager’s band'],
          worst.map((n) => [el('code', { text: str(n.node) }), num(n.error), num(n.eager_error), n.leaves_band ? 'yes' : 'no']))));
    }
    return out;
  }

  function timings(c) {
    const t = isObject(c.timings_s) ? c.timings_s : null;
    if (!t) return null;
    const order = ['script', 'trace', 'precompile', 'load', 'load_no_cache', 'call', 'call_eager', 'verify'];
    const keys = order.filter((k) => typeof t[k] === 'number')
      .concat(Object.keys(t).filter((k) => !order.includes(k) && typeof t[k] === 'number').sort());
    if (!keys.length) return null;
    return table(['step', 'time'], keys.map((k) => [k, seconds(t[k])]), 'ps-timings');
  }

  function compileProfile(c) {
    const phases = Array.isArray(c.compile_profile) ? c.compile_profile
      : isObject(c.compile_profile) && Array.isArray(c.compile_profile.phases) ? c.compile_profile.phases : [];
    const list = phases.filter((p) => isObject(p) && typeof p.seconds === 'number');
    if (!list.length) return null;
    const total = list.reduce((s, p) => s + p.seconds, 0) || 1;
    const bar = el('div', { class: 'ps-bar', role: 'img', 'aria-label': 'precompile time by phase' },
      list.map((p, i) => el('span', { class: 'ps-bar-part ps-c' + (i % 8), title: p.phase + ' ' + seconds(p.seconds),
        style: 'width:' + (100 * p.seconds / total).toFixed(2) + '%' })));
    return el('div', {}, bar, table(['phase', 'time', 'share'], list.map((p, i) =>
      [el('span', {}, el('span', { class: 'ps-swatch ps-c' + (i % 8) }), str(p.phase)), seconds(p.seconds),
        (100 * p.seconds / total).toFixed(1) + ' %'])));
  }

  function kernelProfile(c) {
    const p = c.profile;
    if (!isObject(p) || !Array.isArray(p.kernels) || !p.kernels.length) return null;
    const kernels = p.kernels.filter(isObject).slice().sort((a, b) => (b.self_us || 0) - (a.self_us || 0));
    const total = kernels.reduce((s, k) => s + (k.self_us || 0), 0);
    return el('div', {},
      el('p', { text: 'Time lens: ' + kernels.length + ' kernels over ' + (p.calls || '?') + ' calls, ' + micros(total) + ' of kernel time.' }),
      table(['kernel', 'calls', 'self time', 'graph nodes'], kernels.slice(0, 25).map((k) =>
        [el('code', { text: str(k.name) }), String(k.count || ''), micros(k.self_us),
          Array.isArray(k.nodes) ? k.nodes.join(', ') : ''])));
  }

  function cacheContents(c) {
    const cache = c.cache;
    if (!isObject(cache)) return null;
    const out = el('div', {}, facts([
      ['format', str(cache.format) + (cache.version !== undefined ? ' v' + cache.version : '') +
        (cache.format_ok === false ? ' (not the expected format)' : '')],
      ['backend', str(cache.backend)],
      ['size', bytes(cache.bytes)],
      ['code hash', cache.code_hash ? str(cache.code_hash).slice(0, 16) + '… ' +
        (cache.code_hash_ok === true ? '(matches python_code)' : cache.code_hash_ok === false ? '(does NOT match python_code)' : '') : null],
      ['keys', Array.isArray(cache.keys) ? cache.keys.join(', ') : null],
      ['error', cache.error ? str(cache.error) : null],
    ]));
    const entries = Array.isArray(cache.entries) ? cache.entries : [];
    if (entries.length) {
      const cols = [];
      for (const e of entries) if (isObject(e)) for (const k of Object.keys(e)) if (!cols.includes(k)) cols.push(k);
      out.append(fold('Entries (' + entries.length + ')', entries.length <= 20, () => table(cols,
        entries.map((e) => cols.map((k) => {
          const v = isObject(e) ? e[k] : e;
          return typeof v === 'number' && /bytes/.test(k) ? bytes(v) : typeof v === 'object' && v !== null ? JSON.stringify(v) : str(v);
        })))));
    }
    return out;
  }

  function pythonCode(c, code) {
    if (typeof code !== 'string') {
      return el('p', { class: 'ps-note', text: 'No python_code: ' + (str(c.status) === 'ok' ? 'it was not kept with this run.' : 'the capture ended before precompile returned it.') });
    }
    const lines = code.split('\n');
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    const sections = isObject(c.lowering) && Array.isArray(c.lowering.sections) ? c.lowering.sections.filter(isObject) : [];
    const top = sections.filter((s) => !s.parent && s.start > 0 && s.end >= s.start);
    const out = el('div', { class: 'ps-python' }, el('p', { class: 'ps-note',
      text: lines.length + ' lines' + (top.length ? ', ' + top.length + ' sections' : ' (the report does not map its sections)') }));
    if (!top.length) {
      out.append(fold('python_code', false, () => listing(lines, 1, 0)));
      return out;
    }
    for (const s of top) {
      const children = sections.filter((x) => x.parent === s.kind);
      out.append(fold(el('span', {}, el('span', { class: 'ps-section-title', text: str(s.title) }),
        el('span', { class: 'ps-note', text: ' lines ' + s.start + '–' + s.end })), false, () => {
        const body = el('div', {});
        if (children.length) {
          body.append(el('ul', { class: 'ps-outline' }, children.map((ch) =>
            el('li', {}, str(ch.title) + ' (lines ' + ch.start + '–' + ch.end + ')'))));
        }
        body.append(listing(lines.slice(s.start - 1, s.end), s.start, 0));
        return body;
      }, 'ps-code-section'));
    }
    return out;
  }

  // The graph panel (graph.js, PsGraph). Returns the promise of its drawing, or null.
  function graphPanel(graph, marks, nodeCount, pending) {
    const box = el('div', { class: 'ps-graph-box' });
    if (!graph) {
      box.append(el('p', { class: 'ps-note', text: nodeCount
        ? 'The graph (' + nodeCount + ' nodes) is not drawn: this page was written without the graph panel.'
        : 'No graph was captured.' }));
      return box;
    }
    if (typeof window.PsGraph === 'undefined' || typeof window.PsGraph.create !== 'function') {
      throw new Error('the graph panel (graph.js) is missing from this page');
    }
    const container = el('div', { class: 'ps-graph-container' });
    box.append(container);
    pending.push(() => window.PsGraph.create(container, marks ? { graph, marks } : { graph }).then((panel) => {
      container.psPanel = panel;
      return panel;
    }));
    return box;
  }

  function capture(c, extra, index, pending) {
    const id = 'capture-' + index;
    const head = el('h2', { id: id + '-h' }, el('span', { text: str(c.name) || 'capture ' + (index + 1) }), ' ',
      badge(str(c.status)), el('span', { class: 'ps-note', text: ' ' + [c.backend, c.tracer].filter(Boolean).join(', ') }));
    const box = el('section', { id, class: 'ps-section ps-capture', 'aria-labelledby': id + '-h' }, head);
    const af = artifactFacts(c);
    if (af) box.append(af);
    const parts = [];
    const add = (title, cls, node) => {
      if (node) parts.push(el('div', { class: 'ps-part ' + cls }, el('h3', { text: title }), node));
    };
    add('Verification and accuracy', 'ps-part-verify', verification(c.verify, extra.graph, index));
    add('Graph', 'ps-part-graph', graphPanel(extra.graph, null, extra.graph_nodes, pending));
    add('python_code', 'ps-part-python', pythonCode(c, extra.python_code));
    add('Cache contents', 'ps-part-cache', cacheContents(c));
    add('Timings', 'ps-part-timings', timings(c));
    add('Compile profile', 'ps-part-profile', compileProfile(c));
    add('Kernel profile', 'ps-part-kernels', kernelProfile(c));
    box.append(...parts);
    return box;
  }

  // ---- the run page ------------------------------------------------------------------------

  function runPage(data) {
    const report = isObject(data.report) ? data.report : {};
    const verdict = isObject(data.verdict) ? data.verdict : {};
    const captures = Array.isArray(report.captures) ? report.captures.filter(isObject) : [];
    const extras = Array.isArray(data.captures) ? data.captures : [];
    scriptPath = str(report.script);
    scriptLines = typeof data.script_text === 'string' && data.script_text ? data.script_text.split('\n') : null;
    if (scriptLines && scriptLines.length > 1 && scriptLines[scriptLines.length - 1] === '') scriptLines.pop();
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
      ]));
    document.title = (baseName(report.script) || 'run') + ': ' + word + ' · Precompile Studio';

    // Every finding first, where a reader looks.
    const findings = [];
    if (isObject(report.violation)) findings.push(finding(report.violation, 'violation', 'script'));
    for (const w of Array.isArray(report.warnings) ? report.warnings.filter(isObject) : []) findings.push(finding(w, 'warning'));
    captures.forEach((c) => {
      const label = str(c.name);
      if (isObject(c.violation)) {
        findings.push(finding(c.violation, c.violation.status === 'error' || !c.violation.rule ? 'error' : 'violation', label + ' · capture'));
      }
      if (isObject(c.outcome) && str(c.outcome.where) !== 'capture' && !isObject(c.violation)) {
        findings.push(finding(c.outcome, c.outcome.status === 'error' || !c.outcome.rule ? 'error' : 'violation',
          label + (c.outcome.where ? ' · ' + c.outcome.where : '')));
      }
      for (const w of Array.isArray(c.warnings) ? c.warnings.filter(isObject) : []) findings.push(finding(w, 'warning', label));
    });

    const nav = el('nav', { class: 'ps-toc', 'aria-label': 'Sections' }, el('ul', {},
      el('li', {}, el('a', { href: '#findings', text: 'Violations and warnings (' + findings.length + ')' })),
      captures.map((c, i) => el('li', {}, el('a', { href: '#capture-' + i, text: str(c.name) || 'capture ' + (i + 1) }))),
      scriptLines ? el('li', {}, el('a', { href: '#script', text: 'Script' })) : null));

    const body = [header, nav,
      section('findings', 'Violations and warnings', findings.length ? findings
        : el('p', { class: 'ps-note', text: word === 'ok' ? 'None: every check passed.' : 'No violation or warning was reported.' }))];
    captures.forEach((c, i) => body.push(capture(c, isObject(extras[i]) ? extras[i] : {}, i, pending)));
    if (scriptLines) {
      body.push(section('script', 'Script', fold(baseName(report.script) + ' (' + scriptLines.length + ' lines)', false,
        () => listing(scriptLines, 1, 0))));
    }
    if (isObject(report.log) && typeof report.log.text === 'string' && report.log.text) {
      body.push(section('log', 'Script output', fold('output', false, () => el('pre', { class: 'ps-text', text: report.log.text }))));
    }
    root.replaceChildren(...body);
    return pending;
  }

  // ---- the diff page -----------------------------------------------------------------------

  function diffPage(data) {
    const diff = isObject(data.diff) ? data.diff : {};
    const a = isObject(data.a) ? data.a : {};
    const b = isObject(data.b) ? data.b : {};
    const pending = [];
    sideLabel.a = str(a.label);
    sideLabel.b = str(b.label);
    const word = data.equivalent ? 'equivalent' : 'differ';
    const side = (s) => el('span', {}, el('strong', { text: str(s.label) }), ' ', str(baseName(s.script)), ' ',
      badge(isObject(s.verdict) ? str(s.verdict.word) : 'error'));
    document.title = str(a.label) + ' vs ' + str(b.label) + ': ' + word + ' · Precompile Studio';
    const header = el('header', { class: 'ps-header' },
      el('h1', {}, side(a), el('span', { class: 'ps-vs', text: ' vs ' }), side(b)),
      el('p', { class: 'ps-verdict', id: 'ps-verdict' },
        badge(word, 'ps-verdict-word'), ' ',
        el('span', { class: 'ps-message', text: data.equivalent ? 'the artifacts are equivalent' : 'the artifacts differ' })),
      facts([['exit code', String(data.exit_code)]]));
    const why = Array.isArray(diff.why) ? diff.why : [];
    const body = [header,
      section('causes', 'Why they differ', why.length ? el('ol', { class: 'ps-causes' }, why.map((w) => el('li', { text: str(w) })))
        : el('p', { class: 'ps-note', text: data.equivalent ? 'They do not: same captures, graphs, python_code and cache.' : 'No first cause was found.' }),
      Array.isArray(diff.script) && diff.script.length ? el('p', { text: 'Script: ' + diff.script.join('; ') }) : null,
      Array.isArray(diff.provenance) && diff.provenance.length ? changes('Provenance', diff.provenance) : null)];
    const captures = Array.isArray(diff.captures) ? diff.captures.filter(isObject) : [];
    const extras = Array.isArray(data.captures) ? data.captures : [];
    captures.forEach((c, i) => body.push(diffCapture(c, isObject(extras[i]) ? extras[i] : {}, i, pending)));
    body.push(section('words', 'As `library diff` says it', el('pre', { class: 'ps-text', text: str(data.text) })));
    root.replaceChildren(...body);
    return pending;
  }

  function changes(title, list) {
    return el('div', {}, el('h3', { text: title }), table(['what', 'before', 'after'],
      list.filter(isObject).map((d) => [str(d.what), el('code', { text: str(d.before) }), el('code', { text: str(d.after) })])));
  }

  const sideLabel = { a: '', b: '' };

  function diffCapture(c, extra, index, pending) {
    const id = 'capture-' + index;
    const status = isObject(c.status) ? c.status : {};
    const box = el('section', { id, class: 'ps-section ps-capture', 'aria-labelledby': id + '-h' },
      el('h2', { id: id + '-h' }, el('span', { text: str(c.name) }), ' ',
        badge(c.equivalent ? 'equivalent' : 'differs'), el('span', { class: 'ps-note',
          text: ' a ' + str(status.a || '—') + ', b ' + str(status.b || '—') })));
    const g = isObject(c.graph) ? c.graph : {};
    const counts = ['matched', 'added', 'removed', 'changed'].map((k) => [k, typeof g[k] === 'number' ? g[k] : null]);
    box.append(el('h3', { text: 'Graph' }), facts([['nodes', g.nodes_a !== undefined ? g.nodes_a + ' → ' + g.nodes_b : null]]
      .concat(counts.map(([k, n]) => [k, n === null ? null : String(n)]))));
    if (Array.isArray(g.blocks) && g.blocks.length) {
      box.append(table(['', 'nodes', 'module', 'ops'], g.blocks.filter(isObject).map((bl) =>
        [str(bl.kind), String(bl.count), el('code', { text: str(bl.module) }), str(bl.ops)])));
    }
    if (Array.isArray(g.changed_nodes) && g.changed_nodes.length) {
      box.append(fold('Changed nodes (' + g.changed + ')', g.changed_nodes.length <= 10, () =>
        table(['a', 'b', 'op', 'what changed'], g.changed_nodes.filter(isObject).map((n) =>
          [el('code', { text: str(n.a) }), el('code', { text: str(n.b) }), str(n.target),
            (Array.isArray(n.fields) ? n.fields : []).filter(isObject).map((f) => f.field + ': ' + f.before + ' → ' + f.after).join('; ')]))));
    }
    const graphs = el('div', { class: 'ps-graph-pair' });
    graphs.append(el('div', {}, el('h4', { text: 'a: ' + str(sideLabel.a) + ' (removed and changed nodes marked)' }),
        graphPanel(extra.graph_a, extra.marks_a || {}, 0, pending)),
      el('div', {}, el('h4', { text: 'b: ' + str(sideLabel.b) + ' (added and changed nodes marked)' }),
        graphPanel(extra.graph_b, extra.marks_b || {}, 0, pending)));
    box.append(graphs);
    const code = isObject(c.python_code) ? c.python_code : {};
    const sections = Array.isArray(code.sections) ? code.sections.filter(isObject) : [];
    box.append(el('h3', { text: 'python_code' }));
    if (!sections.length) box.append(el('p', { class: 'ps-note', text: code.identical ? 'identical' : 'no section compared' }));
    const codeDiffs = Array.isArray(extra.code_sections) ? extra.code_sections : [];
    sections.forEach((s, k) => {
      const changed = s.status !== 'same';
      const rows = Array.isArray(codeDiffs[k]) ? codeDiffs[k] : null;
      box.append(fold(el('span', {}, el('span', { class: 'ps-section-title', text: str(s.title) }), ' ',
        el('span', { class: 'ps-change ps-change-' + str(s.status), text: str(s.status) }),
        changed ? el('span', { class: 'ps-note', text: ' +' + (s.added_lines || 0) + ' −' + (s.removed_lines || 0) }) : null),
      changed, () => {
        const pre = el('pre', { class: 'ps-code ps-diff' });
        if (rows) {
          // The section's line diff: both sides' line numbers, removed and added lines marked.
          for (const row of rows) {
            if (!Array.isArray(row)) continue;
            const [kind, lineA, lineB, line] = row;
            pre.append(el('span', { class: 'ps-line' + (kind === '+' ? ' ps-add' : kind === '-' ? ' ps-del' : kind === '…' ? ' ps-gap' : '') },
              el('span', { class: 'ps-ln', 'aria-hidden': 'true', text: lineA === null || lineA === undefined ? '' : String(lineA) }),
              el('span', { class: 'ps-ln', 'aria-hidden': 'true', text: lineB === null || lineB === undefined ? '' : String(lineB) }),
              kind === '…' ? '…' : str(kind) + ' ' + str(line)));
          }
          return pre;
        }
        for (const line of Array.isArray(s.preview) ? s.preview : []) {
          const t = str(line);
          pre.append(el('span', { class: t.startsWith('+') ? 'ps-add' : t.startsWith('-') ? 'ps-del' : '' , text: t + '\n' }));
        }
        if (!pre.childNodes.length) pre.append(changed ? '(no line preview)' : '(unchanged)');
        return pre;
      }, 'ps-code-section'));
    });
    if (Array.isArray(code.metadata) && code.metadata.length) {
      box.append(table(['metadata', 'a', 'b'], code.metadata.filter(isObject).map((m) =>
        [el('code', { text: str(m.name) }), el('code', { text: str(m.before) }), el('code', { text: str(m.after) })])));
    }
    for (const [title, key] of [['Cache', 'cache'], ['Inputs', 'inputs'], ['Options', 'options']]) {
      if (Array.isArray(c[key]) && c[key].length) box.append(changes(title, c[key]));
    }
    return box;
  }

  // ---- start -------------------------------------------------------------------------------

  async function decode() {
    const holder = document.getElementById('ps-data');
    if (!holder) throw new Error('the page holds no data (#ps-data)');
    const binary = atob(holder.textContent.replace(/\s+/g, ''));
    const bytesOf = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytesOf[i] = binary.charCodeAt(i);
    const stream = new Blob([bytesOf]).stream().pipeThrough(new DecompressionStream('gzip'));
    return JSON.parse(await new Response(stream).text());
  }

  function fail(error) {
    const message = error && error.message ? error.message : String(error);
    root.replaceChildren(el('div', { class: 'ps-failure', role: 'alert' },
      el('h1', { text: 'This report could not be shown' }), el('p', { text: message })));
    console.error('Precompile Studio report: ' + message);
  }

  async function start() {
    const data = await decode();
    const pending = data.kind === 'diff' ? diffPage(data) : runPage(data);
    // Graphs draw one after another: each lays out in the engine, which is one instance.
    for (const draw of pending) await draw();
    document.body.dataset.ready = '1';
  }

  start().catch(fail);
})();
