// The HTML report's graph panel: the studio's own graph engine (engine.wasm, engine/graph compiled
// to WebAssembly) lays out exactly what the window lays out, and this draws it as SVG. Our own
// code, no library. See docs/ARCHITECTURE.md, "The page's graph engine (WebAssembly)".
//
//   PsGraph.create(container, {graph, onSelect?, marks?}) -> Promise<panel>
// graph: what ps::share::PageGraph::toJson wrote for one capture; marks: {nodeName: "added" |
// "removed" | "changed"} (the diff page). panel: expand(path), collapse(path), expandAll(),
// collapseAll(), search(text) -> matches, select(nodeName), setPhase("forward"|"backward"),
// setLens(name|null), destroy(). container.dataset.ready is "1" once drawn and after each
// relayout. The engine is read from <script type="application/octet-stream" id="ps-engine">
// (base64).
(function () {
  'use strict';

  const SVG = 'http://www.w3.org/2000/svg';
  // Past this many items only what is in view (and a margin) is in the DOM: 10k SVG groups take
  // about 2 s to a first frame (docs/research/share.md), what a screen shows takes milliseconds.
  const DRAW_ALL_UP_TO = 1500;
  const MIN_ZOOM = 0.02;
  const MAX_ZOOM = 4;

  let compiled = null;

  function engineModule() {
    if (!compiled) {
      const tag = document.getElementById('ps-engine');
      if (!tag) return Promise.reject(new Error('the graph engine (script#ps-engine) is missing from this page'));
      const text = atob(tag.textContent.replace(/\s+/g, ''));
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      compiled = WebAssembly.compile(bytes);
    }
    return compiled;
  }

  // One engine instance per panel (the engine keeps one graph).
  async function instantiate() {
    const module = await engineModule();
    const imports = {};
    for (const imp of WebAssembly.Module.imports(module)) {
      if (imp.kind !== 'function') continue;
      (imports[imp.module] = imports[imp.module] || {})[imp.name] = () => {
        throw new Error('the graph engine called ' + imp.module + '.' + imp.name + ', which a page does not have');
      };
    }
    const instance = await WebAssembly.instantiate(module, imports);
    const x = instance.exports;
    if (x._initialize) x._initialize();
    const text = () => new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.ps_text(), x.ps_text_size()));
    return {
      open(graphSection) {
        const bytes = new TextEncoder().encode(JSON.stringify(graphSection));
        const p = x.ps_alloc(bytes.length);
        new Uint8Array(x.memory.buffer, p, bytes.length).set(bytes);
        const n = x.ps_open(p, bytes.length);
        x.ps_free(p);
        if (n < 0) throw new Error('the graph engine could not open the graph: ' + text());
        return JSON.parse(text());
      },
      expand: (m) => x.ps_expand(m),
      collapse: (m) => x.ps_collapse(m),
      expandAll: () => x.ps_expand_all(),
      collapseAll: () => x.ps_collapse_all(),
      reveal: (node) => x.ps_reveal(node) === 1,
      expanded: (m) => x.ps_expanded(m) === 1,
      layout() {
        x.ps_layout();
        return new Float64Array(x.memory.buffer, x.ps_layout_data(), x.ps_layout_size()).slice();
      },
    };
  }

  // The flat layout (EngineEntry.cpp's writeLayout) as objects.
  function readLayout(a) {
    let i = 0;
    const next = () => a[i++];
    const n = next();
    const out = { width: next(), height: next(), layers: next(), items: [], edges: [], routes: [], regions: [], raw: a };
    for (let k = 0; k < n; k++) {
      out.items.push({ kind: next() === 1 ? 'module' : 'node', id: next(), x: next(), y: next(), w: next(), h: next() });
    }
    for (let k = next(); k > 0; k--) out.edges.push({ from: next(), to: next(), count: next() });
    for (let k = next(); k > 0; k--) {
      const r = { from: next(), to: next(), points: [] };
      for (let p = next(); p > 0; p--) r.points.push([next(), next()]);
      out.routes.push(r);
    }
    for (let k = next(); k > 0; k--) out.regions.push({ module: next(), x: next(), y: next(), w: next(), h: next() });
    return out;
  }

  function el(name, attrs, text) {
    const e = document.createElementNS(SVG, name);
    if (attrs) for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function html(name, attrs, ...kids) {
    const e = document.createElement(name);
    if (attrs) {
      for (const k in attrs) {
        if (k === 'text') e.textContent = attrs[k];
        else e.setAttribute(k, attrs[k]);
      }
    }
    for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
    return e;
  }

  function clip(text, width, px) {
    const max = Math.max(3, Math.floor((width - 14) / px));
    return text.length > max ? text.slice(0, max - 1) + '…' : text;
  }

  function shortTarget(node) {
    const t = String(node.target || '');
    const m = /^aten\.([^.]+)\.[^.]+$/.exec(t) || /^aten\.([^.]+)$/.exec(t);
    if (m) return m[1];
    if (node.op === 'placeholder') return node.kind === 'input' || !node.kind ? 'input' : node.kind;
    if (node.op === 'output') return 'output';
    return t.replace(/^operator\./, '') || node.op || '?';
  }

  function listText(v) {
    return Array.isArray(v) ? '[' + v.join(', ') + ']' : v === null || v === undefined ? '' : String(v);
  }

  // The lens colour ramp, low to high (dark blue, teal, yellow, red).
  const RAMP = [[49, 54, 149], [53, 151, 143], [240, 200, 40], [215, 48, 39]];
  function rampColour(t) {
    t = Math.min(1, Math.max(0, t)) * (RAMP.length - 1);
    const i = Math.min(RAMP.length - 2, Math.floor(t));
    const f = t - i;
    const c = RAMP[i].map((v, k) => Math.round(v + (RAMP[i + 1][k] - v) * f));
    return 'rgb(' + c.join(',') + ')';
  }
  // MeasuredLens::position: logarithmic between the smallest positive value shown and the largest.
  function rampPosition(value, low, high) {
    if (!isFinite(value) || !(high > 0)) return 0;
    low = low > 0 ? low : Math.min(high, 1e-9 * high);
    if (value <= low || high <= low) return value >= high && high > 0 && value > 0 ? 1 : 0;
    return Math.min(1, Math.max(0, Math.log(value / low) / Math.log(high / low)));
  }

  async function create(container, options) {
    const data = options && options.graph;
    if (!data || !data.graph) throw new Error('PsGraph.create: no graph given');
    container.dataset.ready = '0';
    const marks = (options && options.marks) || {};
    const onSelect = options && typeof options.onSelect === 'function' ? options.onSelect : null;
    const engine = await instantiate();
    const tree = engine.open(data.graph);
    const nodes = (data.graph.node_list || []).slice();
    const modules = tree.modules;
    const moduleByPath = new Map(modules.map((m, i) => [m.path, i]));
    const nodeByName = new Map(tree.names.map((n, i) => [n, i]));
    // The engine's node i is the node_list entry of that name (entries it could not read are
    // left out by both).
    const listed = new Map();
    for (const n of nodes) if (n && typeof n === 'object' && !listed.has(n.name)) listed.set(n.name, n);
    const nodeJson = tree.names.map((name) => listed.get(name) || { name });
    const frames = data.graph.frames || [];
    const kernels = data.kernels || {};
    const lenses = (data.lenses || []).map((l) => ({
      name: l.name,
      unit: l.unit,
      nodes: new Map(l.nodes.map((e) => [e[0], { value: e[1], text: e[2] }])),
      modules: new Map(l.modules.map((e) => [e[0], { value: e[1], text: e[2] }])),
      leaves: new Set(l.leaves),
      kernels: new Map(l.kernels),
    }));
    // Which modules hold a diff mark somewhere below them.
    const markedModules = new Map();
    for (const name in marks) {
      const i = nodeByName.get(name);
      if (i === undefined) continue;
      for (let m = tree.moduleOf[i]; m > 0; m = modules[m].parent) markedModules.set(m, true);
    }

    // ---- the DOM ----
    container.classList.add('ps-graph-panel');
    container.textContent = '';
    const toolbar = html('div', { class: 'ps-graph-toolbar' });
    const search = html('input', { class: 'ps-graph-search', type: 'search', placeholder: 'Search nodes (Enter: next)', 'aria-label': 'Search nodes' });
    const searchCount = html('span', { class: 'ps-graph-count' });
    toolbar.append(search, searchCount);
    const button = (label, title, action, attrs) => {
      const b = html('button', Object.assign({ type: 'button', title, text: label }, attrs || {}));
      b.addEventListener('click', action);
      toolbar.append(b);
      return b;
    };
    const phaseButtons = {};
    if (tree.phased) {
      phaseButtons.forward = button('Forward', 'Show the forward pass', () => panel.setPhase('forward'), { 'data-phase': 'forward', 'aria-pressed': 'false' });
      phaseButtons.backward = button('Backward', 'Show the backward pass', () => panel.setPhase('backward'), { 'data-phase': 'backward', 'aria-pressed': 'false' });
    }
    let lensSelect = null;
    if (lenses.length) {
      lensSelect = html('select', { class: 'ps-graph-lens', 'aria-label': 'Lens' }, html('option', { value: '', text: 'No lens' }));
      for (const l of lenses) lensSelect.append(html('option', { value: l.name, text: 'Lens: ' + l.name }));
      lensSelect.addEventListener('change', () => panel.setLens(lensSelect.value || null));
      toolbar.append(lensSelect);
    }
    button('Expand all', 'Expand every module', () => panel.expandAll());
    button('Collapse all', 'Collapse every module', () => panel.collapseAll());
    button('Fit', 'Fit the graph to the view', () => { fit(); });
    const status = html('span', { class: 'ps-graph-status' });
    toolbar.append(status);

    const view = html('div', { class: 'ps-graph-view' });
    const svg = el('svg', { class: 'ps-graph', role: 'img', 'aria-label': 'Graph' });
    const defs = el('defs');
    const marker = el('marker', { id: 'ps-arrow-' + Math.random().toString(36).slice(2), viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' });
    marker.append(el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'ps-arrow' }));
    defs.append(marker);
    const viewport = el('g', { class: 'ps-viewport' });
    const edgeLayer = el('g', { class: 'ps-edges' });
    const boxLayer = el('g', { class: 'ps-boxes' });
    const frameLayer = el('g', { class: 'ps-frames' });
    viewport.append(edgeLayer, boxLayer, frameLayer);
    svg.append(defs, viewport);
    const legend = html('div', { class: 'ps-graph-legend', hidden: '' });
    view.append(svg, legend);
    const details = html('div', { class: 'ps-graph-details' }, html('p', { class: 'ps-note', text: 'Select a node to see its shapes, source line and kernel.' }));
    const body = html('div', { class: 'ps-graph-body' }, view, details);
    container.append(toolbar);
    if (data.error) container.append(html('p', { class: 'ps-graph-error', text: data.error }));
    container.append(body);

    // ---- state ----
    let layout = null;
    let drawn = new Map(); // key -> element: 'i<item>', 'e<route>', 'r<region>'
    let t = { x: 0, y: 0, k: 1 }; // screen = layout * k + (x, y)
    let selected = -1; // the selected node (not its item: items change with each layout)
    let lens = null;
    let phase = null;
    let matches = [];
    let matchSet = new Set();
    let matchModules = new Set();
    let matchAt = -1;
    let destroyed = false;
    let frameRequest = 0;

    function moduleTitle(m) {
      const mod = modules[m];
      const name = mod.role === 'phase' ? mod.name : mod.path.replace(/^(forward|backward):/, '') || mod.name;
      return mod.type ? name + ' · ' + mod.type : name;
    }

    // A collapsed module's box: its path below its (expanded) parent's, "conv1 · Conv2d", as the
    // frame around it already names the parent.
    function boxTitle(m) {
      const mod = modules[m];
      const parent = modules[mod.parent];
      if (mod.role !== 'model' || !parent || !parent.path || parent.role !== 'model') return moduleTitle(m);
      const name = mod.path.startsWith(parent.path + '.') ? mod.path.slice(parent.path.length + 1) : mod.name;
      return mod.type ? name + ' · ' + mod.type : name;
    }

    // A node's first line: its op, or for a parameter, buffer or input the name it has in the model.
    function nodeTitle(n) {
      if (n.op === 'placeholder' && n.qualname) return String(n.qualname).replace(/^model\./, '');
      return shortTarget(n);
    }

    function itemPhase(item) {
      return item.kind === 'node' ? tree.phaseOf[item.id] : modules[item.id].phase;
    }

    function lensValue(item) {
      if (!lens) return null;
      if (item.kind === 'node') return lens.nodes.get(item.id) || null;
      return lens.modules.get(modules[item.id].path) || null;
    }

    // The lens's ramp over what is shown (module totals run past the nodes', as in the window).
    let lensRange = { low: 0, high: 0 };
    function computeLensRange() {
      lensRange = { low: 0, high: 0 };
      if (!lens || !layout) return;
      let low = Infinity;
      let high = 0;
      for (const item of layout.items) {
        const v = lensValue(item);
        if (!v) continue;
        if (v.value > 0 && v.value < low) low = v.value;
        if (v.value > high) high = v.value;
      }
      lensRange = { low: isFinite(low) ? low : 0, high };
    }

    function classesOf(item) {
      const c = [item.kind === 'node' ? 'ps-node' : 'ps-module'];
      if (item.kind === 'node') {
        const name = tree.names[item.id];
        if (marks[name]) c.push('ps-mark-' + marks[name]);
        if (item.id === selected) c.push('ps-selected');
        if (matchSet.has(item.id)) c.push('ps-match');
        if (lens && lens.leaves.has(item.id)) c.push('ps-leaves-band');
      } else {
        if (markedModules.has(item.id)) c.push('ps-has-marks');
        if (matchModules.has(item.id)) c.push('ps-match');
      }
      if (phase && itemPhase(item) && itemPhase(item) !== phase) c.push('ps-other-phase');
      const v = lensValue(item);
      if (v) {
        // White text on the ramp's dark ends, black on its light middle (in either colour scheme).
        const at = rampPosition(v.value, lensRange.low, lensRange.high);
        c.push(at < 0.4 || at > 0.85 ? 'ps-on-dark' : 'ps-on-light');
      }
      return c.join(' ');
    }

    function drawItem(item, index) {
      const g = el('g', { class: classesOf(item), transform: 'translate(' + item.x + ',' + item.y + ')', 'data-item': String(index) });
      const rect = el('rect', { width: item.w, height: item.h, rx: item.kind === 'node' ? 5 : 8 });
      const v = lensValue(item);
      if (v) rect.setAttribute('style', 'fill:' + rampColour(rampPosition(v.value, lensRange.low, lensRange.high)));
      g.append(rect);
      if (item.kind === 'node') {
        const n = nodeJson[item.id];
        g.setAttribute('data-name', tree.names[item.id]);
        g.append(el('text', { class: 'ps-op', x: 8, y: 17 }, clip(nodeTitle(n) + (v ? '  ' + v.text : ''), item.w, 6.6)));
        g.append(el('text', { class: 'ps-shape', x: 8, y: 33 }, clip(listText(n.shape) + (n.dtype ? ' ' + n.dtype : ''), item.w, 6.1)));
        g.append(el('title', null, tree.names[item.id]));
      } else {
        const mod = modules[item.id];
        g.setAttribute('data-path', mod.path);
        g.append(el('text', { class: 'ps-title', x: 10, y: 17 }, clip('▸ ' + boxTitle(item.id), item.w, 6.8)));
        g.append(el('text', { class: 'ps-sub', x: 10, y: 33 }, clip(mod.total + ' nodes' + (v ? ' · ' + v.text : ''), item.w, 6.1)));
        g.append(el('title', null, (mod.path || 'root') + ': click to expand'));
      }
      return g;
    }

    function routePath(r) {
      const p = r.points;
      if (!p.length) {
        const a = layout.items[r.from];
        const b = layout.items[r.to];
        return 'M' + (a.x + a.w / 2) + ',' + (a.y + a.h) + 'L' + (b.x + b.w / 2) + ',' + b.y;
      }
      let d = 'M' + p[0][0] + ',' + p[0][1];
      for (let i = 1; i < p.length; i++) {
        const [x0, y0] = p[i - 1];
        const [x1, y1] = p[i];
        if (x0 === x1) d += 'L' + x1 + ',' + y1;
        else {
          const my = (y0 + y1) / 2;
          d += 'C' + x0 + ',' + my + ' ' + x1 + ',' + my + ' ' + x1 + ',' + y1;
        }
      }
      return d;
    }

    function drawRoute(r, counts) {
      const count = counts.get(r.from + ',' + r.to) || 1;
      const path = el('path', { class: 'ps-edge', d: routePath(r), 'marker-end': 'url(#' + marker.id + ')' });
      if (count > 1) path.setAttribute('style', 'stroke-width:' + Math.min(4, 1 + Math.log2(count)));
      return path;
    }

    function drawRegion(r) {
      const g = el('g', { class: 'ps-module-frame', 'data-path': modules[r.module].path });
      g.append(el('rect', { class: 'ps-frame', x: r.x, y: r.y, width: r.w, height: r.h, rx: 10 }));
      const title = el('g', { class: 'ps-frame-title', transform: 'translate(' + r.tx + ',' + (r.y - 16) + ')' });
      title.append(el('rect', { width: r.tw, height: 15, rx: 3 }));
      title.append(el('text', { x: 4, y: 11 }, r.label));
      title.append(el('title', null, (modules[r.module].path || 'root') + ': click to collapse'));
      g.append(title);
      return g;
    }

    // Bounding boxes per route and region, for drawing what is in view.
    let routeBoxes = [];
    let edgeCounts = new Map();
    // Frame titles sit on the frame's top edge, left; one that would cover another title (nested
    // frames sharing a top) moves right past it. Parents come first, so they keep the corner.
    function placeTitles() {
      const rows = new Map(); // top edge, rounded -> titles placed there
      for (const r of layout.regions) {
        const text = '▾ ' + moduleTitle(r.module);
        r.tw = Math.min(Math.max(40, r.w - 8), 14 + text.length * 6.4);
        r.label = clip(text, r.tw + 14, 6.4);
        r.tx = r.x + 4;
        const keys = [Math.floor(r.y / 16) - 1, Math.floor(r.y / 16), Math.floor(r.y / 16) + 1];
        for (let moved = true, tries = 0; moved && tries < 50; tries++) {
          moved = false;
          for (const k of keys) {
            for (const o of rows.get(k) || []) {
              if (Math.abs(o.y - r.y) < 16 && r.tx < o.tx + o.tw + 4 && o.tx < r.tx + r.tw + 4) {
                r.tx = o.tx + o.tw + 6;
                moved = true;
              }
            }
          }
        }
        const k = Math.floor(r.y / 16);
        if (!rows.has(k)) rows.set(k, []);
        rows.get(k).push(r);
      }
    }

    function indexLayout() {
      placeTitles();
      edgeCounts = new Map();
      for (const e of layout.edges) edgeCounts.set(e.from + ',' + e.to, e.count);
      routeBoxes = layout.routes.map((r) => {
        if (!r.points.length) {
          const a = layout.items[r.from];
          const b = layout.items[r.to];
          return [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x + a.w, b.x + b.w), Math.max(a.y + a.h, b.y + b.h)];
        }
        let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (const [x, y] of r.points) {
          x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
        }
        return [x0, y0, x1, y1];
      });
    }

    function viewRect() {
      const w = view.clientWidth || 800;
      const h = view.clientHeight || 600;
      const mx = w / t.k, my = h / t.k; // one screen of margin around what shows
      return [(-t.x) / t.k - mx, (-t.y) / t.k - my, (w - t.x) / t.k + mx, (h - t.y) / t.k + my];
    }

    // Puts in the DOM what should be there: everything for a small graph, else what is in view.
    function sync(full) {
      if (!layout) return;
      const all = layout.items.length <= DRAW_ALL_UP_TO;
      const [x0, y0, x1, y1] = viewRect();
      const inView = (a, b, c, d) => all || (c >= x0 && a <= x1 && d >= y0 && b <= y1);
      const want = new Set();
      const add = (key, make, layer) => {
        want.add(key);
        if (full || !drawn.has(key)) {
          const old = drawn.get(key);
          const e = make();
          if (old) old.replaceWith(e);
          else layer.append(e);
          drawn.set(key, e);
        }
      };
      layout.routes.forEach((r, i) => {
        const b = routeBoxes[i];
        if (inView(b[0], b[1], b[2], b[3])) add('e' + i, () => drawRoute(r, edgeCounts), edgeLayer);
      });
      layout.items.forEach((item, i) => {
        if (inView(item.x, item.y, item.x + item.w, item.y + item.h)) add('i' + i, () => drawItem(item, i), boxLayer);
      });
      layout.regions.forEach((r, i) => {
        if (inView(r.x, r.y - 16, Math.max(r.x + r.w, r.tx + r.tw), r.y + r.h)) add('r' + i, () => drawRegion(r), frameLayer);
      });
      for (const [key, e] of drawn) {
        if (!want.has(key)) {
          e.remove();
          drawn.delete(key);
        }
      }
    }

    function apply() {
      viewport.setAttribute('transform', 'translate(' + t.x + ',' + t.y + ') scale(' + t.k + ')');
      if (layout && layout.items.length > DRAW_ALL_UP_TO && !frameRequest) {
        frameRequest = requestAnimationFrame(() => {
          frameRequest = 0;
          if (!destroyed) sync(false);
        });
      }
    }

    function fit() {
      if (!layout) return;
      const w = view.clientWidth || 800;
      const h = view.clientHeight || 600;
      const k = Math.max(MIN_ZOOM, Math.min(1, (w - 40) / Math.max(1, layout.width), (h - 40) / Math.max(1, layout.height)));
      t = { k, x: (w - layout.width * k) / 2, y: 20 };
      apply();
    }

    // The opening view: the graph's top, as wide as the view allows (never past 1:1, never so
    // small that the boxes' text cannot be read).
    function openView() {
      const w = view.clientWidth || 800;
      const k = Math.max(0.5, Math.min(1, (w - 40) / Math.max(1, layout.width)));
      t = { k, x: Math.max(20, (w - layout.width * k) / 2), y: 24 };
      apply();
    }

    function centreOn(x, y) {
      const w = view.clientWidth || 800;
      const h = view.clientHeight || 600;
      t.x = w / 2 - x * t.k;
      t.y = h / 2 - y * t.k;
      apply();
    }

    // Lays out the current state (or takes `given`, its numbers computed ahead); `anchor` (a
    // module id) keeps that module where it was on screen.
    function relayout(anchor, given) {
      container.dataset.ready = '0';
      let before = null;
      if (anchor !== undefined && layout) {
        before = boxOfModule(anchor);
        if (before) before = { sx: before.x * t.k + t.x, sy: before.y * t.k + t.y };
      }
      const started = performance.now();
      layout = readLayout(given ? Float64Array.from(given) : engine.layout());
      const ms = performance.now() - started;
      indexLayout();
      computeLensRange();
      if (before) {
        const after = boxOfModule(anchor);
        if (after) {
          t.x = before.sx - after.x * t.k;
          t.y = before.sy - after.y * t.k;
        }
      }
      for (const e of drawn.values()) e.remove();
      drawn = new Map();
      viewport.setAttribute('transform', 'translate(' + t.x + ',' + t.y + ') scale(' + t.k + ')');
      sync(true);
      status.textContent = layout.items.length + ' boxes of ' + tree.names.length + ' nodes · '
        + (given ? 'laid out when the report was written' : 'laid out in ' + Math.round(ms) + ' ms');
      container.dataset.ready = '1';
    }

    // Where a module shows: its box when collapsed, its frame when expanded.
    function boxOfModule(m) {
      for (const item of layout.items) if (item.kind === 'module' && item.id === m) return item;
      for (const r of layout.regions) if (r.module === m) return r;
      return null;
    }

    function itemOfNode(node) {
      return layout.items.findIndex((it) => it.kind === 'node' && it.id === node);
    }

    function refreshClasses() {
      for (const [key, e] of drawn) {
        if (key[0] !== 'i') continue;
        const i = Number(key.slice(1));
        e.setAttribute('class', classesOf(layout.items[i]));
      }
    }

    function moduleIdOf(path) {
      const m = moduleByPath.get(path);
      if (m === undefined || m === 0) throw new Error('no module ' + JSON.stringify(path) + ' in this graph');
      return m;
    }

    function row(label, value) {
      return value === '' || value === null || value === undefined ? null : html('tr', null, html('th', { text: label }), html('td', { text: String(value) }));
    }

    function showDetails(node) {
      const n = nodeJson[node];
      const name = tree.names[node];
      details.textContent = '';
      details.append(html('h4', { text: name }));
      const table = html('table');
      const rows = [
        row('op', n.op + (n.target && n.target !== name ? ': ' + n.target : '')),
        row('kind', n.kind),
        row('module', n.module ? n.module.path + (n.module.type ? ' · ' + n.module.type : '') : ''),
        row('phase', tree.phaseOf[node]),
        row('diff', marks[name]),
      ];
      const values = Array.isArray(n.values) && n.values.length ? n.values : [n];
      values.forEach((v, k) => {
        const suffix = values.length > 1 ? ' ' + k : '';
        rows.push(row('shape' + suffix, listText(v.shape)), row('dtype' + suffix, v.dtype), row('stride' + suffix, listText(v.stride)));
      });
      rows.push(row('device', n.device));
      rows.push(row('kernel', kernels[name]));
      for (const l of lenses) {
        const v = l.nodes.get(node);
        if (v) rows.push(row(l.name, v.text + (l.leaves.has(node) ? ' (leaves eager\u2019s band)' : '') + (l.kernels.get(node) ? ' · ' + l.kernels.get(node) : '')));
      }
      for (const r of rows) if (r) table.append(r);
      details.append(table);
      const src = n.source;
      if (src && src.file) {
        let code = '';
        for (const f of n.stack || []) {
          const fr = frames[f];
          if (fr && fr.file === src.file && fr.line === src.line) code = fr.code || '';
        }
        details.append(html('div', { class: 'ps-graph-source' }, html('code', { class: 'ps-source-line', text: src.file + ':' + src.line }), code ? html('pre', { text: code }) : null));
      }
      const stack = (n.stack || []).map((f) => frames[f]).filter(Boolean);
      if (stack.length) {
        const list = html('ol', { class: 'ps-graph-stack' });
        for (const fr of stack) list.append(html('li', { text: fr.file + ':' + fr.line + ' ' + (fr.function || '') + (fr.code ? ' — ' + fr.code : '') }));
        details.append(html('details', null, html('summary', { text: 'stack (' + stack.length + ' frames)' }), list));
      }
    }

    // ---- interaction ----
    let drag = null;
    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY, tx: t.x, ty: t.y, moved: false, id: ev.pointerId };
    });
    svg.addEventListener('pointermove', (ev) => {
      if (!drag) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) > 4) {
        drag.moved = true;
        svg.setPointerCapture(drag.id);
        svg.classList.add('ps-dragging');
      }
      if (drag.moved) {
        t.x = drag.tx + dx;
        t.y = drag.ty + dy;
        apply();
      }
    });
    const endDrag = () => {
      if (drag && drag.moved) svg.classList.remove('ps-dragging');
      setTimeout(() => { drag = null; }, 0);
    };
    svg.addEventListener('pointerup', endDrag);
    svg.addEventListener('pointercancel', endDrag);
    svg.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const r = svg.getBoundingClientRect();
      const px = ev.clientX - r.left, py = ev.clientY - r.top;
      const k = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, t.k * Math.exp(-ev.deltaY * 0.0015)));
      t.x = px - (px - t.x) * (k / t.k);
      t.y = py - (py - t.y) * (k / t.k);
      t.k = k;
      apply();
    }, { passive: false });
    svg.addEventListener('click', (ev) => {
      if (drag && drag.moved) return;
      const title = ev.target.closest('.ps-frame-title');
      if (title) {
        panel.collapse(title.parentNode.getAttribute('data-path'));
        return;
      }
      const g = ev.target.closest('g.ps-node, g.ps-module');
      if (!g) return;
      if (g.classList.contains('ps-module')) panel.expand(g.getAttribute('data-path'));
      else panel.select(g.getAttribute('data-name'));
    });
    search.addEventListener('input', () => panel.search(search.value));
    search.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Enter' || !matches.length) return;
      ev.preventDefault();
      matchAt = (matchAt + 1) % matches.length;
      panel.select(tree.names[matches[matchAt]]);
      searchCount.textContent = (matchAt + 1) + ' of ' + matches.length;
    });

    function showLegend() {
      legend.textContent = '';
      if (!lens) {
        legend.hidden = true;
        return;
      }
      legend.hidden = false;
      const fmt = (v) => {
        for (const e of lens.nodes.values()) if (e.value === v) return e.text;
        for (const e of lens.modules.values()) if (e.value === v) return e.text;
        return String(v);
      };
      const stops = [0, 1 / 3, 2 / 3, 1].map((s) => rampColour(s)).join(',');
      legend.append(html('span', { class: 'ps-legend-name', text: lens.name + ' (' + lens.unit + ')' }),
        html('span', { class: 'ps-legend-low', text: fmt(lensRange.low) }),
        html('span', { class: 'ps-legend-ramp', style: 'background:linear-gradient(to right,' + stops + ')' }),
        html('span', { class: 'ps-legend-high', text: fmt(lensRange.high) }));
      if (lens.leaves.size) legend.append(html('span', { class: 'ps-legend-leaves', text: 'framed: leaves eager\u2019s band' }));
    }

    const panel = {
      expand(path) {
        const m = moduleIdOf(path);
        engine.expand(m);
        relayout(m);
      },
      collapse(path) {
        const m = moduleIdOf(path);
        engine.collapse(m);
        relayout(m);
      },
      expandAll() {
        engine.expandAll();
        relayout();
      },
      collapseAll() {
        engine.collapseAll();
        relayout();
        fit();
      },
      search(text) {
        const q = String(text || '').trim().toLowerCase();
        if (search.value !== String(text || '')) search.value = String(text || '');
        matches = [];
        matchModules = new Set();
        if (q) {
          tree.names.forEach((name, i) => {
            const n = nodeJson[i];
            const hay = (name + ' ' + (n.target || '') + ' ' + (n.module ? n.module.path : '')).toLowerCase();
            if (hay.includes(q)) matches.push(i);
          });
        }
        matchSet = new Set(matches);
        for (const i of matches) for (let m = tree.moduleOf[i]; m > 0; m = modules[m].parent) matchModules.add(m);
        matchAt = -1;
        searchCount.textContent = q ? matches.length + (matches.length === 1 ? ' match' : ' matches') : '';
        refreshClasses();
        return matches.length;
      },
      select(name) {
        const node = nodeByName.get(name);
        if (node === undefined) throw new Error('no node ' + JSON.stringify(name) + ' in this graph');
        if (engine.reveal(node)) relayout();
        selected = node;
        const item = layout.items[itemOfNode(node)];
        centreOn(item.x + item.w / 2, item.y + item.h / 2);
        sync(false);
        refreshClasses();
        showDetails(node);
        if (onSelect) onSelect(name);
      },
      setPhase(p) {
        if (p !== 'forward' && p !== 'backward' && p !== null) throw new Error('no phase ' + JSON.stringify(p));
        phase = tree.phased ? p : null;
        for (const k in phaseButtons) phaseButtons[k].setAttribute('aria-pressed', String(k === phase));
        const group = phase ? moduleByPath.get(phase + ':') : undefined;
        const box = group !== undefined ? boxOfModule(group) : null;
        if (box) {
          const w = view.clientWidth || 800;
          t.x = w / 2 - (box.x + box.w / 2) * t.k;
          t.y = 24 - box.y * t.k;
          apply();
        }
        sync(false);
        refreshClasses();
      },
      setLens(name) {
        const next = name ? lenses.find((l) => l.name === name) : null;
        if (name && !next) throw new Error('no lens ' + JSON.stringify(name) + ' was measured for this graph');
        lens = next;
        if (lensSelect) lensSelect.value = lens ? lens.name : '';
        computeLensRange();
        sync(true);
        showLegend();
      },
      destroy() {
        destroyed = true;
        if (frameRequest) cancelAnimationFrame(frameRequest);
        container.textContent = '';
        delete container.dataset.ready;
      },
      // For tests and the bench: the current layout's flat numbers, as the engine gave them.
      layoutNumbers: () => Array.from(layout.raw),
      visibleItems: () => layout.items.length,
    };

    // The opening state PageGraph chose (CollapseState::initial with the window's budget).
    engine.collapseAll();
    for (const path of (data.opening && data.opening.expanded) || []) {
      const m = moduleByPath.get(path);
      if (m !== undefined && m > 0) engine.expand(m);
    }
    // Its layout was computed when the page was written (the same numbers the engine gives).
    const given = data.opening && Array.isArray(data.opening.layout) && data.opening.layout.length ? data.opening.layout : null;
    relayout(undefined, given);
    openView();
    sync(false);
    container.psGraph = panel;
    return panel;
  }

  window.PsGraph = { create };
})();
