// The graph panel's drawing pieces (see graph.js, which holds the panel's state and calls these):
// SVG and HTML element helpers, text clipping, the lens colour ramp, titles, edges and module
// frames, the details and legend boxes, and panning and zooming. Registers onto
// window.PsGraphParts; the page loads graph-engine.js, graph-draw.js, graph.js in that order.
(function () {
  'use strict';

  const parts = (window.PsGraphParts = window.PsGraphParts || {});

  const SVG = 'http://www.w3.org/2000/svg';
  const MIN_ZOOM = 0.02;
  const MAX_ZOOM = 4;

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

  function moduleTitle(modules, m) {
    const mod = modules[m];
    const name = mod.role === 'phase' ? mod.name : mod.path.replace(/^(forward|backward):/, '') || mod.name;
    return mod.type ? name + ' · ' + mod.type : name;
  }

  // A collapsed module's box: its path below its (expanded) parent's, "conv1 · Conv2d", as the
  // frame around it already names the parent.
  function boxTitle(modules, m) {
    const mod = modules[m];
    const parent = modules[mod.parent];
    if (mod.role !== 'model' || !parent || !parent.path || parent.role !== 'model') return moduleTitle(modules, m);
    const name = mod.path.startsWith(parent.path + '.') ? mod.path.slice(parent.path.length + 1) : mod.name;
    return mod.type ? name + ' · ' + mod.type : name;
  }

  // A node's first line: its op, or for a parameter, buffer or input the name it has in the model.
  function nodeTitle(n) {
    if (n.op === 'placeholder' && n.qualname) return String(n.qualname).replace(/^model\./, '');
    return shortTarget(n);
  }

  // The panel's SVG: an arrow marker, and a viewport holding the edge, box and frame layers.
  function canvas() {
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
    return { svg, marker, viewport, edgeLayer, boxLayer, frameLayer };
  }

  // An item's box: `v` its lens value (or null), `fill` the ramp's colour for it.
  function drawBox(item, index, className, v, fill, info) {
    const { tree, nodeJson, modules } = info;
    const g = el('g', { class: className, transform: 'translate(' + item.x + ',' + item.y + ')', 'data-item': String(index) });
    const rect = el('rect', { width: item.w, height: item.h, rx: item.kind === 'node' ? 5 : 8 });
    if (fill) rect.setAttribute('style', 'fill:' + fill);
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
      g.append(el('text', { class: 'ps-title', x: 10, y: 17 }, clip('▸ ' + boxTitle(modules, item.id), item.w, 6.8)));
      g.append(el('text', { class: 'ps-sub', x: 10, y: 33 }, clip(mod.total + ' nodes' + (v ? ' · ' + v.text : ''), item.w, 6.1)));
      g.append(el('title', null, (mod.path || 'root') + ': click to expand'));
    }
    return g;
  }

  function routePath(r, items) {
    const p = r.points;
    if (!p.length) {
      const a = items[r.from];
      const b = items[r.to];
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

  function drawRoute(r, counts, items, markerId) {
    const count = counts.get(r.from + ',' + r.to) || 1;
    const path = el('path', { class: 'ps-edge', d: routePath(r, items), 'marker-end': 'url(#' + markerId + ')' });
    if (count > 1) path.setAttribute('style', 'stroke-width:' + Math.min(4, 1 + Math.log2(count)));
    return path;
  }

  // Room around the boxes an expanded module holds (ModuleRegions::kMargin), and between a frame
  // and the frames nested in it.
  const FRAME_MARGIN = 6;
  const FRAME_NEST = 3;

  // One run of a frame's layers as one outline, down its right side and up its left: `rows` its
  // rows top to bottom ([x0, y0, x1, y1], the margin in), `gaps` the gap between each layer and
  // the next ([top, bottom, wide], its lines the same for every frame). In a layer the outline
  // keeps to the row; in a gap, where no box is, it keeps to where both rows are, or where either
  // is when `wide` (rows that do not meet, or a frame nested in this one wide there), so it never
  // crosses itself and a frame nested in this one, whose rows are inside these, stays inside it.
  // Corners only: a chain of boxes of one width is a rectangle of four points, however long.
  function outline(rows, gaps) {
    const last = rows.length - 1;
    const p = [[rows[0][0], rows[0][1]], [rows[0][2], rows[0][1]]];
    for (let k = 0; k < last; k++) {
      const [top, bottom, wide] = gaps[k];
      const x = (wide ? Math.max : Math.min)(rows[k][2], rows[k + 1][2]);
      p.push([rows[k][2], top], [x, top], [x, bottom], [rows[k + 1][2], bottom]);
    }
    p.push([rows[last][2], rows[last][3]], [rows[last][0], rows[last][3]]);
    for (let k = last; k > 0; k--) {
      const [top, bottom, wide] = gaps[k - 1];
      const x = (wide ? Math.min : Math.max)(rows[k][0], rows[k - 1][0]);
      p.push([rows[k][0], bottom], [x, bottom], [x, top], [rows[k - 1][0], top]);
    }
    const at = p.filter((q, i) => i === 0 || q[0] !== p[i - 1][0] || q[1] !== p[i - 1][1]);
    const corners = at.filter((q, i) => {
      const a = at[(i + at.length - 1) % at.length];
      const b = at[(i + 1) % at.length];
      return !(a[0] === q[0] && q[0] === b[0]) && !(a[1] === q[1] && q[1] === b[1]);
    });
    return 'M' + corners.map((q) => q[0] + ',' + q[1]).join('L') + 'Z';
  }

  // Each expanded module's frame, drawn closer than ModuleRegions' rectangle around all it holds
  // (which the window draws only zoomed out, and only where its header fits): the outline around
  // its boxes layer by layer, so that what is laid out beside them (a parameter or input, another
  // module's boxes between two calls of a reused one) stays outside, in one piece per run of
  // consecutive layers it has a box in (a module called twice is framed at each call),
  // FRAME_NEST clear of the frames nested in it. Sets each region's pieces ({d: the SVG path, x,
  // y, w, h: its bounds, left: its first row's left}, top to bottom) and bounds ([x0, y0, x1, y1]
  // of them all).
  function framePieces(layout, tree, nodeJson, modules) {
    const tops = Array.from(new Set(layout.items.map((it) => it.y))).sort((a, b) => a - b);
    const rowOf = new Map(tops.map((y, i) => [y, i]));
    const bottoms = tops.map(() => -Infinity);
    for (const it of layout.items) bottoms[rowOf.get(it.y)] = Math.max(bottoms[rowOf.get(it.y)], it.y + it.h);
    const framed = new Set(layout.regions.map((r) => r.module));
    const rows = new Map(); // module -> row -> [x0, y0, x1, y1], the margin in
    const wide = new Map(); // module -> the rows below which its outline spans both rows (outline)
    const grow = (m, row, x0, y0, x1, y1) => {
      if (!rows.has(m)) rows.set(m, new Map());
      const b = rows.get(m).get(row);
      if (b) rows.get(m).set(row, [Math.min(b[0], x0), Math.min(b[1], y0), Math.max(b[2], x1), Math.max(b[3], y1)]);
      else rows.get(m).set(row, [x0, y0, x1, y1]);
    };
    // Each box to the innermost frame above it, its placeholders (laid out at the top) to none.
    for (const it of layout.items) {
      if (it.kind === 'node' && nodeJson[it.id].op === 'placeholder') continue;
      const m = it.kind === 'node' ? tree.moduleOf[it.id] : modules[it.id].parent;
      if (framed.has(m)) grow(m, rowOf.get(it.y), it.x - FRAME_MARGIN, it.y - FRAME_MARGIN, it.x + it.w + FRAME_MARGIN, it.y + it.h + FRAME_MARGIN);
    }
    // Innermost first (the regions come parents first): each frame into its parent's.
    for (let k = layout.regions.length - 1; k >= 0; k--) {
      const r = layout.regions[k];
      const own = Array.from(rows.get(r.module) || []).sort((a, b) => a[0] - b[0]);
      const parent = modules[r.module].parent;
      const wideBelow = wide.get(r.module) || new Set();
      own.forEach(([row, b], i) => {
        const next = own[i + 1];
        if (next && next[0] === row + 1 && (next[1][0] >= b[2] || b[0] >= next[1][2])) wideBelow.add(row);
      });
      if (framed.has(parent)) {
        const n = FRAME_NEST;
        for (const [row, b] of own) grow(parent, row, b[0] - n, b[1] - n, b[2] + n, b[3] + n);
        // The parent spans both rows where this one is wide, and where a piece of this one starts
        // or ends (its top and bottom edges are in the gap, FRAME_NEST further out than its rows).
        if (!wide.has(parent)) wide.set(parent, new Set());
        const parentWide = wide.get(parent);
        for (const row of wideBelow) parentWide.add(row);
        own.forEach(([row], i) => {
          if (i === 0 || own[i - 1][0] !== row - 1) parentWide.add(row - 1);
          if (i === own.length - 1 || own[i + 1][0] !== row + 1) parentWide.add(row);
        });
      }
      r.pieces = [];
      r.bounds = [Infinity, Infinity, -Infinity, -Infinity];
      for (let i = 0; i < own.length;) {
        let j = i + 1;
        while (j < own.length && own[j][0] === own[j - 1][0] + 1) j++;
        const run = own.slice(i, j).map((e) => e[1]);
        const gaps = own.slice(i, j - 1).map((e) => [bottoms[e[0]] + FRAME_MARGIN, tops[e[0] + 1] - FRAME_MARGIN, wideBelow.has(e[0])]);
        let x0 = Infinity, x1 = -Infinity;
        for (const b of run) {
          x0 = Math.min(x0, b[0]);
          x1 = Math.max(x1, b[2]);
        }
        const y0 = run[0][1], y1 = run[run.length - 1][3];
        r.pieces.push({ d: outline(run, gaps), x: x0, y: y0, w: x1 - x0, h: y1 - y0, left: run[0][0] });
        r.bounds = [Math.min(r.bounds[0], x0), Math.min(r.bounds[1], y0), Math.max(r.bounds[2], x1), Math.max(r.bounds[3], y1)];
        i = j;
      }
    }
  }

  function drawRegion(r, modules) {
    const g = el('g', { class: 'ps-module-frame', 'data-path': modules[r.module].path });
    for (const p of r.pieces) {
      g.append(el('path', { class: 'ps-frame', d: p.d }));
      const title = el('g', { class: 'ps-frame-title', transform: 'translate(' + p.tx + ',' + (p.y - 16) + ')' });
      title.append(el('rect', { width: p.tw, height: 15, rx: 3 }));
      title.append(el('text', { x: 4, y: 11 }, p.label));
      title.append(el('title', null, (modules[r.module].path || 'root') + ': click to collapse'));
      g.append(title);
    }
    return g;
  }

  // Frame titles sit on each piece's top edge, left; one that would cover another title (nested
  // frames sharing a top) moves right past it. Parents come first, so they keep the corner.
  function placeTitles(regions, modules) {
    const rows = new Map(); // top edge, rounded -> titles placed there
    for (const r of regions) {
      const text = '▾ ' + moduleTitle(modules, r.module);
      for (const p of r.pieces) {
        p.tx = p.left + 4;
        p.tw = Math.min(Math.max(40, p.x + p.w - p.tx - 4), 14 + text.length * 6.4);
        p.label = clip(text, p.tw + 14, 6.4);
        const keys = [Math.floor(p.y / 16) - 1, Math.floor(p.y / 16), Math.floor(p.y / 16) + 1];
        for (let moved = true, tries = 0; moved && tries < 50; tries++) {
          moved = false;
          for (const k of keys) {
            for (const o of rows.get(k) || []) {
              if (Math.abs(o.y - p.y) < 16 && p.tx < o.tx + o.tw + 4 && o.tx < p.tx + p.tw + 4) {
                p.tx = o.tx + o.tw + 6;
                moved = true;
              }
            }
          }
        }
        const k = Math.floor(p.y / 16);
        if (!rows.has(k)) rows.set(k, []);
        rows.get(k).push(p);
        r.bounds[2] = Math.max(r.bounds[2], p.tx + p.tw);
      }
    }
  }

  // Bounding boxes per route, for drawing what is in view.
  function routeBoxes(layout) {
    return layout.routes.map((r) => {
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

  function row(label, value) {
    return value === '' || value === null || value === undefined ? null : html('tr', null, html('th', { text: label }), html('td', { text: String(value) }));
  }

  // The details box of one node; `info`: the panel's {tree, nodeJson, marks, kernels, dynamic, lenses, frames}.
  function showDetails(details, info, node) {
    const { tree, nodeJson, marks, kernels, dynamic, lenses, frames } = info;
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
    rows.push(row('dynamic', dynamic[name] ? dynamic[name] + ' \u2014 any size' : ''));
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

  // The lens's legend under the graph (hidden without a lens).
  function showLegend(legend, lens, lensRange) {
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

  // Dragging pans, the wheel zooms about the pointer, a click (not a drag) expands a module box,
  // collapses a frame (its title) or selects a node. `view()` is the panel's current transform
  // (it mutates it), `apply()` shows it.
  function wirePointer(svg, view, apply, on) {
    let drag = null;
    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      const t = view();
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
        const t = view();
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
      const t = view();
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
        on.collapse(title.parentNode.getAttribute('data-path'));
        return;
      }
      const g = ev.target.closest('g.ps-node, g.ps-module');
      if (!g) return;
      if (g.classList.contains('ps-module')) on.expand(g.getAttribute('data-path'));
      else on.select(g.getAttribute('data-name'));
    });
  }

  Object.assign(parts, {
    MIN_ZOOM, el, html, clip, listText, rampColour, rampPosition, moduleTitle, boxTitle, nodeTitle,
    canvas, drawBox, drawRoute, framePieces, drawRegion, placeTitles, routeBoxes, showDetails, showLegend, wirePointer,
  });
})();
