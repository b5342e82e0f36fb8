"""Code to copy: the files of ``docs/examples/`` shown by source, one tab per framework.

The PyTorch modules and JAX functions a chapter offers live in ``docs/examples/`` as files a
reader can copy whole; ``tests/test_examples.py`` tests them against :mod:`pe.testing` (in
CI, where PyTorch and JAX are installed). A page shows them through :func:`tabs`, never
retyped: the text shown is the file's text, read while the page is built, so the site does
not need the frameworks; in each framework's tab, :func:`checks_of` names the tests that load
the file and the :mod:`pe.testing` assertions they call, read from the test module
(the build fails if a file shown has none). The NumPy tab shows :mod:`pe.from_scratch`, which the claims
``from-scratch-table`` and ``from-scratch-rope`` check against the library.

The tabs are the markup of Material for MkDocs' tabbed blocks (radio inputs and labels,
styled by the theme), so that they work without a script and read in order without the
theme (in a downloaded notebook every tab shows, one after the other).
"""

from __future__ import annotations

import ast
import html
import inspect
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from pe import from_scratch
from pe.site.html import Html, escape

__all__ = [
    "EXAMPLES",
    "TESTS",
    "checks_of",
    "code_block",
    "encoding_tabs",
    "example",
    "rope_tabs",
    "tabs",
]

#: The folder of the code to copy, in the repository (the site is built from a clone).
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
#: The tests of the PyTorch and JAX files (they need the frameworks, which the build does not).
TESTS = Path(__file__).resolve().parents[2] / "tests" / "test_examples.py"

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


def checks_of(name: str, tests: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The test functions of ``tests`` (a test module's text) that load the example ``name``
    (``example("<stem>", ...)``), and the :mod:`pe.testing` assertions they call.

    Raises
    ------
    ValueError
        If no test loads the file, or none of those that do calls a :mod:`pe.testing`
        assertion (the build fails: the page would show code that nothing checks).

    Examples
    --------
    >>> text = (
    ...     "def test_a():\\n    m = example('jax_rope', 'jax')\\n    assert_rope_relative(m)\\n"
    ...     "def test_b():\\n    example('pytorch_rope', 'torch')\\n"
    ... )
    >>> checks_of("jax_rope.py", text)
    (('test_a',), ('assert_rope_relative',))
    >>> checks_of("pytorch_rope.py", text)
    Traceback (most recent call last):
    ValueError: no test of pe.testing loads the example pytorch_rope.py
    """
    stem = Path(name).stem
    found: list[str] = []
    asserts: set[str] = set()
    for node in ast.parse(tests).body:
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
            continue
        calls = [c for c in ast.walk(node) if isinstance(c, ast.Call)]
        names = {c.func.id for c in calls if isinstance(c.func, ast.Name)}
        loads = any(
            isinstance(c.func, ast.Name)
            and c.func.id == "example"
            and c.args
            and isinstance(c.args[0], ast.Constant)
            and c.args[0].value == stem
            for c in calls
        )
        if loads:
            found.append(node.name)
            asserts |= {n for n in names if n in public_assertions()}
    if not found or not asserts:
        raise ValueError(f"no test of pe.testing loads the example {name}")
    return tuple(found), tuple(sorted(asserts))


def public_assertions() -> frozenset[str]:
    """The public assertions of :mod:`pe.testing`.

    Examples
    --------
    >>> "assert_matches_paper" in public_assertions()
    True
    """
    from pe import testing

    return frozenset(n for n in testing.__all__ if n.startswith("assert_"))


def _tested(name: str) -> Html:
    """``docs/examples/<name>`` as code to copy, and a line naming the tests that check it."""
    tests, asserts = checks_of(name, TESTS.read_text(encoding="utf-8"))
    shown = ", ".join(f"<code>{t}</code>" for t in tests)
    used = " and ".join(f"<code>pe.testing.{a}</code>" for a in asserts)
    return Html(
        f'{code_block(example(name))}<p class="pe-tested">Tested in CI with {used} by {shown} '
        f"(<code>tests/test_examples.py</code>).</p>"
    )


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
    """The encoding to copy: a PyTorch module, plain NumPy, JAX, and each framework file
    with the tests that check it."""
    return tabs(
        "encoding",
        [
            ("PyTorch", _tested("pytorch_sinusoidal.py")),
            ("NumPy", code_block(runnable_source(from_scratch.sinusoidal_table))),
            ("JAX", _tested("jax_sinusoidal.py")),
        ],
    )


def rope_tabs() -> Html:
    """RoPE to copy: a PyTorch module, plain NumPy, JAX, each framework file with
    the tests that check it."""
    return tabs(
        "rope",
        [
            ("PyTorch", _tested("pytorch_rope.py")),
            ("NumPy", code_block(runnable_source(from_scratch.rope))),
            ("JAX", _tested("jax_rope.py")),
        ],
    )
