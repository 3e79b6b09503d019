// The HTML report's diff page (see report.js): the comparison of two runs, capture by capture.
// Registers diffPage onto window.PsReportParts; the page loads report-base.js,
// report-capture.js, report-diff.js, report.js in that order.
(function () {
  'use strict';

  const parts = (window.PsReportParts = window.PsReportParts || {});
  const {
    root, el, isObject, str, baseName, badge, section, table, facts, fold, graphPanel,
  } = parts;

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

  Object.assign(parts, { diffPage });
})();
