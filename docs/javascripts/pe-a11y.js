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

  function focusableScrollers() {
    const blocks = Array.from(document.querySelectorAll("article pre, article .md-typeset__scrollwrap"));
    const scrolls = blocks.map((pre) => pre.scrollWidth > pre.clientWidth + 1);
    blocks.forEach((pre, index) => {
      if (pre.querySelector("[tabindex], a, button")) return;
      if (scrolls[index]) pre.setAttribute("tabindex", "0");
      else if (pre.getAttribute("tabindex") === "0") pre.removeAttribute("tabindex");
    });
  }

  // When the browser is idle: measuring the code blocks needs the page laid out.
  const idle = window.requestIdleCallback || ((work) => setTimeout(work, 200));
  const run = () => setTimeout(() => { nameCodeBars(); idle(focusableScrollers, { timeout: 3000 }); }, 0);
  if (window.document$) window.document$.subscribe(run);
  else document.addEventListener("DOMContentLoaded", run);
  window.addEventListener("resize", focusableScrollers);
  // A fold opened shows code blocks that could not be measured closed.
  document.addEventListener("toggle", focusableScrollers, true);
})();
