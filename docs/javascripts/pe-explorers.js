// Interactive figures of the site, hand-written, no library, nothing loaded from elsewhere.
//
// Each `.pe-interactive` block holds sliders (native range inputs: the keyboard moves them),
// an empty SVG, a read-out and a static figure drawn by pe at build. When this script runs
// it shows the live part and hides the static one (print keeps the static one). The numbers
// are computed here with the paper's formulas, PE(p, 2i) = sin(p w_i), PE(p, 2i+1) =
// cos(p w_i), w_i = base^(-2i/d); the browser tests compare them with pe. Each read-out
// also carries its numbers as JSON in `data-values`, for those tests.
(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const frequencies = (d, base) =>
    Array.from({ length: d / 2 }, (_, i) => Math.pow(base, (-2 * i) / d));
  const encode = (p, d, base) =>
    frequencies(d, base).flatMap((w) => [Math.sin(p * w), Math.cos(p * w)]);
  const fmt = (x, digits = 4) => (Math.abs(x) < 5e-13 ? 0 : x).toFixed(digits);

  function el(parent, name, attrs = {}, text = "") {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    if (text) node.textContent = text;
    parent.appendChild(node);
    return node;
  }

  function values(block) {
    const out = {};
    for (const input of block.querySelectorAll("input[type=range]")) {
      const raw = Number(input.value);
      out[input.name] = input.dataset.scale === "log10" ? Math.pow(10, raw) : raw;
      const shown = block.querySelector(`output[for="${input.id}"]`);
      if (shown) shown.textContent = input.dataset.scale === "log10" ? fmt(out[input.name], 0) : raw;
    }
    return out;
  }

  // The font size, in the SVG's own units, that shows the labels at 12 CSS px at least
  // (11 units at the least) however narrow the screen draws the SVG.
  function labelSize(svg, viewWidth) {
    const shown = svg.getBoundingClientRect().width || viewWidth;
    const size = Math.max(11, (12 * viewWidth) / shown);
    svg.style.setProperty("--pe-label", `${size.toFixed(1)}px`);
  }

  function report(block, text, data) {
    const readout = block.querySelector(".pe-readout");
    readout.textContent = text;
    readout.dataset.values = JSON.stringify(data);
  }

  // (1) Each pair a point on its circle; the arrow from PE(p) to PE(p + k) turns by k w_i.
  function rotation(block, svg) {
    const { p, k, d, base } = values(block);
    const w = frequencies(d, base);
    const shown = Math.min(w.length, 4);
    const size = 110, tall = size + 26;
    // Four circles in a row, or two rows of two where the SVG is drawn narrow (a phone).
    const across = (svg.getBoundingClientRect().width || 600) < 480 ? Math.min(shown, 2) : shown;
    const rows = Math.ceil(shown / across);
    svg.setAttribute("viewBox", `0 0 ${across * size} ${rows * tall}`);
    labelSize(svg, across * size);
    svg.replaceChildren();
    const turns = [];
    for (let i = 0; i < shown; i++) {
      const top = Math.floor(i / across) * tall;
      const cx = (i % across) * size + size / 2, cy = top + size / 2 + 4, r = size / 2 - 12;
      const at = (angle) => [cx + r * Math.sin(angle), cy - r * Math.cos(angle)];
      el(svg, "circle", { cx, cy, r, class: "pe-grid" });
      const [x0, y0] = at(p * w[i]);
      const [x1, y1] = at((p + k) * w[i]);
      el(svg, "line", { x1: cx, y1: cy, x2: x0, y2: y0, class: "pe-ray" });
      el(svg, "line", { x1: cx, y1: cy, x2: x1, y2: y1, class: "pe-ray pe-second" });
      el(svg, "circle", { cx: x0, cy: y0, r: 4, class: "pe-dot" });
      el(svg, "circle", { cx: x1, cy: y1, r: 4, class: "pe-dot pe-second" });
      const start = encode(p, d, base), end = encode(p + k, d, base);
      // The clockwise angle from PE(p)'s pair to PE(p+k)'s, measured from the two points.
      const from = Math.atan2(start[2 * i], start[2 * i + 1]);
      const to = Math.atan2(end[2 * i], end[2 * i + 1]);
      const turn = (((to - from) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
      turns.push(turn);
      el(svg, "text", { x: cx, y: top + size + 20, class: "pe-label" }, `pair ${i}: ${fmt(turn, 3)} rad`);
    }
    const pairs = turns.map((t, i) => `pair ${i} turns ${fmt(t, 3)} = ${k}·${fmt(w[i], 4)} mod 2π`);
    report(block, `From p = ${p} to p + k = ${p + k}: ${pairs.join("; ")}. Any p gives the same turns.`,
      { p, k, d, base, start: encode(p, d, base).slice(0, 2 * shown),
        end: encode(p + k, d, base).slice(0, 2 * shown), turns });
  }

  // (2) The table as a heat map, its sine columns (even j) on the left and its cosine
  // columns (odd j) on the right, as in the static figure; the cell under the pointer (or
  // the keyboard cursor) is read out.
  const column = (j, d) => (j % 2 ? d / 2 : 0) + Math.floor(j / 2);
  const mix = (a, b, t) => a.map((x, c) => Math.round(x + (b[c] - x) * t));
  const colour = (v) => `rgb(${mix([247, 247, 247], v > 0 ? [178, 24, 43] : [33, 102, 172], Math.abs(v))})`;
  function table(block, svg) {
    const { d, base } = values(block);
    const n = Number(block.dataset.positions);
    const cell = 4;
    svg.setAttribute("viewBox", `0 0 ${d * cell} ${n * cell}`);
    if (svg.dataset.drawn !== `${d}/${base}`) {
      svg.replaceChildren();
      for (let p = 0; p < n; p++) {
        const row = encode(p, d, base);
        row.forEach((v, j) => {
          el(svg, "rect", { x: column(j, d) * cell, y: p * cell, width: cell, height: cell,
            fill: colour(v), "data-p": p, "data-j": j });
        });
      }
      el(svg, "rect", { class: "pe-cursor", width: cell, height: cell });
      svg.dataset.drawn = `${d}/${base}`;
    }
    const p = Math.min(Number(block.dataset.p || 0), n - 1);
    const j = Math.min(Number(block.dataset.j || 0), d - 1);
    const cursor = svg.querySelector(".pe-cursor");
    cursor.setAttribute("x", column(j, d) * cell);
    cursor.setAttribute("y", p * cell);
    const i = Math.floor(j / 2), w = Math.pow(base, (-2 * i) / d);
    const value = (j % 2 ? Math.cos : Math.sin)(p * w);
    const name = j % 2 ? "cos" : "sin";
    report(block, `PE(${p}, ${j}) = ${name}(${p} · ${base}^(−${2 * i}/${d})) = ${name}(${fmt(p * w)}) = ${fmt(value, 6)}`,
      { p, j, d, base, value });
  }

  // (3) PE(p) · PE(p + k) = sum_i cos(k w_i) against k; a marker at the chosen k.
  function dot(block, svg) {
    const { d, base, k } = values(block);
    const last = Number(block.dataset.offsets);
    const w = frequencies(d, base);
    const curve = Array.from({ length: last + 1 }, (_, r) => w.reduce((s, x) => s + Math.cos(r * x), 0));
    const width = 600, height = 220, pad = 30;
    const x = (r) => pad + ((width - 2 * pad) * r) / last;
    const low = Math.min(0, ...curve);  // from the lowest value (or 0) up to d/2
    const y = (v) => height - pad - ((height - 2 * pad) * (v - low)) / (d / 2 - low);
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    labelSize(svg, width);
    svg.replaceChildren();
    el(svg, "line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "pe-grid" });
    el(svg, "polyline", { points: curve.map((v, r) => `${x(r)},${y(v)}`).join(" "), class: "pe-curve" });
    el(svg, "circle", { cx: x(k), cy: y(curve[k]), r: 5, class: "pe-dot" });
    el(svg, "text", { x: pad, y: 16, class: "pe-label pe-left" }, `d/2 = ${d / 2}`);
    el(svg, "text", { x: pad, y: y(0) - 4, class: "pe-label pe-left" }, "0");
    el(svg, "text", { x: width - pad, y: height - 8, class: "pe-label pe-right" }, `offset k (0 to ${last})`);
    report(block, `PE(p) · PE(p + ${k}) = Σ cos(${k} ω_i) = ${fmt(curve[k])} for every p (d = ${d}, base ${fmt(base, 0)}); at k = 0 it is d/2 = ${d / 2}.`,
      { d, base, k, value: curve[k], curve });
  }

  const WIDGETS = { rotation, table, dot };

  function mount(block) {
    if (block.classList.contains("pe-js")) return;
    const draw = WIDGETS[block.dataset.peWidget];
    if (!draw) return;
    const svg = block.querySelector("svg.pe-plot");
    const redraw = () => draw(block, svg);
    block.querySelectorAll("input[type=range]").forEach((input) => input.addEventListener("input", redraw));
    if (block.dataset.peWidget === "table") {
      const pick = (event) => {
        const target = event.target.closest("rect[data-p]");
        if (!target) return;
        block.dataset.p = target.dataset.p;
        block.dataset.j = target.dataset.j;
        redraw();
      };
      svg.addEventListener("mousemove", pick);
      svg.addEventListener("click", pick);
      svg.addEventListener("keydown", (event) => {
        const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
        const move = moves[event.key];
        if (!move) return;
        event.preventDefault();
        block.dataset.p = Math.max(0, Number(block.dataset.p || 0) + move[0]);
        block.dataset.j = Math.max(0, Number(block.dataset.j || 0) + move[1]);
        redraw();
      });
    }
    block.classList.add("pe-js");
    block.querySelector(".pe-live").hidden = false;
    redraw();
    // Drawn again when its width changes (a phone turned, a window resized): the layout
    // and the label size follow the width.
    let drawnWidth = Math.round(svg.getBoundingClientRect().width);
    new ResizeObserver(() => {
      const width = Math.round(svg.getBoundingClientRect().width);
      if (width !== drawnWidth) {
        drawnWidth = width;
        redraw();
      }
    }).observe(svg);
  }

  const start = () => document.querySelectorAll(".pe-interactive").forEach(mount);
  if (window.document$) window.document$.subscribe(start);
  else document.addEventListener("DOMContentLoaded", start);
})();
