// The HTML report's graph panel: the studio's own graph engine (engine.wasm, engine/graph compiled
// to WebAssembly) lays out exactly what the window lays out, and this draws it as SVG. Our own
// code, no library. See docs/design/html-report.md, "The page's graph engine (WebAssembly)".
//
//   PsGraph.create(container, {graph, onSelect?, marks?}) -> Promise<panel>
// graph: what ps::share::PageGraph::toJson wrote for one capture; marks: {nodeName: "added" |
// "removed" | "changed"} (the diff page). panel: expand(path), collapse(path), expandAll(),
// collapseAll(), search(text) -> matches, select(nodeName), setPhase("forward"|"backward"),
// setLens(name|null), destroy(); those that change what shows return a promise settled once
// everything is drawn (what is in view is drawn before they return). container.dataset.ready is
// "1" once drawn and after each relayout. The engine is read from
// <script type="application/octet-stream" id="ps-engine"> (base64).
//
// The page loads graph-engine.js (the wasm bridge, readLayout), graph-draw.js (element helpers,
// colour ramps, edges, frames, details, pan and zoom), then this file (the panel), all sharing
// window.PsGraphParts.
(function () {
  'use strict';

  const {
    MIN_ZOOM, instantiate, readLayout, html, rampColour, rampPosition, canvas, drawBox, drawRoute, framePieces, drawRegion, placeTitles,
    routeBoxes: boxesOf, showDetails: fillDetails, showLegend: fillLegend, wirePointer,
  } = window.PsGraphParts;

  // Past this many items only what is in view (and a margin) is in the DOM: 10k SVG groups take
  // about 2 s to a first frame (docs/research/share.md), what a screen shows takes milliseconds.
  const DRAW_ALL_UP_TO = 1500;
  // Past this many (and up to DRAW_ALL_UP_TO) what is in view is drawn at once and the rest in
  // slices of SLICE_MS after the frame: a training step's 600 boxes and 1300 routes take about
  // 200 ms to draw whole, what a screen shows a fraction of it (docs/design/layout-2.md).
  const DRAW_AT_ONCE = 250;
  const SLICE_MS = 12;

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
    const dynamic = data.dynamic || {};
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
    const { svg, marker, viewport, edgeLayer, boxLayer, frameLayer } = canvas();
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
    let fillTimer = 0; // the pending slice of drawing the rest (DRAW_AT_ONCE)
    let fillDone = null; // settles whole()'s promise once the rest is drawn
    let filled = Promise.resolve();

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
      const v = lensValue(item);
      const fill = v ? rampColour(rampPosition(v.value, lensRange.low, lensRange.high)) : null;
      return drawBox(item, index, classesOf(item), v, fill, { tree, nodeJson, modules });
    }

    const markerId = marker.id;

    // Bounding boxes per route and region, for drawing what is in view.
    let routeBoxes = [];
    let edgeCounts = new Map();
    function indexLayout() {
      framePieces(layout, tree, nodeJson, modules);
      placeTitles(layout.regions, modules);
      edgeCounts = new Map();
      for (const e of layout.edges) edgeCounts.set(e.from + ',' + e.to, e.count);
      routeBoxes = boxesOf(layout);
    }

    function viewRect() {
      const w = view.clientWidth || 800;
      const h = view.clientHeight || 600;
      const mx = w / t.k, my = h / t.k; // one screen of margin around what shows
      return [(-t.x) / t.k - mx, (-t.y) / t.k - my, (w - t.x) / t.k + mx, (h - t.y) / t.k + my];
    }

    // Every element of the layout as [key, bounds, make, layer], routes first (drawn under boxes).
    function pieces() {
      const out = [];
      layout.routes.forEach((r, i) => out.push(['e' + i, routeBoxes[i], () => drawRoute(r, edgeCounts, layout.items, markerId), edgeLayer]));
      layout.items.forEach((item, i) => out.push(['i' + i, [item.x, item.y, item.x + item.w, item.y + item.h], () => drawItem(item, i), boxLayer]));
      layout.regions.forEach((r, i) => out.push(['r' + i, [r.bounds[0], r.bounds[1] - 16, r.bounds[2], r.bounds[3]], () => drawRegion(r, modules), frameLayer]));
      return out;
    }

    // Puts in the DOM what should be there now: everything for a small graph, else what is in
    // view (`full`: redrawn, not kept). Up to DRAW_ALL_UP_TO items the rest follows in slices.
    function sync(full) {
      if (!layout) return;
      stopFill();
      const n = layout.items.length;
      const all = n <= DRAW_AT_ONCE;
      const [x0, y0, x1, y1] = viewRect();
      const want = new Set();
      const later = [];
      for (const piece of pieces()) {
        const [key, b, make, layer] = piece;
        if (!all && !(b[2] >= x0 && b[0] <= x1 && b[3] >= y0 && b[1] <= y1)) {
          if (n <= DRAW_ALL_UP_TO) later.push(piece);
          continue;
        }
        want.add(key);
        if (full || !drawn.has(key)) put(key, make, layer);
      }
      for (const [key, e] of drawn) {
        if (!want.has(key)) {
          e.remove();
          drawn.delete(key);
        }
      }
      if (later.length) fill(later);
      else settleFill();
    }

    function put(key, make, layer) {
      const old = drawn.get(key);
      const e = make();
      if (old) old.replaceWith(e);
      else layer.append(e);
      drawn.set(key, e);
    }

    // Draws `todo` (what sync left out of view) in slices after the frame that shows the view;
    // whole() settles when the last is in.
    function fill(todo) {
      if (!fillDone) filled = new Promise((resolve) => { fillDone = resolve; });
      let at = 0;
      const slice = () => {
        fillTimer = 0;
        if (destroyed) return;
        const end = performance.now() + SLICE_MS;
        while (at < todo.length && performance.now() < end) {
          for (const stop = Math.min(todo.length, at + 32); at < stop; at++) {
            const [key, , make, layer] = todo[at];
            if (!drawn.has(key)) put(key, make, layer);
          }
        }
        if (at < todo.length) fillTimer = setTimeout(slice, 0);
        else settleFill();
      };
      fillTimer = setTimeout(slice, 0);
    }

    function stopFill() {
      if (fillTimer) clearTimeout(fillTimer);
      fillTimer = 0;
    }

    function settleFill() {
      const done = fillDone;
      fillDone = null;
      if (done) done();
    }

    // Settles once everything sync wants in the DOM is there.
    function whole() {
      return fillTimer ? filled : Promise.resolve();
    }

    function apply() {
      viewport.setAttribute('transform', 'translate(' + t.x + ',' + t.y + ') scale(' + t.k + ')');
      // (While the rest is being drawn, what comes into view is drawn first.)
      if (layout && (layout.items.length > DRAW_ALL_UP_TO || fillTimer) && !frameRequest) {
        frameRequest = requestAnimationFrame(() => {
          frameRequest = 0;
          if (!destroyed) sync(false);
        });
      }
    }

    // The whole graph in the view, centred (never past 1:1); not smaller than `least`: then as
    // wide as the view allows, centred, its top in view (GraphCanvas::fitScene).
    function fit(least = MIN_ZOOM) {
      if (!layout) return;
      const w = view.clientWidth || 800;
      const h = view.clientHeight || 600;
      const whole = Math.min(1, (w - 40) / Math.max(1, layout.width), (h - 40) / Math.max(1, layout.height));
      if (whole >= least) {
        t = { k: whole, x: (w - layout.width * whole) / 2, y: (h - layout.height * whole) / 2 };
      } else {
        const k = Math.max(least, Math.min(1, (w - 40) / Math.max(1, layout.width)));
        t = { k, x: (w - layout.width * k) / 2, y: 24 };
      }
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
      return whole().then(() => {
        if (!destroyed) container.dataset.ready = '1';
      });
    }

    // Where a module shows: its box when collapsed, its frame (the first piece) when expanded.
    function boxOfModule(m) {
      for (const item of layout.items) if (item.kind === 'module' && item.id === m) return item;
      for (const r of layout.regions) if (r.module === m && r.pieces.length) return r.pieces[0];
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

    function showDetails(node) {
      fillDetails(details, { tree, nodeJson, marks, kernels, dynamic, lenses, frames }, node);
    }

    // ---- interaction ----
    wirePointer(svg, () => t, apply, {
      collapse: (path) => panel.collapse(path),
      expand: (path) => panel.expand(path),
      select: (name) => panel.select(name),
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
      fillLegend(legend, lens, lensRange);
    }

    const panel = {
      expand(path) {
        const m = moduleIdOf(path);
        engine.expand(m);
        return relayout(m);
      },
      collapse(path) {
        const m = moduleIdOf(path);
        engine.collapse(m);
        return relayout(m);
      },
      expandAll() {
        engine.expandAll();
        return relayout();
      },
      collapseAll() {
        engine.collapseAll();
        const done = relayout();
        fit();
        return done;
      },
      search(text) {
        const q = String(text || '').trim().toLowerCase();
        if (search.value !== String(text || '')) search.value = String(text || '');
        matches = [];
        matchModules = new Set();
        if (q) matches = engine.search(q);  // the engine's search (graph::GraphSearch), as the window's
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
        return whole();
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
        return whole();
      },
      setLens(name) {
        const next = name ? lenses.find((l) => l.name === name) : null;
        if (name && !next) throw new Error('no lens ' + JSON.stringify(name) + ' was measured for this graph');
        lens = next;
        if (lensSelect) lensSelect.value = lens ? lens.name : '';
        computeLensRange();
        sync(true);
        showLegend();
        return whole();
      },
      destroy() {
        destroyed = true;
        if (frameRequest) cancelAnimationFrame(frameRequest);
        stopFill();
        settleFill();
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
    // The opening view: the whole graph where its boxes' text can still be read, else its top
    // at the least zoom that can, centred.
    fit(0.5);
    sync(false);
    container.psGraph = panel;
    await whole();
    return panel;
  }

  window.PsGraph = { create };
})();
