// The neighbourhood picture of a symbol page: a layered layout in plain SVG, no library.
// The symbol sits in the middle column; what points at it (callers, subclasses, importers,
// its parent) goes left, what it points at goes right, each further hop one column further
// out on the side of the neighbour that reached it. Edges are coloured by kind and dashed by
// how they were found (dispatch, unverified candidate); hovering a node lights its edges,
// clicking a node opens its page, the wheel zooms and dragging pans.
// Every name is placed with textContent: nothing from the indexed code is parsed as markup.
"use strict";
(function () {
  const holder = document.getElementById("graph");
  const source = document.getElementById("graph-data");
  if (!holder || !source) return;
  const data = JSON.parse(source.textContent);
  const NS = "http://www.w3.org/2000/svg";
  const W = 210, H = 28, GAP_X = 280, GAP_Y = 38, CHARS = 30;
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const links = data.links.filter((l) => byId.has(l.source) && byId.has(l.target));

  // --- layout: a column per signed hop, rows ordered to follow their neighbour
  const near = new Map(data.nodes.map((n) => [n.id, []]));
  for (const l of links) {
    near.get(l.source).push({ other: l.target, pointsOut: true, kind: l.kind });
    near.get(l.target).push({ other: l.source, pointsOut: false, kind: l.kind });
  }
  const col = new Map([[data.center, 0]]);
  const row = new Map([[data.center, 0]]);
  const via = new Map();
  const maxHop = Math.max(0, ...data.nodes.map((n) => n.hop));
  for (let hop = 1; hop <= maxHop; hop++) {
    const members = data.nodes.filter((n) => n.hop === hop);
    for (const n of members) {
      const inner = near.get(n.id).filter((a) => col.has(a.other) && byId.get(a.other).hop === hop - 1);
      if (!inner.length) {
        col.set(n.id, hop);
        continue;
      }
      if (hop === 1) {
        col.set(n.id, inner.some((a) => a.pointsOut) ? -1 : 1);
        via.set(n.id, inner[0]);
      } else {
        const parent = inner.reduce((a, b) => (row.get(a.other) <= row.get(b.other) ? a : b));
        const c = col.get(parent.other);
        col.set(n.id, c < 0 ? c - 1 : c + 1);
        via.set(n.id, parent);
      }
    }
    const columns = new Map();
    for (const n of members) {
      const c = col.get(n.id);
      if (!columns.has(c)) columns.set(c, []);
      columns.get(c).push(n);
    }
    for (const list of columns.values()) {
      const key = (n) => {
        const v = via.get(n.id);
        return [v ? row.get(v.other) : 0, v ? v.kind : "", n.label];
      };
      list.sort((a, b) => {
        const ka = key(a), kb = key(b);
        for (let i = 0; i < ka.length; i++) {
          if (ka[i] < kb[i]) return -1;
          if (ka[i] > kb[i]) return 1;
        }
        return 0;
      });
      list.forEach((n, i) => row.set(n.id, i - (list.length - 1) / 2));
    }
  }
  const pos = (id) => ({ x: col.get(id) * GAP_X, y: row.get(id) * GAP_Y });

  // --- drawing
  const el = (name, attrs, parent) => {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  };
  const svg = el("svg", { class: "graph-svg", role: "img", "aria-label": "neighbourhood graph" });
  const defs = el("defs", {}, svg);
  for (const [kind, colour] of Object.entries(data.colours)) {
    const m = el("marker", {
      id: "arrow-" + kind, viewBox: "0 0 10 10", refX: "9", refY: "5",
      markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse",
    }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }, m);
  }
  const scene = el("g", { class: "scene" }, svg);
  const edgeLayer = el("g", { class: "links" }, scene);
  const nodeLayer = el("g", { class: "nodes" }, scene);
  const touching = new Map(data.nodes.map((n) => [n.id, []]));

  for (const l of links) {
    const a = pos(l.source), b = pos(l.target);
    let d;
    if (a.x === b.x) { // same column: bow out to the side away from the centre
      const side = a.x < 0 ? -1 : 1;
      const x = a.x + side * W / 2, bow = x + side * 60;
      d = `M${x},${a.y} C${bow},${a.y} ${bow},${b.y} ${x},${b.y}`;
    } else {
      const dir = a.x < b.x ? 1 : -1;
      const x1 = a.x + dir * W / 2, x2 = b.x - dir * W / 2, mid = (x1 + x2) / 2;
      d = `M${x1},${a.y} C${mid},${a.y} ${mid},${b.y} ${x2},${b.y}`;
    }
    const colour = data.colours[l.kind] || "#6b7280";
    const path = el("path", {
      d, class: `link link-${l.link} kind-${l.kind}`, stroke: colour, fill: "none",
      "stroke-width": String(Math.min(1.2 + Math.log2(l.sites), 4)),
      "marker-end": `url(#arrow-${l.kind})`,
    }, edgeLayer);
    const dash = data.dashes[l.link];
    if (dash) path.setAttribute("stroke-dasharray", dash);
    const title = el("title", {}, path);
    title.textContent = `${byId.get(l.source).label} ${l.kind} ${byId.get(l.target).label}` +
      (l.sites > 1 ? ` (${l.sites} sites)` : "") + (l.link !== "direct" ? ` — ${l.link}` : "");
    touching.get(l.source).push(path);
    touching.get(l.target).push(path);
  }

  for (const n of data.nodes) {
    const p = pos(n.id);
    const a = el("a", {
      href: n.url, class: "node" + (n.id === data.center ? " center" : "") +
        (n.placeholder ? " placeholder" : ""),
      "data-id": n.id, "data-hop": String(n.hop),
    }, nodeLayer);
    el("rect", {
      x: p.x - W / 2, y: p.y - H / 2, width: W, height: H, rx: 6,
      fill: data.fills[n.kind] || "#f9fafb",
    }, a);
    const text = el("text", { x: p.x, y: p.y + 4, "text-anchor": "middle" }, a);
    text.textContent = n.label.length > CHARS ? "…" + n.label.slice(-(CHARS - 1)) : n.label;
    const title = el("title", {}, a);
    title.textContent = `${n.label}\n${n.kind}${n.where ? " · " + n.where : ""}`;
    a.addEventListener("mouseenter", () => {
      svg.classList.add("focus");
      a.classList.add("lit");
      for (const path of touching.get(n.id)) path.classList.add("lit");
    });
    a.addEventListener("mouseleave", () => {
      svg.classList.remove("focus");
      a.classList.remove("lit");
      for (const path of touching.get(n.id)) path.classList.remove("lit");
    });
  }

  // --- view: fit, then wheel zoom and drag pan over the viewBox
  const xs = data.nodes.map((n) => pos(n.id).x), ys = data.nodes.map((n) => pos(n.id).y);
  const pad = 40;
  const home = {
    x: Math.min(...xs) - W / 2 - pad - 70, y: Math.min(...ys) - H / 2 - pad,
    w: Math.max(...xs) - Math.min(...xs) + W + 2 * pad + 140,
    h: Math.max(...ys) - Math.min(...ys) + H + 2 * pad,
  };
  let view = { ...home };
  const apply = () => svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
  svg.style.height = Math.max(220, Math.min(home.h, 720)) + "px";
  apply();
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = svg.getBoundingClientRect();
    const fx = (event.clientX - box.left) / box.width, fy = (event.clientY - box.top) / box.height;
    const k = event.deltaY > 0 ? 1.15 : 1 / 1.15;
    const w = view.w * k, h = view.h * k;
    view = { x: view.x + (view.w - w) * fx, y: view.y + (view.h - h) * fy, w, h };
    apply();
  }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (event) => {
    if (event.target.closest && event.target.closest("a.node")) return;
    drag = { x: event.clientX, y: event.clientY, view: { ...view } };
    svg.setPointerCapture(event.pointerId);
  });
  svg.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const box = svg.getBoundingClientRect();
    const k = Math.max(view.w / box.width, view.h / box.height);
    view = { ...drag.view, x: drag.view.x - (event.clientX - drag.x) * k,
             y: drag.view.y - (event.clientY - drag.y) * k };
    apply();
  });
  svg.addEventListener("pointerup", () => { drag = null; });
  svg.addEventListener("dblclick", () => { view = { ...home }; apply(); });
  holder.appendChild(svg);
})();
