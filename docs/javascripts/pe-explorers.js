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

  // A legend: for each entry a swatch (a dot, or a short arrow) and its words, in lines no
  // wider than `width`. Returns the height it takes.
  function legend(svg, width, entries) {
    const size = parseFloat(svg.style.getPropertyValue("--pe-label")) || 12;
    const line = size * 1.4;
    let at = 2, y = size + 2;
    for (const [kind, cls, words] of entries) {
      const text = el(svg, "text", { x: 0, y: 0, class: "pe-label pe-left" }, words);
      const wide = 16 + Math.max(text.getComputedTextLength(), 0.55 * size * words.length);
      if (at > 2 && at + wide > width) {
        at = 2;
        y += line;
      }
      text.setAttribute("x", at + 16);
      text.setAttribute("y", y);
      if (kind === "dot") el(svg, "circle", { cx: at + 5, cy: y - size / 3, r: 4.5, class: cls });
      else el(svg, "path", { d: `M ${at} ${y - size / 3} h 12`, class: cls, "marker-end": "url(#pe-arrow)" });
      at += wide + 12;
    }
    return y + line / 2;
  }

  // The arrowhead of the arcs, defined once per SVG.
  function arrowhead(svg) {
    const defs = el(svg, "defs");
    const marker = el(defs, "marker", { id: "pe-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
    el(marker, "path", { d: "M 0 0 L 10 5 L 0 10 z", class: "pe-arrowhead" });
  }

  // (1) Each pair a point on its circle: PE(p) (blue) and PE(p + k) (orange), and the arc
  // that turns the first into the second, by k w_i whatever p is.
  function rotation(block, svg) {
    const { p, k, d, base } = values(block);
    const w = frequencies(d, base);
    const shown = Math.min(w.length, 4);
    const size = 110, tall = size + 26;
    // Four circles in a row, or two rows of two where the SVG is drawn narrow (a phone).
    const across = (svg.getBoundingClientRect().width || 600) < 480 ? Math.min(shown, 2) : shown;
    const rows = Math.ceil(shown / across);
    const width = Math.max(across * size, 220);
    labelSize(svg, width);
    svg.replaceChildren();
    arrowhead(svg);
    const head = legend(svg, width, [["dot", "pe-dot", `PE(p), p = ${p}`],
      ["dot", "pe-dot pe-second", `PE(p + k), k = ${k}`], ["arc", "pe-arc", "the turn, k·ωᵢ"]]);
    svg.setAttribute("viewBox", `0 0 ${width} ${head + rows * tall}`);
    const turns = [];
    for (let i = 0; i < shown; i++) {
      const top = head + Math.floor(i / across) * tall;
      const cx = (i % across) * size + size / 2, cy = top + size / 2 + 4, r = size / 2 - 12;
      const at = (angle, radius = r) => [cx + radius * Math.sin(angle), cy - radius * Math.cos(angle)];
      el(svg, "circle", { cx, cy, r, class: "pe-grid" });
      const start = encode(p, d, base), end = encode(p + k, d, base);
      // The clockwise angle from PE(p)'s pair to PE(p+k)'s, measured from the two points.
      const from = Math.atan2(start[2 * i], start[2 * i + 1]);
      const to = Math.atan2(end[2 * i], end[2 * i + 1]);
      const turn = (((to - from) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
      turns.push(turn);
      const [x0, y0] = at(from);
      const [x1, y1] = at(to);
      el(svg, "line", { x1: cx, y1: cy, x2: x0, y2: y0, class: "pe-ray" });
      el(svg, "line", { x1: cx, y1: cy, x2: x1, y2: y1, class: "pe-ray pe-second" });
      if (turn > 0.05 && turn < 2 * Math.PI - 0.05) {
        const inner = r * 0.55;
        const [a0, b0] = at(from, inner), [a1, b1] = at(from + turn, inner);
        el(svg, "path", { d: `M ${a0} ${b0} A ${inner} ${inner} 0 ${turn > Math.PI ? 1 : 0} 1 ${a1} ${b1}`,
          class: "pe-arc", "marker-end": "url(#pe-arrow)" });
      }
      el(svg, "circle", { cx: x0, cy: y0, r: 4.5, class: "pe-dot" });
      el(svg, "circle", { cx: x1, cy: y1, r: 4.5, class: "pe-dot pe-second" });
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
  const shade = (v) => mix([247, 247, 247], v > 0 ? [178, 24, 43] : [33, 102, 172], Math.abs(v));
  const colour = (v) => `rgb(${shade(v)})`;
  function table(block, svg) {
    const { d, base } = values(block);
    const n = Number(block.dataset.positions);
    const cell = 4;
    // Room around the map: a title above, the position axis on the left, the dimension
    // axis and the colour key below.
    const left = 34, top = 30, bottom = 44, right = 6;
    const width = left + d * cell + right, height = top + n * cell + bottom;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    labelSize(svg, width);
    if (svg.dataset.drawn !== `${d}/${base}/${svg.style.getPropertyValue("--pe-label")}`) {
      svg.replaceChildren();
      el(svg, "text", { x: left, y: 11, class: "pe-label pe-left pe-title" },
        `PE(p, j): ${n} positions × d = ${d}`);
      el(svg, "text", { x: left, y: 25, class: "pe-label pe-left" }, "sin(p ωᵢ) columns");
      el(svg, "text", { x: left + d * cell, y: 25, class: "pe-label pe-right" }, "cos(p ωᵢ) columns");
      const map = el(svg, "g", { transform: `translate(${left} ${top})` });
      // The cells are the pixels of one picture (a canvas, one pixel per cell, drawn
      // enlarged without smoothing): n·d SVG rectangles would each be styled and laid out
      // by the browser, about 3,000 at d = 64, a third of a second on a phone.
      const canvas = document.createElement("canvas");
      canvas.width = d;
      canvas.height = n;
      const context = canvas.getContext("2d");
      const pixels = context.createImageData(d, n);
      for (let p = 0; p < n; p++) {
        encode(p, d, base).forEach((v, j) => {
          const at = 4 * (p * d + column(j, d));
          pixels.data.set([...shade(v), 255], at);
        });
      }
      context.putImageData(pixels, 0, 0);
      el(map, "image", { class: "pe-map", href: canvas.toDataURL(), width: d * cell, height: n * cell,
        preserveAspectRatio: "none" });
      el(map, "line", { x1: (d / 2) * cell, x2: (d / 2) * cell, y1: 0, y2: n * cell, class: "pe-split" });
      el(map, "rect", { class: "pe-cursor", width: cell, height: cell });
      // The position axis: ticks every 10 positions.
      for (let p = 0; p < n; p += 10) {
        el(svg, "line", { x1: left - 3, x2: left, y1: top + p * cell + cell / 2, y2: top + p * cell + cell / 2, class: "pe-axis" });
        el(svg, "text", { x: left - 5, y: top + p * cell + cell / 2 + 4, class: "pe-label pe-right" }, `${p}`);
      }
      el(svg, "text", { x: 9, y: top + (n * cell) / 2, class: "pe-label", transform: `rotate(-90 9 ${top + (n * cell) / 2})` }, "position p");
      const below = top + n * cell;
      el(svg, "text", { x: left, y: below + 13, class: "pe-label pe-left" }, "i = 0");
      el(svg, "text", { x: left + (d / 2) * cell, y: below + 13, class: "pe-label" }, `${d / 2 - 1} | 0`);
      el(svg, "text", { x: left + d * cell, y: below + 13, class: "pe-label pe-right" }, `${d / 2 - 1}`);
      // The colour key: -1 (blue), 0 (white), +1 (red).
      const key = el(svg, "g", { transform: `translate(${left + (d * cell) / 2 - 60} ${below + 20})` });
      for (let s = 0; s <= 40; s++) {
        el(key, "rect", { x: s * 3, y: 0, width: 3.2, height: 8, fill: colour(s / 20 - 1) });
      }
      el(key, "text", { x: -4, y: 8, class: "pe-label pe-right" }, "−1");
      el(key, "text", { x: 127, y: 8, class: "pe-label pe-left" }, "+1");
      el(key, "text", { x: 60, y: 22, class: "pe-label" }, "value of PE(p, j)");
      svg.dataset.drawn = `${d}/${base}/${svg.style.getPropertyValue("--pe-label")}`;
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
    el(svg, "text", { x: width - pad, y: 16, class: "pe-label pe-right" }, `PE(p) · PE(p + k); dot: k = ${k}`);
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
      // The cell under the pointer, from its place on the picture.
      const pick = (event) => {
        const image = svg.querySelector("image.pe-map");
        if (!image) return;
        const box = image.getBoundingClientRect();
        const n = Number(block.dataset.positions), d = Number(values(block).d);
        const p = Math.floor(((event.clientY - box.top) / box.height) * n);
        const c = Math.floor(((event.clientX - box.left) / box.width) * d);
        if (p < 0 || p >= n || c < 0 || c >= d) return;
        block.dataset.p = p;
        block.dataset.j = c < d / 2 ? 2 * c : 2 * (c - d / 2) + 1;
        redraw();
      };
      svg.addEventListener("mousemove", pick);
      svg.addEventListener("click", pick);
      svg.addEventListener("keydown", (event) => {
        const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
        const move = moves[event.key];
        if (!move) return;
        event.preventDefault();
        const n = Number(block.dataset.positions), d = Number(values(block).d);
        block.dataset.p = Math.min(n - 1, Math.max(0, Number(block.dataset.p || 0) + move[0]));
        block.dataset.j = Math.min(d - 1, Math.max(0, Number(block.dataset.j || 0) + move[1]));
        redraw();
      });
    }
    // Only the table answers keys of its own (the arrows move its cursor); the other
    // drawings are pictures, moved by their sliders.
    if (block.dataset.peWidget !== "table") svg.removeAttribute("tabindex");
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
