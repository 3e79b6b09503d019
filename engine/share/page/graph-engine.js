// The graph panel's engine bridge (see graph.js, which draws the panel): the studio's own graph
// engine (engine.wasm, engine/graph compiled to WebAssembly) read from
// <script type="application/octet-stream" id="ps-engine"> (base64), one instance per panel, and
// the flat layout it gives read as objects. Registers onto window.PsGraphParts; the page loads
// graph-engine.js, graph-draw.js, graph.js in that order.
(function () {
  'use strict';

  const parts = (window.PsGraphParts = window.PsGraphParts || {});

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
      // The nodes a query finds: graph::GraphSearch, the window's search, in graph order.
      search(query) {
        const bytes = new TextEncoder().encode(String(query));
        const p = x.ps_alloc(bytes.length);
        new Uint8Array(x.memory.buffer, p, bytes.length).set(bytes);
        const n = x.ps_search(p, bytes.length);
        x.ps_free(p);
        return n < 0 ? [] : JSON.parse(text());
      },
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

  Object.assign(parts, { instantiate, readLayout });
})();
