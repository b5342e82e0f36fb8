// MathJax 3 configuration for plain pages (arithmatex) and executed notebooks (jupyter-wrapper).
// MathJax itself is served from this site (assets/mathjax/), never from a CDN.
window.MathJax = {
  // Components instead of the combined tex-chtml.js: the same TeX input, CHTML output and
  // screen-reader MathML, without the 426 KB context menu (page-weight budget: 2.5 MB).
  loader: { load: ["input/tex", "output/chtml", "a11y/assistive-mml"] },
  tex: {
    inlineMath: [["\\(", "\\)"], ["$", "$"]],
    displayMath: [["\\[", "\\]"], ["$$", "$$"]],
    processEscapes: true,
    processEnvironments: true,
  },
  options: {
    ignoreHtmlClass: "tex2jax_ignore",
    processHtmlClass: "arithmatex|jupyter-wrapper",
  },
  startup: { typeset: false },
};

// A display formula a little wider than its column is set a little smaller (down to 3/4 of
// its size); one still wider scrolls inside its own box: it is marked (the stylesheet draws
// the cue, a fade at the edge and a dashed rule) and the keyboard can scroll it.
const SMALLEST = 0.75;
function markScrollingMath() {
  for (const box of document.querySelectorAll('mjx-container[display="true"]')) {
    if (!box.clientWidth) continue; // in a closed fold: measured when it opens
    box.style.fontSize = "";
    const ratio = box.clientWidth / box.scrollWidth;
    if (ratio < 1 && ratio >= SMALLEST) box.style.fontSize = `${Math.floor(ratio * 100)}%`;
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    box.classList.toggle("pe-scrolls", scrolls);
    if (scrolls) box.setAttribute("tabindex", "0");
    else box.removeAttribute("tabindex");
  }
  for (const box of document.querySelectorAll('mjx-container:not([display="true"])')) {
    markWideInline(box);
  }
}

// An inline formula does not break across lines: one wider than the room its paragraph has
// (a phone's column) would push the whole page sideways. It scrolls in its own box instead,
// marked like a scrolling display and reachable with the keyboard.
function markWideInline(box) {
  if (!box.getClientRects().length) return; // in a closed fold: measured when it opens
  box.classList.remove("pe-scrolls");
  let block = box.parentElement;
  while (block && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
  if (!block) return;
  const room = block.getBoundingClientRect().right - parseFloat(getComputedStyle(block).paddingRight);
  const wide = box.getBoundingClientRect().right > room + 1;
  box.classList.toggle("pe-scrolls", wide);
  if (wide) box.setAttribute("tabindex", "0");
  else box.removeAttribute("tabindex");
}

// Typeset once per page view, including Material's instant navigation, one page at a time.
document$.subscribe(() => {
  MathJax.startup.promise = MathJax.startup.promise.then(() => {
    MathJax.typesetClear();
    MathJax.texReset();
    return MathJax.typesetPromise();
  }).then(markScrollingMath);
});
window.addEventListener("resize", markScrollingMath);
// A fold opened later lays out its formulas then.
document.addEventListener("toggle", markScrollingMath, true);
