// Formulas are typeset when the site is built (docs/_hooks/typeset_math.py): each stands in
// the page as its TeX source (hidden, holding the room the formula takes:
// docs/_hooks/math_space.py) wrapped in <span class="pe-tex">, with the typeset formula in a
// <template> beside it. This script puts formulas in place, and nothing else:
// - the page's blocks (a notebook cell, a paragraph), top first, as they come within a screen
//   of the viewport, with the browser free to paint and answer input between blocks: only
//   what the reader sees is laid out (a long chapter holds hundreds of formulas);
// - a closed fold (<details>) is skipped until it opens: its summary is done with the page,
//   its contents when the reader opens it (the `toggle` event).
// `window.peMath` is a promise that settles when everything shown so far is in place (the
// tests wait on it, after opening folds too); `window.peTypesetAll()` puts in place the whole
// page (print, and scripts that need it).

(() => {
  const done = new WeakSet(); // containers already done

  // Each formula under `container` put in place, but those in a closed fold (its summary
  // aside) within it or that it is.
  function hidden(source, container) {
    for (let up = source.parentElement; up; up = up.parentElement) {
      if (up.tagName === "DETAILS" && !up.open) {
        const summary = source.closest("summary");
        if (!summary || summary.parentElement !== up) return true;
      }
      if (up === container) break;
    }
    return false;
  }
  // Returns how many elements it put in the page. A container may be a formula's source
  // itself (a block of the API reference holds them loose, beside its text).
  const SOURCE = "span.pe-tex";
  function reveal(container) {
    let added = 0;
    const sources = container.matches(SOURCE) ? [container] : container.querySelectorAll(SOURCE);
    for (const source of sources) {
      const typeset = source.querySelector(":scope > template");
      if (typeset && !hidden(source, container)) {
        added += typeset.content.querySelectorAll("*").length;
        source.replaceWith(typeset.content);
      }
    }
    return added;
  }

  // A block small enough to put in place in one step (a few milliseconds): a large one (a
  // notebook cell of several paragraphs, a long list) is split into its children, down to
  // paragraphs, rows and items. Its size counts the elements of its formulas (in their
  // templates), which are most of what a step puts in the page. (Decided from the markup
  // alone: reading styles here would make the browser lay out the page before it is ready.)
  const LARGE = 250; // elements
  const WHOLE = new Set(["P", "H1", "H2", "H3", "H4", "H5", "H6", "A", "SPAN", "EM", "STRONG",
    "CODE", "LABEL", "SUMMARY", "TH", "TD", "DT", "DD", "CAPTION", "FIGCAPTION", "DETAILS"]);
  function size(block) {
    let elements = block.getElementsByTagName("*").length;
    for (const typeset of block.getElementsByTagName("template")) {
      elements += typeset.content.querySelectorAll("*").length;
    }
    return elements;
  }
  function steps(block) {
    if (WHOLE.has(block.tagName) || !block.children.length || size(block) <= LARGE) {
      return [block];
    }
    return Array.from(block.children).flatMap(steps);
  }

  // The blocks of the article, each put in place when it comes near the screen.
  function articleBlocks() {
    const article = document.querySelector("article") || document.body;
    return Array.from(article.children).flatMap(steps);
  }

  // Text written straight into a fold (not in a paragraph of its own) is wrapped in a span:
  // the fold's children are what is put in place, one by one.
  const INLINE = new Set(["A", "ABBR", "B", "BR", "CODE", "EM", "I", "KBD", "SMALL", "SPAN",
    "STRONG", "SUB", "SUP"]);
  function wrapLooseText(fold) {
    if (fold.dataset.peWrapped !== undefined) return;
    fold.dataset.peWrapped = "";
    let run = [];
    const flush = () => {
      if (run.some((node) => node.nodeType !== Node.TEXT_NODE || node.textContent.trim())) {
        const span = document.createElement("span");
        run[0].before(span);
        span.append(...run);
      }
      run = [];
    };
    for (const node of Array.from(fold.childNodes)) {
      const inline = node.nodeType === Node.TEXT_NODE
        || (node.nodeType === Node.ELEMENT_NODE && INLINE.has(node.tagName));
      if (inline) run.push(node);
      else flush();
    }
    flush();
  }

  // What a fold shows and has not been put in place: the summary of every fold whose folds
  // around it are open, and the contents of every open one (closed ones are skipped).
  function shownInFolds(root) {
    const parts = [];
    const folds = Array.from(root.querySelectorAll("details"));
    if (root.tagName === "DETAILS") folds.unshift(root);
    for (const fold of folds) {
      let shown = true;
      for (let up = fold.parentElement; fold !== root && up && up !== root; up = up.parentElement) {
        if (up.tagName === "DETAILS" && !up.open) { shown = false; break; }
      }
      if (!shown) continue;
      if (fold.open) wrapLooseText(fold);
      for (const child of fold.children) {
        if (child.tagName !== "SUMMARY" && !fold.open) continue;
        if (!done.has(child)) parts.push(child);
      }
    }
    return parts;
  }

  // Put `containers` in place one after the other, giving the browser its turn every few ms
  // (a phone's processor is several times slower than a desktop's) or every few hundred
  // elements of formulas, whichever comes first. Before each turn the formulas just put in
  // place are measured and marked (markScrollingMath): one layout serves the measure and the
  // paint that follows, and no formula is painted before it fits (a wide one shrunk after it
  // was painted made the text below it jump). That layout is most of a step's time, and it
  // grows with the elements put in place (MathJax draws each symbol as one): 2,000 of them,
  // the formulas of a chapter's first screens, kept a phone's processor busy for 0.2 s.
  const STEP_ELEMENTS = 300;
  async function typesetInSteps(containers) {
    let since = performance.now();
    let added = 0;
    let typeset = [];
    for (const container of containers) {
      if (done.has(container) || !container.isConnected) continue;
      done.add(container);
      // (A source replaced by its formula: the formula is measured in its parent.)
      typeset.push(container.matches(SOURCE) ? container.parentElement : container);
      added += reveal(container);
      if (added > STEP_ELEMENTS || performance.now() - since > 5) {
        markScrollingMath(typeset);
        typeset = [];
        await new Promise((resume) => setTimeout(resume, 0));
        since = performance.now();
        added = 0;
      }
    }
    markScrollingMath(typeset);
  }

  window.peMath = Promise.resolve();
  function queue(step) {
    window.peMath = window.peMath.then(step).catch((error) => {
      console.error(error);
    });
    return window.peMath;
  }

  // A block (with what its folds show) put in place, its formulas measured.
  function typesetBlocks(blocks) {
    return queue(async () => {
      const fresh = blocks.filter((block) => !done.has(block));
      await typesetInSteps(fresh.flatMap((block) => [block, ...shownInFolds(block)]));
    });
  }

  // Once per page view (Material's instant navigation included): the header, navigation
  // and footer at once, the article's blocks as they come within a screen of the viewport.
  let watcher = null;
  document$.subscribe(() => {
    if (watcher) watcher.disconnect();
    typesetBlocks(Array.from(document.querySelectorAll(".md-header, .md-sidebar, .md-footer")));
    let near = [];
    watcher = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        watcher.unobserve(entry.target);
        near.push(entry.target);
      }
      if (near.length) {
        typesetBlocks(near);
        near = [];
      }
    }, { rootMargin: "50% 0px 50% 0px" });
    for (const block of articleBlocks()) watcher.observe(block);
  });
  // Print shows the whole page: put in place what was not yet. (Also for scripts that need
  // the whole page at once; the promise settles when it is.)
  window.peTypesetAll = () => typesetBlocks(articleBlocks());
  window.addEventListener("beforeprint", window.peTypesetAll);

  // A fold opened: put in place what it shows now, then lay out its formulas.
  document.addEventListener("toggle", (event) => {
    const fold = event.target;
    if (!(fold instanceof HTMLDetailsElement) || !fold.open) return;
    queue(async () => {
      wrapLooseText(fold);
      await typesetInSteps([...fold.children, ...shownInFolds(fold)]);
      markScrollingMath([fold]); // what was put in place before it closed, too
    });
  }, true);
  window.addEventListener("resize", () => markScrollingMath([document]));
})();

