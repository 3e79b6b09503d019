// The HTML report's sections of one capture (see report.js): artifacts, verification, timings,
// profiles, cache, python_code and the graph panel, for the run page and the diff page. Registers
// onto window.PsReportParts; the page loads report-base.js, report-capture.js, report-diff.js,
// report.js in that order.
(function () {
  'use strict';

  const parts = (window.PsReportParts = window.PsReportParts || {});
  const {
    el, isObject, str, num, seconds, micros, bytes, tone, badge, table, facts, fold, listing,
  } = parts;

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

  function verification(v, extra, captureIndex) {
    const pageGraph = extra.graph;
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
    const resized = isObject(v.resized) && Array.isArray(v.resized.trials) ? v.resized.trials.filter(isObject) : [];
    if (resized.length) {
      out.append(fold('Marked dims at other sizes (' + resized.length + ' trials)', v.resized.diverged === true, () =>
        table(['trial', 'sizes', 'result', 'note'],
          resized.map((t) => [str(t.kind), str(t.sizes), badge(str(t.status)), str(t.note || t.reason)]))));
    }
    // What was skipped and how to run every check: the engine's words (Verification::skippedChecks).
    const skipped = isObject(extra.skipped) && Array.isArray(extra.skipped.checks) ? extra.skipped.checks.map(str) : [];
    if (skipped.length) {
      out.append(el('p', { class: 'ps-note', text: 'Skipped: ' + skipped.join(', ') + ' (' + str(extra.skipped.how) + ')' }));
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

  // The compile phases (model::CompilePhase), each in the window's colour for it
  // (CompileProfileBar::colour; report.css, .ps-phase-*): a word not among them is "other", as there.
  const PHASES = ['tracing', 'aot_autograd', 'inductor_lowering', 'code_generation', 'cache', 'imports', 'studio', 'other'];
  const phaseClass = (p) => 'ps-phase-' + (PHASES.includes(p.phase) ? p.phase : 'other');

  function compileProfile(c) {
    const phases = Array.isArray(c.compile_profile) ? c.compile_profile
      : isObject(c.compile_profile) && Array.isArray(c.compile_profile.phases) ? c.compile_profile.phases : [];
    const list = phases.filter((p) => isObject(p) && typeof p.seconds === 'number');
    if (!list.length) return null;
    const total = list.reduce((s, p) => s + p.seconds, 0) || 1;
    const bar = el('div', { class: 'ps-bar', role: 'img', 'aria-label': 'precompile time by phase' },
      list.map((p) => el('span', { class: 'ps-bar-part ' + phaseClass(p), title: p.phase + ' ' + seconds(p.seconds),
        style: 'width:' + (100 * p.seconds / total).toFixed(2) + '%' })));
    return el('div', {}, bar, table(['phase', 'time', 'share'], list.map((p) =>
      [el('span', {}, el('span', { class: 'ps-swatch ' + phaseClass(p) }), str(p.phase)), seconds(p.seconds),
        (100 * p.seconds / total).toFixed(1) + ' %'])));
  }

  // The cold-start ledger (run --cold-start; model::ColdStart, ColdStartBars in the window): one
  // bar per step on one scale, the precompiled pair's steps in the window's colours (.ps-start-*).
  const START_STEPS = {
    eager: 'eager', compile_cold: 'torch.compile, cold cache', compile_warm: 'torch.compile, warm cache',
    precompiled: 'precompiled, with its cache', precompiled_no_cache: 'precompiled, without its cache',
  };

  function coldStart(c) {
    const cs = c.cold_start;
    if (!isObject(cs)) return null;
    if (cs.ran !== true) return el('p', { class: 'ps-note', text: 'Cold start: ' + str(cs.reason || cs.message) });
    const steps = (Array.isArray(cs.steps) ? cs.steps : []).filter((s) => isObject(s) && START_STEPS[s.step]);
    const longest = steps.reduce((m, s) => Math.max(m, typeof s.first_call_s === 'number' ? s.first_call_s : 0), 0) || 1;
    const rows = steps.map((s) => {
      const t = typeof s.first_call_s === 'number' && s.first_call_s >= 0 ? s.first_call_s : null;
      const note = isObject(s.error) ? 'failed: ' + str(s.error.message)
        : typeof s.kernels_compiled === 'number' && s.kernels_compiled > 0 ? s.kernels_compiled + ' kernel' + (s.kernels_compiled === 1 ? '' : 's') + ' compiled' : '';
      const bar = el('div', { class: 'ps-start-track' }, t === null ? null
        : el('span', { class: 'ps-start-bar ps-start-' + s.step, style: 'width:' + Math.max(0.5, 100 * t / longest).toFixed(2) + '%' }));
      return [START_STEPS[s.step], bar, t === null ? '–' : seconds(t), note];
    });
    const head = 'Each in a fresh process: ' + str(cs.message)
      + (typeof cs.import_s === 'number' ? ' (import torch ' + seconds(cs.import_s) + ' apart)' : '');
    return el('div', {}, el('p', { text: head }), table(['step', '', 'first call', ''], rows, 'ps-cold-start'));
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

  // The engine's cache facts (model::CacheInfo, PageData::cacheOf): the window's words.
  function cacheContents(extra) {
    const cache = extra.cache;
    if (!isObject(cache)) return null;
    if (typeof cache.absent === 'string') return el('p', { class: 'ps-note', text: cache.absent });
    const list = Array.isArray(cache.facts) ? cache.facts.filter(isObject) : [];
    const out = el('div', {}, facts(list.map((f) => [str(f.label),
      f.tone ? el('span', { class: 'ps-tone-' + str(f.tone) }, str(f.text)) : str(f.text)])));
    const entries = Array.isArray(cache.entries) ? cache.entries.filter(isObject) : [];
    if (entries.length) {
      out.append(fold('Entries (' + entries.length + ')', entries.length <= 20, () => table(['kind', 'key', 'size'],
        entries.map((e) => [str(e.kind), el('code', { text: str(e.key) }), bytes(e.bytes)]))));
    }
    return out;
  }

  function pythonCode(c, code) {
    if (typeof code !== 'string') {
      return el('p', { class: 'ps-note', text: 'No python_code: ' + (tone(str(c.status)) === 'good' ? 'it was not kept with this run.' : 'the capture ended before precompile returned it.') });
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
    add('Verification and accuracy', 'ps-part-verify', verification(c.verify, extra, index));
    add('Graph', 'ps-part-graph', graphPanel(extra.graph, null, extra.graph_nodes, pending));
    add('python_code', 'ps-part-python', pythonCode(c, extra.python_code));
    add('Cache contents', 'ps-part-cache', cacheContents(extra));
    add('Timings', 'ps-part-timings', timings(c));
    add('Compile profile', 'ps-part-profile', compileProfile(c));
    add('Cold start', 'ps-part-cold-start', coldStart(c));
    add('Kernel profile', 'ps-part-kernels', kernelProfile(c));
    box.append(...parts);
    return box;
  }

  Object.assign(parts, {
    artifactFacts, groups, startsPhrase, nodeLink, verification, timings, compileProfile, coldStart,
    kernelProfile, cacheContents, pythonCode, graphPanel, capture,
  });
})();
