"""Code to copy: the files of ``docs/examples/`` shown by source, one tab per framework.

The PyTorch modules and JAX functions a chapter offers live in ``docs/examples/`` as files a
reader can copy whole; ``tests/test_examples.py`` tests them against :mod:`pe.testing` (in
CI, where PyTorch and JAX are installed). A page shows them through :func:`tabs`, never
retyped: the text shown is the file's text, read while the page is built, so the site does
not need the frameworks. The NumPy tab shows :mod:`pe.from_scratch`, which the claims
``from-scratch-table`` and ``from-scratch-rope`` check against the library.

The tabs are the markup of Material for MkDocs' tabbed blocks (radio inputs and labels,
styled by the theme), so that they work without a script and read in order without the
theme (in a downloaded notebook every tab shows, one after the other).
"""

from __future__ import annotations

import html
import inspect
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from pe import from_scratch
from pe.site.html import Html, escape

__all__ = ["EXAMPLES", "code_block", "encoding_tabs", "example", "rope_tabs", "tabs"]

#: The folder of the code to copy, in the repository (the site is built from a clone).
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

_NAME = re.compile(r"[a-z][a-z0-9-]*")


def example(name: str) -> str:
    """The text of ``docs/examples/<name>``, as a reader copies it.

    Raises
    ------
    FileNotFoundError
        If there is no such file (the build fails: a page names code that does not exist).
    """
    path = EXAMPLES / name
    if not path.is_file():
        raise FileNotFoundError(f"no example {name!r} in {EXAMPLES}")
    return path.read_text(encoding="utf-8")


def code_block(text: str) -> Html:
    """``text`` as a Python code block (the theme adds its copy button).

    Examples
    --------
    >>> str(code_block("x = 1 < 2\\n"))
    '<pre class="pe-source"><code class="language-python">x = 1 &lt; 2\\n</code></pre>'
    """
    return Html(f'<pre class="pe-source"><code class="language-python">{escape(text)}</code></pre>')


def tabs(name: str, panels: Sequence[tuple[str, Html]]) -> Html:
    """Panels side by side as tabs, the first one shown; ``name`` makes the ids unique on
    the page (one set of tabs per name).

    Examples
    --------
    >>> out = str(tabs("demo", [("A", Html("<p>a</p>")), ("B", Html("<p>b</p>"))]))
    >>> out.count('type="radio"'), out.count('class="tabbed-block"'), 'checked' in out
    (2, 2, True)
    """
    if not _NAME.fullmatch(name) or not panels:
        raise ValueError(f"tabs need a lower-case name and at least one panel, got {name!r}")
    ids = [f"pe-tabs-{name}-{j}" for j in range(1, len(panels) + 1)]
    inputs = "".join(
        f'<input{" checked" if j == 0 else ""} id="{ident}" name="pe-tabs-{name}" type="radio">'
        for j, ident in enumerate(ids)
    )
    labels = "".join(
        f'<label for="{ident}">{html.escape(label)}</label>'
        for ident, (label, _) in zip(ids, panels, strict=True)
    )
    blocks = "".join(f'<div class="tabbed-block">{body}</div>' for _, body in panels)
    return Html(
        f'<div class="tabbed-set tabbed-alternate pe-code-tabs" data-tabs="{len(panels)}">'
        f'{inputs}<div class="tabbed-labels">{labels}</div>'
        f'<div class="tabbed-content">{blocks}</div></div>'
    )


def runnable_source(function: Callable[..., object]) -> str:
    """``function``'s source after its module's NumPy imports, so that it runs pasted alone.

    Examples
    --------
    >>> print(runnable_source(from_scratch.sinusoidal_table).splitlines()[0])
    import numpy as np
    """
    module = inspect.getmodule(function)
    lines = inspect.getsource(module).splitlines() if module is not None else []
    imports = [line for line in lines if line.startswith("import numpy")]
    return "\n".join(imports) + "\n\n\n" + inspect.getsource(function)


def encoding_tabs() -> Html:
    """The encoding to copy: a PyTorch module, plain NumPy, JAX."""
    return tabs(
        "encoding",
        [
            ("PyTorch", code_block(example("pytorch_sinusoidal.py"))),
            ("NumPy", code_block(runnable_source(from_scratch.sinusoidal_table))),
            ("JAX", code_block(example("jax_sinusoidal.py"))),
        ],
    )


def rope_tabs() -> Html:
    """RoPE to copy: a PyTorch module, plain NumPy, JAX."""
    return tabs(
        "rope",
        [
            ("PyTorch", code_block(example("pytorch_rope.py"))),
            ("NumPy", code_block(runnable_source(from_scratch.rope))),
            ("JAX", code_block(example("jax_rope.py"))),
        ],
    )