// A display formula a little wider than its column is set a little smaller (down to 3/4 of
// its size); one still wider scrolls inside its own box: it is marked (the stylesheet draws
// the cue: a shadow at the edge that hides more, and a line under it saying so) and the
// keyboard can scroll it. The formulas under `roots` are measured all at once (one layout,
// none if the page is laid out already), then marked.
const SMALLEST = 0.75;
function markScrollingMath(roots) {
  const under = (selector) => Array.from(new Set(roots.flatMap((root) => Array.from(root.querySelectorAll(selector)))));
  const displays = under('mjx-container[display="true"]');
  const inlines = under('mjx-container:not([display="true"])');
  // Earlier marks undone where there are any (each change makes the next read lay out again).
  for (const box of displays) if (box.style.fontSize) box.style.fontSize = "";
  for (const box of inlines) if (box.classList.contains("pe-scrolls")) box.classList.remove("pe-scrolls");
  const sizes = displays.map((box) => [box.clientWidth, box.scrollWidth]);
  const wide = inlines.map(isWideInline);
  const shrunk = [];
  displays.forEach((box, index) => {
    const [room, width] = sizes[index];
    if (!room) return; // in a closed fold: measured when it opens
    const ratio = room / width;
    if (ratio < 1 && ratio >= SMALLEST) {
      box.style.fontSize = `${Math.floor(ratio * 100) - 1}%`;
      shrunk.push(box);
    }
    mark(box, ratio < SMALLEST);
    cue(box, ratio < SMALLEST);
  });
  inlines.forEach((box, index) => mark(box, wide[index]));
  // A formula set smaller may still not fit (its fixed parts do not shrink): it scrolls.
  const still = shrunk.filter((box) => box.scrollWidth > box.clientWidth + 1);
  for (const box of still) {
    mark(box, true);
    cue(box, true);
  }
}

// The line under a scrolling display that says so (hidden from screen readers: the
// formula's own MathML is read whole).
function cue(box, scrolls) {
  const next = box.nextElementSibling;
  const has = next && next.classList.contains("pe-scroll-cue");
  if (scrolls && !has) {
    const line = document.createElement("span");
    line.className = "pe-scroll-cue";
    line.setAttribute("aria-hidden", "true");
    line.textContent = "\u2194\uFE0E scroll sideways for the rest of the formula";
    box.after(line);
  } else if (!scrolls && has) {
    next.remove();
  }
}

function mark(box, scrolls) {
  box.classList.toggle("pe-scrolls", scrolls);
  if (scrolls) {
    box.setAttribute("tabindex", "0");
    box.setAttribute("title", "Wider than the column: scroll it sideways");
  } else {
    box.removeAttribute("tabindex");
    box.removeAttribute("title");
  }
}

// An inline formula does not break across lines: one wider than the room its paragraph has
// (a phone's column) would push the whole page sideways. It scrolls in its own box instead,
// marked like a scrolling display and reachable with the keyboard.
function isWideInline(box) {
  if (!box.getClientRects().length) return false; // in a closed fold: measured when it opens
  let block = box.parentElement;
  while (block && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
  if (!block) return false;
  const room = block.getBoundingClientRect().right - parseFloat(getComputedStyle(block).paddingRight);
  return box.getBoundingClientRect().right > room + 1;
}
