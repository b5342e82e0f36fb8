// The search index (hundreds of KB) is fetched when the reader first uses search, not with
// every page. The theme asks for it as soon as a page starts; this script, inlined before
// the theme's (docs/_hooks/theme_fixes.py), holds that one request until the search box
// gets the focus, its toggle is pressed, or the page was opened from a search result
// (`?h=`, the theme's highlight). Every other request goes out as it is.
(() => {
  const INDEX = "search/search_index.json";
  const held = [];
  let released = new URLSearchParams(location.search).has("h");
  const release = () => {
    if (released) return;
    released = true;
    for (const [request, body] of held.splice(0)) send.call(request, body);
  };
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.peSearchIndex = String(url).endsWith(INDEX);
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (body) {
    if (this.peSearchIndex && !released) held.push([this, body]);
    else send.call(this, body);
  };
  const onUse = (event) => {
    const target = event.target;
    if (target instanceof Element && target.closest("[data-md-component=search], #__search")) {
      release();
    }
  };
  document.addEventListener("focusin", onUse, true);
  document.addEventListener("change", onUse, true);
  document.addEventListener("pointerdown", onUse, true);
})();
