"""The ``pe`` command: ``pe prove``, ``pe check``, ``pe verify`` and ``pe identify``.

Exit status: 0 when everything shown holds, 1 when a proof, check or claim fails (or, for
``pe identify``, when the table is not a sinusoidal encoding), 2 for bad arguments (a usage
line and a one-line error on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import numpy as np

__all__ = ["build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a usage line and one error line, exit 2."""

    def error(self, message: str) -> NoReturn:
        # Arguments echoed in the message may hold line breaks: keep the error on one line.
        one_line = message.replace("\r", "\\r").replace("\n", "\\n")
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {one_line}\n")


def _even_width(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an even integer >= 2, got {text!r}") from None
    if value < 2 or value % 2:
        raise argparse.ArgumentTypeError(f"expected an even integer >= 2, got {value}")
    return value


def _width(default: int, help: str) -> dict[str, Any]:
    """The keyword arguments of a ``--d-model`` option."""
    return {"type": _even_width, "default": default, "metavar": "N", "help": help}


def _base(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number > 1, got {text!r}") from None
    if not 1.0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number > 1, got {text}")
    return value


def _bounded_count(limit: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
        if not 1 <= value <= limit:
            raise argparse.ArgumentTypeError(f"expected an integer from 1 to {limit}, got {value}")
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``pe`` (also used to generate the CLI reference page)."""
    parser = _Parser(
        prog="pe",
        description=(
            "The sinusoidal positional encoding of Transformers: prove the rotation identity "
            "PE(p+k) = T_k PE(p) with SymPy, check it with NumPy, verify every claim of the site."
        ),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    prove = commands.add_parser(
        "prove",
        help="print the SymPy proof of the rotation identity, step by step",
        description="Print the SymPy proofs of the rotation identity and of the nature of T_k, "
        "step by step, each with its verdict (PROVED, DISPROVED at an exact point, or NOT "
        "DECIDED), then the wrong candidates for the block with their exact counterexamples. "
        "Exit 0 iff every proof reduces to exactly 0 and every wrong candidate is disproved.",
    )
    prove.add_argument(
        "--d-model",
        **_width(8, "width for the exact block-diagonal proof (even, at most 512; default 8)"),
    )

    check = commands.add_parser(
        "check",
        help="check T_k PE(p) = PE(p+k) numerically and print the error table",
        description="Check T_k PE(p) = PE(p+k) for positions 0..P-1 and offsets 0..K-1 and "
        "print the largest error per group of offsets against the error model's tolerance. "
        "Exit 0 iff every entry is within tolerance.",
    )
    check.add_argument("--d-model", **_width(512, "even model width (default 512)"))
    for counted, limit, default in (("positions", 1_000_000, 1024), ("offsets", 100_000, 64)):
        check.add_argument(
            f"--{counted}",
            type=_bounded_count(limit),
            default=default,
            metavar="N",
            help=f"check {counted} 0..N-1 (default {default})",
        )
    check.add_argument(
        "--dtype",
        choices=("float32", "float64"),
        default="float64",
        help="precision of the table and the product (default float64)",
    )
    check.add_argument(
        "--base",
        type=_base,
        default=10000.0,
        metavar="B",
        help="base of the frequency law, > 1 (default 10000)",
    )

    verify = commands.add_parser(
        "verify",
        help="run every registered claim and print a table (or JSON)",
        description="Run the proof and/or check of every claim in pe.claims, and the wrong "
        "candidates that each must reject, with the registry's self-checks (each control also "
        "passes its true candidate; every wrong candidate errs by more than its tolerance plus "
        "twice its rounding bound; no exception). Exit 0 iff all hold, all controls are "
        "rejected and every self-check passes; 1 otherwise (a claim that raises fails, never "
        "exit 2).",
    )
    verify.add_argument(
        "--json",
        action="store_true",
        help="print a JSON list of objects (id, statement, method, holds, ...)",
    )

    identify = commands.add_parser(
        "identify",
        usage="pe identify SOURCE [--tensor NAME | --list] [--n N --d D] [--json] [-h]",
        help="tell which sinusoidal convention a table follows (a FILE or MODULE:FUNCTION)",
        description="Identify the layout, order, frequencies, offset, law and base of a "
        "sinusoidal encoding table and say how it differs from the paper's. SOURCE is a "
        "FILE.npy holding an (n, d) float array whose rows are consecutive positions (or "
        "(1, n, d), (n, 1, d), or (b, n, d) with b equal tables); a FILE.npz, "
        "FILE.safetensors or PyTorch checkpoint FILE.bin, FILE.pt or FILE.pth holding it as "
        "the tensor --tensor NAME (float16, bfloat16, float32 or float64; a PyTorch file is "
        "read without torch and its pickle never runs: one that asks for anything but "
        "tensors is refused); or MODULE:FUNCTION (MODULE a dotted name importable from the "
        "current directory, or a path to a .py file), called as FUNCTION(N, D) with two "
        "positional integers and returning an (N, D) array (NumPy, PyTorch, JAX, or "
        "anything numpy.asarray accepts). "
        "Exit 0 when the table is a sinusoidal encoding (or --list printed the tensors), 1 "
        "when it is not, 2 for bad input.",
    )
    identify.add_argument(
        "source",
        metavar="SOURCE",
        help="FILE.npy, FILE.npz, FILE.safetensors, FILE.bin, FILE.pt, FILE.pth or MODULE:FUNCTION",
    )
    identify.add_argument(
        "--tensor",
        metavar="NAME",
        help="the tensor to read from a checkpoint (without it, the error lists the likeliest "
        "tables: most sinusoid-like first rows, then names that speak of positions)",
    )
    identify.add_argument(
        "--list",
        action="store_true",
        help="list every tensor of the file, likeliest tables first, and exit",
    )
    identify.add_argument(
        "--n",
        type=_bounded_count(1_000_000),
        metavar="N",
        help="rows (positions) to ask FUNCTION for (required with MODULE:FUNCTION; >= 16)",
    )
    identify.add_argument(
        "--d",
        type=_bounded_count(65_536),
        metavar="D",
        help="width to ask FUNCTION for (required with MODULE:FUNCTION)",
    )
    identify.add_argument(
        "--json", action="store_true", help="print every field as JSON instead of words"
    )
    return parser


def _prove(args: argparse.Namespace) -> int:
    import sympy as sp

    from pe import symbolic
    from pe.chapters import rotation_identity as theorems

    proofs = [
        theorems.rotation_identity(),
        theorems.block_diagonal_identity(args.d_model),
        theorems.shift_is_position_free(),
        theorems.shift_is_orthogonal(),
    ]
    omega = sp.Symbol("ω")

    def show(expr: sp.Matrix) -> str:
        """Each entry on its own line, with base**(-2i/d) written as ω."""
        entries = expr.subs(symbolic.OMEGA, omega)
        return "\n".join(
            f"      [{n}] {sp.pretty(e, use_unicode=True, wrap_line=False)}"
            for n, e in enumerate(entries)
        )

    for proof in proofs:
        print(f"== {proof.name}  (ω = base^(-2i/d))")
        for number, step in enumerate(proof.steps, start=1):
            print(f"  {number}. {step.title}")
            if step.expr is not None:
                print(show(step.expr))
        entries = list(proof.residual)
        zeros = sum(1 for e in entries if e == 0)
        print(f"  final residual: {zeros} of {len(entries)} entries are exactly 0")
        print(f"  -> {_verdict(proof)}\n")
    proved = sum(p.verdict is symbolic.Verdict.PROVED for p in proofs)
    print(f"{proved} of {len(proofs)} proofs reduce to exactly 0")
    print("\nWrong candidates for the block (each must be disproved at an exact point):")
    disproved = 0
    for candidate in theorems.WRONG_BLOCKS:
        proof = theorems.rotation_identity(candidate.value)
        disproved += proof.verdict is symbolic.Verdict.DISPROVED
        print(f"  {candidate.name}: {_verdict(proof)}")
    count = len(theorems.WRONG_BLOCKS)
    print(f"{disproved} of {count} wrong candidates disproved with an exact counterexample")
    return 0 if proved == len(proofs) and disproved == count else 1


def _verdict(proof: Any) -> str:
    """The verdict of a :class:`pe.symbolic.Proof` in one line, with its exact point."""
    from pe.symbolic import Verdict

    if proof.verdict is Verdict.PROVED:
        return "PROVED"
    if proof.verdict is Verdict.DISPROVED:
        return f"DISPROVED {proof.counterexample.text()}"
    return f"NOT DECIDED ({proof.reason})"


def _offset_groups(count: int) -> list[np.ndarray]:
    """Offsets 0..count-1 grouped as [0], [1], [2, 3], [4..7], ..."""
    groups, start = [np.array([0])], 1
    while start < count:
        groups.append(np.arange(start, min(2 * start, count)))
        start *= 2
    return groups


def _check(args: argparse.Namespace) -> int:
    from pe import numeric
    from pe.error_models import SHIFT

    header = f"{'offsets k':>15} {'max |error|':>12} {'at p':>8} {'column':>7} {'tolerance':>10}  verdict"
    print(
        f"T_k PE(p) = PE(p+k): d_model={args.d_model}, positions 0..{args.positions - 1}, "
        f"base={args.base:g}, {args.dtype}"
    )
    print(header)
    print("-" * len(header))
    all_passed = True
    for group in _offset_groups(args.offsets):
        result = numeric.check_rotation_identity(
            args.d_model, args.positions, group, base=args.base, dtype=args.dtype
        )
        label = str(group[0]) if group.size == 1 else f"{group[0]}..{group[-1]}"
        verdict = "ok" if result.passed else "FAIL"
        print(
            f"{label:>15} {result.max_abs_error:12.3e} {result.position:8d} "
            f"{result.column:7d} {result.tolerance:10.2e}  {verdict}"
        )
        all_passed &= result.passed
    print(
        f"\n{'all entries within tolerance' if all_passed else 'SOME ENTRIES EXCEED TOLERANCE'}"
        f" (tolerance {SHIFT.text}, see pe.numeric)"
    )
    return 0 if all_passed else 1


def _verify(args: argparse.Namespace) -> int:
    from pe import claims

    results = claims.verify_all()
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=2))
    else:
        width = max(len(r.id) for r in results)
        print(
            f"{'claim':<{width}}  {'method':<11} {'holds':<6} {'controls':<9} "
            f"{'worst ratio':>11}  {'self-check':<10} seconds"
        )
        for r in results:
            ratios = [e.ratio for e in r.evidence if e.ratio is not None]
            worst = f"{max(ratios):11.3g}" if ratios else f"{'-':>11}"
            flags = [
                name
                for name, found in (
                    ("BROKEN", r.broken_controls),
                    ("LOOSE", r.loose),
                    ("ERROR", r.errors),
                )
                if found
            ]
            print(
                f"{r.id:<{width}}  {r.method:<11} {'yes' if r.holds else 'NO':<6} "
                f"{'rejected' if r.controls_rejected else 'ACCEPTED':<9} {worst}  "
                f"{'+'.join(flags) or 'ok':<10} {r.seconds:7.2f}"
            )
        for r in results:
            for problem in r.problems:
                print(f"  {r.id}: {problem}")
        for r in results:
            if r.source is not None:
                how = "cited from" if r.method == "source" else "recomputed from"
                print(f"  {r.id}: {how} {r.source} (docs/bibliography.md#{r.source})")
        ok = sum(r.ok for r in results)
        print(
            f"\n{ok} of {len(results)} claims hold with every wrong candidate rejected and "
            "every self-check passed (worst ratio: largest error/tolerance of the evidence)"
        )
    return 0 if all(r.ok for r in results) else 1


def _identify(args: argparse.Namespace) -> int:
    from pe.identify import call_function, identify, load_table
    from pe.identify._files import SUFFIXES, list_tensors

    stored = None
    if args.source.lower().endswith(SUFFIXES):
        if args.n is not None or args.d is not None:
            raise ValueError("--n and --d apply to MODULE:FUNCTION, not to a file")
        if args.list:
            if args.tensor is not None or args.json:
                raise ValueError("--list takes no --tensor and no --json")
            print(f"source: {args.source}: tensors, likeliest tables first")
            print("\n".join(list_tensors(args.source)))
            return 0
        loaded = load_table(args.source, args.tensor)
        table, stored = loaded.array, loaded.stored_dtype
    elif ":" in args.source:
        if args.n is None or args.d is None or args.tensor is not None or args.list:
            raise ValueError("MODULE:FUNCTION needs --n N and --d D (and no --tensor, --list)")
        table = call_function(args.source, args.n, args.d)
    else:
        raise ValueError(
            f"SOURCE must be a file ({', '.join('FILE' + s for s in SUFFIXES)}) or "
            f"MODULE:FUNCTION, got {args.source!r}"
        )
    result = identify(table, stored_dtype=stored)
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(f"source: {args.source}" + (f", tensor {args.tensor}" if args.tensor else ""))
        print(result.summary())
    return 0 if result.is_encoding else 1


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "prove": _prove,
    "check": _check,
    "verify": _verify,
    "identify": _identify,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pe`` command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # The output is held until the command has finished, so that an argument refused late
    # (e.g. a table above pe.MAX_BYTES) leaves no partial output behind, only the error.
    output = io.StringIO()
    try:
        with contextlib.redirect_stdout(output):
            status = _COMMANDS[args.command](args)
    except (ValueError, TypeError, OSError) as error:
        sub = parser if args.command is None else _subparser(parser, args.command)
        sub.error(" ".join(str(error).split()))  # one line, whatever the message
    except MemoryError:
        parser.error("not enough memory for this request; ask for fewer positions or offsets")
    try:
        sys.stdout.write(output.getvalue())
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `pe prove | head`: stop quietly
        sys.stderr.close()
        return 0
    return status


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    return parser


if __name__ == "__main__":
    sys.exit(main())
