// MathJax 3 configuration for plain pages (arithmatex) and executed notebooks (jupyter-wrapper).
// MathJax itself is served from this site (assets/mathjax/), never from a CDN.
window.MathJax = {
  // Components instead of the combined tex-chtml.js: the same TeX input, CHTML output and
  // screen-reader MathML, without the 426 KB context menu (page-weight budget: 2 MB).
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

// Typeset once per page view, including Material's instant navigation, one page at a time.
document$.subscribe(() => {
  MathJax.startup.promise = MathJax.startup.promise.then(() => {
    MathJax.typesetClear();
    MathJax.texReset();
    return MathJax.typesetPromise();
  });
});
