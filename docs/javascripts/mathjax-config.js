// MathJax 3 configuration for plain pages (arithmatex) and executed notebooks (jupyter-wrapper).
// MathJax itself is served from this site (assets/mathjax/), never from a CDN.
window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"], ["$", "$"]],
    displayMath: [["\\[", "\\]"], ["$$", "$$"]],
    processEscapes: true,
    processEnvironments: true,
  },
  options: {
    ignoreHtmlClass: "tex2jax_ignore",
    processHtmlClass: "arithmatex|jupyter-wrapper",
    enableMenu: false,
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
