r"""The result of :func:`pe.identify.identify`: :class:`Identification`, and how it is shown."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "Float64Array",
    "Identification",
    "LawName",
    "base_agrees",
    "precision_weights",
    "significant_digits",
]

Float64Array = npt.NDArray[np.float64]

LawName = Literal["paper", "tensor2tensor", "other"]


def precision_weights(sigma: npt.ArrayLike) -> Float64Array:
    """``1 / sigma**2``, finite for every ``sigma`` (a zero uncertainty, of a column of
    frequency 0, counts as ``1e-150``: its square is still a normal float64 number).

    Examples
    --------
    >>> weights = precision_weights([0.5, 0.0])
    >>> float(weights[0]), bool(np.isfinite(weights[1]))
    (4.0, True)
    """
    floor = np.maximum(np.asarray(sigma, dtype=np.float64), 1e-150)
    return np.asarray(1.0 / (floor * floor), dtype=np.float64)


def base_agrees(base: float | None, uncertainty: float | None, expected: float) -> bool:
    """Whether a fitted base is ``expected`` within two uncertainties (or 1e-9 relative).

    Examples
    --------
    >>> base_agrees(10000.3, 0.2, 10000.0), base_agrees(10001.0, 0.2, 10000.0)
    (True, False)
    """
    if base is None:
        return False
    return abs(base - expected) <= max(2 * (uncertainty or 0.0), 1e-9 * abs(expected))


@dataclass(frozen=True)
class Identification:
    """What :func:`~pe.identify.identify` found.

    Attributes
    ----------
    is_encoding
        False when the table is not a sinusoidal encoding (then ``reason`` says why and
        the other fields are empty or None).
    reason
        One sentence: the verdict.
    shape, dtype
        The table's shape and dtype.
    layout
        ``"interleaved"`` (pair ``k`` in columns ``2k, 2k+1``) or ``"halves"``.
    order
        ``"sin-first"`` or ``"cos-first"``.
    sin_frequencies, cos_frequencies
        Length ``d // 2``, pair by pair in column order, each column fitted on its own
        (principal values in :math:`[0, \\pi]`).
    sin_uncertainty, cos_uncertainty
        Their one-sigma uncertainties.
    position_offset
        The position of row 0 (an integer).
    law
        ``"paper"``, ``"tensor2tensor"`` or ``"other"``.
    base
        The fitted base where a geometric law fits, else None.
    base_uncertainty
        One-sigma uncertainty of ``base``.
    matches_paper
        Paper layout and order, paper law, base 10000 and offset 0, within the precision.
    notes
        Plain-language deviations from the paper and caveats.
    unpaired_column
        For odd widths, the column without a partner (None otherwise).
    split_pairs
        Pairs (by index) whose sine and cosine columns have different frequencies, beyond
        the table's precision (and not by aliasing): one frequency per pair means nothing there.
    padding_rows
        Rows that are all zeros: a padding row, such as row 1 of fairseq's stored tables.
    first_token_row
        The row the first token reads: after the padding rows at the start of the table
        (2 for fairseq's stored tables, whose row 1 is the padding row), else 0.

    Examples
    --------
    >>> refused = Identification(False, "not an encoding: every value is 0", (16, 4), "float64")
    >>> print(refused.summary())
    table: 16 rows x 4 columns, float64
    verdict: not an encoding: every value is 0
    """

    is_encoding: bool
    reason: str
    shape: tuple[int, int]
    dtype: str
    layout: str | None = None
    order: str | None = None
    sin_frequencies: Float64Array = field(default_factory=lambda: np.zeros(0))
    cos_frequencies: Float64Array = field(default_factory=lambda: np.zeros(0))
    sin_uncertainty: Float64Array = field(default_factory=lambda: np.zeros(0))
    cos_uncertainty: Float64Array = field(default_factory=lambda: np.zeros(0))
    position_offset: int | None = None
    law: LawName | None = None
    base: float | None = None
    base_uncertainty: float | None = None
    matches_paper: bool = False
    notes: tuple[str, ...] = ()
    unpaired_column: int | None = None
    padding_rows: tuple[int, ...] = ()
    first_token_row: int = 0
    split_pairs: tuple[int, ...] = ()

    @property
    def frequencies(self) -> Float64Array:
        """One frequency per pair: the sine's and cosine's, weighted by their precision
        (a compromise with no meaning in :attr:`split_pairs`)."""
        ws, wc = precision_weights(self.sin_uncertainty), precision_weights(self.cos_uncertainty)
        return np.asarray(
            (ws * self.sin_frequencies + wc * self.cos_frequencies) / (ws + wc), dtype=np.float64
        )

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict of every field (arrays as lists)."""

        def floats(a: Float64Array) -> list[float]:
            return [float(v) for v in a]

        return {
            "is_encoding": self.is_encoding,
            "reason": self.reason,
            "shape": list(self.shape),
            "dtype": self.dtype,
            "layout": self.layout,
            "order": self.order,
            "position_offset": self.position_offset,
            "law": self.law,
            "base": self.base,
            "base_uncertainty": self.base_uncertainty,
            "matches_paper": self.matches_paper,
            "notes": list(self.notes),
            "unpaired_column": self.unpaired_column,
            "padding_rows": list(self.padding_rows),
            "first_token_row": self.first_token_row,
            "split_pairs": list(self.split_pairs),
            "sin_frequencies": floats(self.sin_frequencies),
            "cos_frequencies": floats(self.cos_frequencies),
            "sin_uncertainty": floats(self.sin_uncertainty),
            "cos_uncertainty": floats(self.cos_uncertainty),
        }

    def summary(self) -> str:
        """The verdict in words, several lines."""
        n, d = self.shape
        lines = [f"table: {n} rows x {d} columns, {self.dtype}", f"verdict: {self.reason}"]
        if self.is_encoding:
            lines.append(f"layout: {self.layout}, {self.order}")
            if self.base is not None:
                lines.append(f"law: {self.law}, base {_show_base(self)}")
            else:
                lines.append(f"law: {self.law}")
            lines.append(f"row 0 is position {self.position_offset}")
            if self.first_token_row:
                offset = self.position_offset or 0
                lines.append(
                    f"tokens start at row {self.first_token_row} (position "
                    f"{offset + self.first_token_row}); padding row "
                    f"{', '.join(map(str, self.padding_rows))} is zeros"
                )
            lines.append(self._frequency_line())
        if self.notes:
            lines.append("notes:")
            lines.extend(f"  - {note}" for note in self.notes)
        return "\n".join(lines)

    def _frequency_line(self) -> str:
        freq = self.frequencies
        if not freq.size:
            return "frequencies: none"
        if not self.split_pairs:
            return f"frequencies: {freq.size} pairs, from {freq[0]:.6g} to {freq[-1]:.6g}"
        sines, cosines = self.sin_frequencies, self.cos_frequencies
        return (
            f"frequencies: {freq.size} pairs, sine and cosine apart in {len(self.split_pairs)}: "
            f"sines from {sines[0]:.6g} to {sines[-1]:.6g}, cosines from {cosines[0]:.6g} "
            f"to {cosines[-1]:.6g}"
        )


def _show_base(result: Identification) -> str:
    base, unc = result.base or 0.0, result.base_uncertainty or 0.0
    digits = significant_digits(base, max(unc / base, 1e-12)) if base > 0 else 6
    text = f"{base:.{max(digits, 1) - 1}e}"
    mantissa, exponent = text.split("e")
    shown = f"{float(text):.10g}" if abs(int(exponent)) < 7 else f"{mantissa}e{int(exponent)}"
    return f"{shown} (± {unc:.2g})"


def significant_digits(value: float, rel_tol: float) -> int:
    """Fewest significant digits that write ``value`` within ``rel_tol`` (relative).

    Examples
    --------
    >>> significant_digits(10000.000001, 1e-6), significant_digits(10000.0 ** (64 / 62), 1e-6)
    (1, 6)
    """
    for digits in range(1, 17):
        rounded = float(f"{value:.{digits - 1}e}")
        if abs(rounded - value) <= rel_tol * abs(value):
            return digits
    return 17
