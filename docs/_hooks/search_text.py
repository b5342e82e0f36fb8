"""MkDocs hook: search snippets in plain words, without TeX source or pilcrows.

The theme's search index holds each section's text as it stands in the HTML, so a result
would show ``$\\lambda_i = 2\\pi/\\omega_i$``, ``\\begin{gathered}`` or the ``¶`` of a
heading's anchor. After the build, this hook rewrites the index (``search/search_index.json``):
every formula becomes readable text (``λ_i = 2π/ω_i``), anchors' pilcrows go, and no ``$``
or backslash is left (a shell prompt ``$ pe prove`` reads ``pe prove``). Only the index
changes; the pages keep their typeset math.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from pe.site.page_check import MATH  # formulas as MathJax finds them, one definition

GREEK = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "rho",
    "sigma",
    "tau",
    "phi",
    "chi",
    "psi",
    "omega",
]


def _unicode(name: str) -> str:
    """The letter's name as Unicode spells it (``lambda`` is LAMDA there)."""
    return name.upper().replace("LAMBDA", "LAMDA")


SYMBOLS = {
    **{name: unicodedata.lookup(f"GREEK SMALL LETTER {_unicode(name)}") for name in GREEK},
    **{
        name.capitalize(): unicodedata.lookup(f"GREEK CAPITAL LETTER {_unicode(name)}")
        for name in GREEK
    },
    "varepsilon": "ε",
    "varphi": "φ",
    "cdot": "·",
    "times": "×",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "neq": "≠",
    "ne": "≠",
    "approx": "≈",
    "to": "→",
    "rightarrow": "→",
    "mapsto": "↦",
    "implies": "⇒",
    "iff": "⇔",
    "infty": "∞",
    "sum": "Σ",
    "prod": "Π",
    "int": "∫",
    "in": "∈",
    "pm": "±",
    "sqrt": "√",
    "partial": "∂",
    "nabla": "∇",
    "langle": "⟨",
    "rangle": "⟩",
    "lVert": "‖",
    "rVert": "‖",
    "Vert": "‖",
    "mid": "|",
    "exists": "∃",
    "forall": "∀",
    "circ": "∘",
    "ldots": "…",
    "cdots": "…",
    "dots": "…",
    "vdots": "…",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lceil": "⌈",
    "rceil": "⌉",
    "equiv": "≡",
    "sim": "~",
    "propto": "∝",
    "ell": "ℓ",
    "quad": " ",
    "qquad": " ",
    "top": "T",
}
DROPPED = re.compile(
    r"\\(?:left|right|bigl|bigr|Bigl|Bigr|big|Big|displaystyle|scriptsize|small|limits)\b"
    r"|\\(?:begin|end)\{[^}]*\}(?:\{[^}]*\})?"
)
WRAPPER_NAMES = (
    "text|mathrm|operatorname|texttt|mathbf|mathsf|mathit|mathcal|boldsymbol"
    "|underbrace|overbrace|overline|hat|tilde|bar|vec"
)
WRAPPERS = re.compile(rf"\\(?:{WRAPPER_NAMES})\{{([^{{}}]*)\}}")
BARE_WRAPPER = re.compile(rf"\\(?:{WRAPPER_NAMES})\b")
FRACTION = re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}")
OVERSET = re.compile(r"\\(?:overset|underset|stackrel)\{([^{}]*)\}\{([^{}]*)\}")
SCRIPT = re.compile(r"([_^])\{([^{}]*)\}")
COMMAND = re.compile(r"\\([A-Za-z]+)")


def _group(text: str) -> str:
    """``text`` in parentheses when it holds an operator (``-2i/d``), else as it is."""
    text = text.strip()
    return f"({text})" if re.search(r"[\s+\-*/=,]", text) else text


def tex_to_text(tex: str) -> str:
    """A formula in plain text: ``\\omega_i = 10000^{-2i/d}`` -> ``ω_i = 10000^(-2i/d)``.

    Examples
    --------
    >>> tex_to_text(r"\\lambda_i = \\frac{2\\pi}{\\omega_i}")
    'λ_i = 2π/ω_i'
    >>> tex_to_text(r"\\begin{gathered}T_k\\,PE(p) = PE(p+k) \\\\ \\text{for all } k\\end{gathered}")
    'T_k PE(p) = PE(p+k); for all k'
    """
    text = BARE_WRAPPER.sub("", DROPPED.sub("", tex))
    text = text.replace("\\\\", "; ").replace("&", " ")
    text = re.sub(r"\\[,;:! ]", " ", text).replace(r"\{", "{").replace(r"\}", "}")
    known = COMMAND.sub(lambda m: SYMBOLS.get(m.group(1), m.group(0)), text)
    text = known
    for _ in range(6):  # innermost groups first, as long as something changes
        before = text
        text = WRAPPERS.sub(r"\1", text)
        text = FRACTION.sub(lambda m: f"{_group(m.group(1))}/{_group(m.group(2))}", text)
        text = OVERSET.sub(r"\2", text)
        text = SCRIPT.sub(lambda m: m.group(1) + _group(m.group(2)), text)
        if text == before:
            break
    text = COMMAND.sub(lambda m: SYMBOLS.get(m.group(1), m.group(1) + " "), text)
    text = text.replace("{", "").replace("}", "").replace("\\", "")
    text = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", text))
    return re.sub(r"\s+", " ", text).strip().replace(" ;", ";")


def plain(text: str) -> str:
    """Search text with its formulas in plain words, no pilcrow, no ``$`` and no backslash.

    Examples
    --------
    >>> plain(r'Wavelength \\(\\lambda_i = 2\\pi/\\omega_i\\)¶ and <code>$ pe prove</code>')
    'Wavelength λ_i = 2π/ω_i and <code>pe prove</code>'
    >>> plain(r"\\(0 \\le i &lt; d/2\\)")
    '0 ≤ i &lt; d/2'
    """

    def formula(match: re.Match[str]) -> str:
        tex = html.unescape(next(g for g in match.groups() if g is not None))
        return html.escape(tex_to_text(tex), quote=False)  # the index holds escaped HTML

    text = MATH.sub(formula, text)
    text = text.replace("¶", "")
    text = re.sub(r"(^|>|\n)\$ ", r"\1", text)  # shell prompts
    return text.replace("$", "").replace("\\", "")


def on_post_build(config: Any, **_: Any) -> None:
    """Rewrite the titles and texts of the search index in plain words."""
    path = Path(config["site_dir"]) / "search" / "search_index.json"
    if not path.exists():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    for doc in index.get("docs", []):
        doc["title"] = plain(doc.get("title", ""))
        doc["text"] = plain(doc.get("text", ""))
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
