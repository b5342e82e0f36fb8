// Where the theme's own script leaves a page short of WCAG (axe-core), once it has run:
// - each code block's button bar (a <nav> the theme adds) gets a name of its own, "Code
//   block N": landmarks of one kind must be told apart;
// - a code block or a wide table that scrolls sideways can take the keyboard's focus (tabindex 0), so
//   that a keyboard user can scroll it; one that fits takes none (no useless tab stop).
(() => {
  function nameCodeBars() {
    document.querySelectorAll("nav.md-code__nav").forEach((nav, index) => {
      nav.setAttribute("aria-label", `Code block ${index + 1}`);
    });
  }

  // Each scroller is measured when it or its content changes size: when the page is first
  // laid out, when the window is resized, when a fold around it opens, when the formulas
  // of a table are typeset. A ResizeObserver answers after the browser's own layout, so
  // that reading the sizes costs no layout of its own (a pass over every block of a long
  // page, measured one by one, kept a phone's processor busy for a third of a second).
  const SCROLLERS = "article pre, article .md-typeset__scrollwrap";
  // All the sizes are read first, then the attributes written: a write between two reads
  // would make the second lay the page out again.
  function focusable(boxes) {
    const free = boxes.filter((box) => !box.querySelector("[tabindex], a, button"));
    const scrolls = free.map((box) => box.scrollWidth > box.clientWidth + 1);
    free.forEach((box, index) => {
      if (scrolls[index]) box.setAttribute("tabindex", "0");
      else if (box.getAttribute("tabindex") === "0") box.removeAttribute("tabindex");
    });
  }
  let watcher = null;
  function watchScrollers() {
    if (watcher) watcher.disconnect();
    watcher = new ResizeObserver((entries) => {
      const boxes = new Set(entries.map((entry) => entry.target.closest(SCROLLERS)));
      focusable(Array.from(boxes).filter(Boolean));
    });
    for (const box of document.querySelectorAll(SCROLLERS)) {
      watcher.observe(box);
      if (box.firstElementChild) watcher.observe(box.firstElementChild); // its content
    }
  }

  const run = () => setTimeout(() => { nameCodeBars(); watchScrollers(); }, 0);
  if (window.document$) window.document$.subscribe(run);
  else document.addEventListener("DOMContentLoaded", run);
})();
