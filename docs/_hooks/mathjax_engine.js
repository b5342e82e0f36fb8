// MathJax 3 (the components of the django-static-mathjax wheel) in an embedded V8, without a
// browser: docs/_hooks/typeset_math.py evaluates this file, then the startup component.
// PE_SOURCES (set before this file) maps each component's name to its code; MathJax's loader
// asks for them by file name, and they are run in the global scope.
var MathJax = {
  loader: {
    load: ["adaptors/liteDOM", "input/tex", "output/chtml", "a11y/assistive-mml"],
    paths: { mathjax: "mathjax" },
    require: function (file) {
      var name = file.replace(/^mathjax\//, "").replace(/\.js$/, "");
      if (!Object.prototype.hasOwnProperty.call(PE_SOURCES, name)) {
        throw new Error("MathJax asked for a component the site does not have: " + file);
      }
      (0, eval)(PE_SOURCES[name]);
    },
    failed: function (error) { throw error; },
  },
  tex: {
    processEscapes: true,
    processEnvironments: true,
    // A TeX error is thrown, not drawn as a red box: the build reports it (peTypeset).
    formatError: function (jax, error) { throw error; },
  },
  startup: { typeset: false },
};
var PE_STARTED = false;

// The formulas [[tex, display], ...] of one page as CHTML, and the stylesheet they need
// (fonts from fontURL): {html: [...], css: "...", errors: [...]}, as JSON. A fresh input and output for
// each page: TeX's labels and macros and the stylesheet's characters are the page's own.
function peTypeset(request) {
  try {
    var asked = JSON.parse(request);
    var adaptor = MathJax.startup.adaptor;
    var tex = new MathJax._.input.tex_ts.TeX(MathJax.config.tex);
    // A font object of its own (not the one in MathJax's config, which would carry the
    // characters of the pages before into this page's stylesheet).
    var font = new MathJax._.output.chtml.fonts.tex_ts.TeXFont({ fontURL: asked.fontURL });
    var chtml = new MathJax._.output.chtml_ts.CHTML({ scale: PE_SCALE, font: font });
    var doc = MathJax._.mathjax.mathjax.document("", { InputJax: tex, OutputJax: chtml });
  } catch (error) {
    return Promise.reject(new Error("MathJax: " + (error && error.message || error)));
  }
  // A formula that needs a TeX extension not loaded yet (\boldsymbol, \color...) asks the
  // loader for it and is converted again once it is there (MathJax's retries).
  // One that TeX cannot read is listed, with TeX's message, in errors.
  var errors = [];
  return MathJax._.mathjax.mathjax.handleRetriesFor(function () {
    errors = [];
    return asked.formulas.map(function (formula) {
      try {
        return adaptor.outerHTML(doc.convert(formula[0], { display: formula[1] }));
      } catch (error) {
        if (error.retry) throw error;
        errors.push(formula[0] + " (" + error.message + ")");
        return "";
      }
    });
  }).then(function (html) {
    var css = adaptor.textContent(chtml.styleSheet(doc));
    return JSON.stringify({ html: html, css: css, errors: errors });
  }, function (error) {
    throw new Error("MathJax: " + (error && error.message || error));
  });
}
