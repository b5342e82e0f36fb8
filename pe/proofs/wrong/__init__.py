r"""Named wrong candidates: the neighbouring statements a reader might believe.

Every proof, claim and test that must reject a wrong candidate takes it from here, so
that one wrong block has one definition. The candidates are defined by chapter, in
``pe.proofs.wrong.<chapter>``, and all importable from this package. A :class:`Candidate` is a value with a name;
claims pass it to the same proof or check that the true candidate passes
(:class:`pe.claims.Check`), and the registry prefixes its verdict with the name.

The candidates for the shift block :math:`B(k, \omega)` are functions
``(k, w) -> 2 x 2 sympy.Matrix`` (the signature of :func:`pe.symbolic.shift_block`);
for the shift matrix :math:`T_k` they are functions ``(k, d, base) -> ndarray`` (the
signature of :func:`pe.numeric.shift_matrix`); for the RoPE rotation they are functions
``(position, w) -> 2 x 2 sympy.Matrix``.

Examples
--------
>>> import sympy as sp
>>> from pe import symbolic
>>> from pe.proofs import wrong
>>> k, w = sp.symbols("k w", real=True)
>>> wrong.TRANSPOSED_BLOCK.value(k, w) == symbolic.shift_block(-k, w)
True
>>> wrong.TRANSPOSED_BLOCK.name
'transposed block'
"""

from __future__ import annotations

from pe.proofs.wrong._candidate import Block as Block
from pe.proofs.wrong._candidate import Candidate as Candidate
from pe.proofs.wrong._candidate import ShiftMatrix as ShiftMatrix
from pe.proofs.wrong.conventions import BASE_CUBED as BASE_CUBED
from pe.proofs.wrong.conventions import COS_FIRST_UNCONJUGATED as COS_FIRST_UNCONJUGATED
from pe.proofs.wrong.conventions import COUNTER_CLOCKWISE_PHASE as COUNTER_CLOCKWISE_PHASE
from pe.proofs.wrong.conventions import FAIRSEQ_FROM_ONE as FAIRSEQ_FROM_ONE
from pe.proofs.wrong.conventions import FLAT_PAPER_TOLERANCE as FLAT_PAPER_TOLERANCE
from pe.proofs.wrong.conventions import HALF_TURN_ALIAS as HALF_TURN_ALIAS
from pe.proofs.wrong.conventions import INTERLEAVED_SWAPPED as INTERLEAVED_SWAPPED
from pe.proofs.wrong.conventions import NOISY_PAPER_TABLE as NOISY_PAPER_TABLE
from pe.proofs.wrong.conventions import ONE_INDEXED_SAME_BASE as ONE_INDEXED_SAME_BASE
from pe.proofs.wrong.conventions import PAPER_TABLE as PAPER_TABLE
from pe.proofs.wrong.conventions import SWAPPED_PARTNERS as SWAPPED_PARTNERS
from pe.proofs.wrong.conventions import (
    T2T_DESCRIBED_WITH_HALF_WIDTH as T2T_DESCRIBED_WITH_HALF_WIDTH,
)
from pe.proofs.wrong.conventions import T2T_EXPONENT_D_MINUS_1 as T2T_EXPONENT_D_MINUS_1
from pe.proofs.wrong.conventions import T2T_SAME_BASE as T2T_SAME_BASE
from pe.proofs.wrong.conventions import TRANSPOSED_CONJUGATION as TRANSPOSED_CONJUGATION
from pe.proofs.wrong.conventions import UNCONJUGATED_SHIFT as UNCONJUGATED_SHIFT
from pe.proofs.wrong.conventions import UNIFORM_NOISE_TABLE as UNIFORM_NOISE_TABLE
from pe.proofs.wrong.conventions import ZERO_TABLE as ZERO_TABLE
from pe.proofs.wrong.failed_designs import CONSTANT_GAP as CONSTANT_GAP
from pe.proofs.wrong.failed_designs import DOUBLED_COSINE_PAIR as DOUBLED_COSINE_PAIR
from pe.proofs.wrong.failed_designs import FLOAT64_ANGLES_DESIGN as FLOAT64_ANGLES_DESIGN
from pe.proofs.wrong.failed_designs import FOUR_PAIRS as FOUR_PAIRS
from pe.proofs.wrong.failed_designs import GAP_ONE_OVER_N_MINUS_ONE as GAP_ONE_OVER_N_MINUS_ONE
from pe.proofs.wrong.failed_designs import LEARNED_TABLE as LEARNED_TABLE
from pe.proofs.wrong.failed_designs import LOG2_ROUNDED_DOWN as LOG2_ROUNDED_DOWN
from pe.proofs.wrong.failed_designs import NORMALISED_INDEX as NORMALISED_INDEX
from pe.proofs.wrong.failed_designs import PAIR_SHARE as PAIR_SHARE
from pe.proofs.wrong.failed_designs import RATIONAL_TURN as RATIONAL_TURN
from pe.proofs.wrong.failed_designs import RAW_INDEX as RAW_INDEX
from pe.proofs.wrong.failed_designs import RAW_INDEX_PAIR as RAW_INDEX_PAIR
from pe.proofs.wrong.failed_designs import ROTATED_FROM_FIRST as ROTATED_FROM_FIRST
from pe.proofs.wrong.failed_designs import SINGLE_PAIR as SINGLE_PAIR
from pe.proofs.wrong.failed_designs import SINUSOIDAL_DESIGN as SINUSOIDAL_DESIGN
from pe.proofs.wrong.fixed_or_learned import CANCELLING_SUBLAYER as CANCELLING_SUBLAYER
from pe.proofs.wrong.fixed_or_learned import INSIDE_TRAINING as INSIDE_TRAINING
from pe.proofs.wrong.fixed_or_learned import LAST_TRAINED_POSITION as LAST_TRAINED_POSITION
from pe.proofs.wrong.fixed_or_learned import LEARNED_LOOKUP as LEARNED_LOOKUP
from pe.proofs.wrong.fixed_or_learned import PLAIN_STACK as PLAIN_STACK
from pe.proofs.wrong.fixed_or_learned import POST_LN_STACK as POST_LN_STACK
from pe.proofs.wrong.fixed_or_learned import ROW_FOR_N_MAX as ROW_FOR_N_MAX
from pe.proofs.wrong.implications import BINARY_COUNTER as BINARY_COUNTER
from pe.proofs.wrong.implications import BINARY_TURNS as BINARY_TURNS
from pe.proofs.wrong.implications import COUPLED_ROTATION_PROJECTION as COUPLED_ROTATION_PROJECTION
from pe.proofs.wrong.implications import CROSS_TERMS_DROPPED as CROSS_TERMS_DROPPED
from pe.proofs.wrong.implications import DIFFERENCE_ONLY as DIFFERENCE_ONLY
from pe.proofs.wrong.implications import DOUBLE_ANGLE_COSINE as DOUBLE_ANGLE_COSINE
from pe.proofs.wrong.implications import DOUBLED_EXPONENT as DOUBLED_EXPONENT
from pe.proofs.wrong.implications import IDENTITY_PROJECTION as IDENTITY_PROJECTION
from pe.proofs.wrong.implications import MIXED_FREQUENCY_PAIR as MIXED_FREQUENCY_PAIR
from pe.proofs.wrong.implications import MONOTONE_DECAY as MONOTONE_DECAY
from pe.proofs.wrong.implications import NORM_SQUARED_D as NORM_SQUARED_D
from pe.proofs.wrong.implications import PAIR0_SLOWEST_ANGLE as PAIR0_SLOWEST_ANGLE
from pe.proofs.wrong.implications import RANDOM_PROJECTION as RANDOM_PROJECTION
from pe.proofs.wrong.implications import RATIONAL_PERIOD as RATIONAL_PERIOD
from pe.proofs.wrong.implications import RISES_STAYS_POSITIVE as RISES_STAYS_POSITIVE
from pe.proofs.wrong.implications import ROTATION_PROJECTION as ROTATION_PROJECTION
from pe.proofs.wrong.implications import SHIFT_BETWEEN_ROWS as SHIFT_BETWEEN_ROWS
from pe.proofs.wrong.implications import SUM_ANGLE_DISTANCE as SUM_ANGLE_DISTANCE
from pe.proofs.wrong.precision import CHAINED_COMPLEX64 as CHAINED_COMPLEX64
from pe.proofs.wrong.precision import CONJUGATE_FACTOR as CONJUGATE_FACTOR
from pe.proofs.wrong.precision import CORRECTLY_ROUNDED_64 as CORRECTLY_ROUNDED_64
from pe.proofs.wrong.precision import DIRECT_FLOAT32_TABLE as DIRECT_FLOAT32_TABLE
from pe.proofs.wrong.precision import DIRECT_FLOAT64_TABLE as DIRECT_FLOAT64_TABLE
from pe.proofs.wrong.precision import FLOAT32_RECIPE as FLOAT32_RECIPE
from pe.proofs.wrong.precision import FLOAT64_ANGLE_ANCHORS as FLOAT64_ANGLE_ANCHORS
from pe.proofs.wrong.precision import NUDGED_SHIFT_MATRIX as NUDGED_SHIFT_MATRIX
from pe.proofs.wrong.precision import OTHER_BASE_SHIFT_MATRIX as OTHER_BASE_SHIFT_MATRIX
from pe.proofs.wrong.precision import ROUNDED_ANGLES as ROUNDED_ANGLES
from pe.proofs.wrong.precision import SWAPPED_FACTOR as SWAPPED_FACTOR
from pe.proofs.wrong.precision import TWO_DOUBLE_FREQUENCIES as TWO_DOUBLE_FREQUENCIES
from pe.proofs.wrong.relative_family import DIRECTION_FORGOTTEN as DIRECTION_FORGOTTEN
from pe.proofs.wrong.relative_family import HALVING_SLOPES as HALVING_SLOPES
from pe.proofs.wrong.relative_family import LEARNED_ABSOLUTE as LEARNED_ABSOLUTE
from pe.proofs.wrong.relative_family import NO_CAUSAL_MASK as NO_CAUSAL_MASK
from pe.proofs.wrong.relative_family import NO_CLIPPING as NO_CLIPPING
from pe.proofs.wrong.relative_family import NO_INTERPOLATION as NO_INTERPOLATION
from pe.proofs.wrong.relative_family import NO_UNSEEN_PAIRS as NO_UNSEEN_PAIRS
from pe.proofs.wrong.relative_family import NTK_IN_RANGE as NTK_IN_RANGE
from pe.proofs.wrong.relative_family import PLAIN_BASE_SCALING as PLAIN_BASE_SCALING
from pe.proofs.wrong.relative_family import SINUSOIDAL_ADDED as SINUSOIDAL_ADDED
from pe.proofs.wrong.relative_family import SLOWEST_PAIR_TOO as SLOWEST_PAIR_TOO
from pe.proofs.wrong.relative_family import TERM_C_LEFT_OUT as TERM_C_LEFT_OUT
from pe.proofs.wrong.relative_family import UNCAPPED_BUCKETS as UNCAPPED_BUCKETS
from pe.proofs.wrong.relative_family import UNMASKED_MEAN as UNMASKED_MEAN
from pe.proofs.wrong.rope import ABEL_SIGN_FLIPPED as ABEL_SIGN_FLIPPED
from pe.proofs.wrong.rope import ALIBI_SEQUENCE as ALIBI_SEQUENCE
from pe.proofs.wrong.rope import FLIPPED_ROPE as FLIPPED_ROPE
from pe.proofs.wrong.rope import FLOAT16_ANGLES as FLOAT16_ANGLES
from pe.proofs.wrong.rope import FLOAT32_ANGLES as FLOAT32_ANGLES
from pe.proofs.wrong.rope import FLOAT32_TOLERANCE as FLOAT32_TOLERANCE
from pe.proofs.wrong.rope import IDENTITY_PROJECTIONS as IDENTITY_PROJECTIONS
from pe.proofs.wrong.rope import LAST_PARTIAL_SUM as LAST_PARTIAL_SUM
from pe.proofs.wrong.rope import NO_PERMUTATION as NO_PERMUTATION
from pe.proofs.wrong.rope import ONLY_QUERY_PERMUTED as ONLY_QUERY_PERMUTED
from pe.proofs.wrong.rope import PARTIAL_SUM_SHIFTED as PARTIAL_SUM_SHIFTED
from pe.proofs.wrong.rope import PLAIN_ROPE_BACKWARDS as PLAIN_ROPE_BACKWARDS
from pe.proofs.wrong.rope import ROPE_AFTER_PROJECTION as ROPE_AFTER_PROJECTION
from pe.proofs.wrong.rope import ROTATE_BEFORE_PROJECTING as ROTATE_BEFORE_PROJECTING
from pe.proofs.wrong.rope import SCALED_ROTATION as SCALED_ROTATION
from pe.proofs.wrong.rope import SQUARED_ANGLE as SQUARED_ANGLE
from pe.proofs.wrong.rope import TRANSPOSED_PERMUTATION as TRANSPOSED_PERMUTATION
from pe.proofs.wrong.rope import TRANSPOSED_ROTATION as TRANSPOSED_ROTATION
from pe.proofs.wrong.rotation_identity import DOUBLED_FREQUENCY_BLOCK as DOUBLED_FREQUENCY_BLOCK
from pe.proofs.wrong.rotation_identity import FLIPPED_SINE_SHIFT_MATRIX as FLIPPED_SINE_SHIFT_MATRIX
from pe.proofs.wrong.rotation_identity import INVERSE_IS_SELF as INVERSE_IS_SELF
from pe.proofs.wrong.rotation_identity import NOT_A_ROTATION as NOT_A_ROTATION
from pe.proofs.wrong.rotation_identity import OFFSET_ONE as OFFSET_ONE
from pe.proofs.wrong.rotation_identity import OFFSETS_SUBTRACT as OFFSETS_SUBTRACT
from pe.proofs.wrong.rotation_identity import PAPER_BLOCK as PAPER_BLOCK
from pe.proofs.wrong.rotation_identity import SCALED_BLOCK as SCALED_BLOCK
from pe.proofs.wrong.rotation_identity import SWAPPED_BLOCK as SWAPPED_BLOCK
from pe.proofs.wrong.rotation_identity import TEXTBOOK_ROTATION as TEXTBOOK_ROTATION
from pe.proofs.wrong.rotation_identity import TRANSPOSED_BLOCK as TRANSPOSED_BLOCK
from pe.proofs.wrong.rotation_identity import TRANSPOSED_SHIFT_MATRIX as TRANSPOSED_SHIFT_MATRIX
from pe.proofs.wrong.sinusoidal_encoding import DOUBLED_EXPONENT_TABLE as DOUBLED_EXPONENT_TABLE
from pe.proofs.wrong.sinusoidal_encoding import (
    DOUBLED_EXPONENT_WAVELENGTHS as DOUBLED_EXPONENT_WAVELENGTHS,
)
from pe.proofs.wrong.sinusoidal_encoding import INCLUSIVE_PAIRS as INCLUSIVE_PAIRS
from pe.proofs.wrong.sinusoidal_encoding import LAST_WAVELENGTH_2PI_BASE as LAST_WAVELENGTH_2PI_BASE
from pe.proofs.wrong.sinusoidal_encoding import MADE_OF_ROWS as MADE_OF_ROWS
from pe.proofs.wrong.sinusoidal_encoding import ONE_INDEXED_PAIRS as ONE_INDEXED_PAIRS
from pe.proofs.wrong.sinusoidal_encoding import ONE_INDEXED_TABLE as ONE_INDEXED_TABLE
from pe.proofs.wrong.sinusoidal_encoding import ONLY_BETWEEN as ONLY_BETWEEN
from pe.proofs.wrong.sinusoidal_encoding import PAIRS_AS_COLUMNS as PAIRS_AS_COLUMNS
from pe.proofs.wrong.sinusoidal_encoding import QKV_AND_OUTPUT_READ as QKV_AND_OUTPUT_READ
from pe.proofs.wrong.sinusoidal_encoding import SAME_INDEX_WIDER as SAME_INDEX_WIDER
from pe.proofs.wrong.sinusoidal_encoding import SHARES_PE0 as SHARES_PE0
from pe.proofs.wrong.sinusoidal_encoding import SQUARED_MEAN as SQUARED_MEAN
from pe.proofs.wrong.sinusoidal_encoding import STEP_IS_OMEGA as STEP_IS_OMEGA
from pe.proofs.wrong.sinusoidal_encoding import TIED_PROJECTION as TIED_PROJECTION
from pe.proofs.wrong.sinusoidal_encoding import UNIT_EMBEDDING_INIT as UNIT_EMBEDDING_INIT
from pe.proofs.wrong.sinusoidal_encoding import WHOLE_TURNS_PER_BASE as WHOLE_TURNS_PER_BASE
from pe.proofs.wrong.why_order import ATTENTION_COST as ATTENTION_COST
from pe.proofs.wrong.why_order import CAUSAL_LAYER as CAUSAL_LAYER
from pe.proofs.wrong.why_order import CAUSAL_MASK as CAUSAL_MASK
from pe.proofs.wrong.why_order import CONSTANT_ENCODING as CONSTANT_ENCODING
from pe.proofs.wrong.why_order import FORGETFUL_READER as FORGETFUL_READER
from pe.proofs.wrong.why_order import INVARIANCE as INVARIANCE
from pe.proofs.wrong.why_order import ONE_STEP as ONE_STEP
from pe.proofs.wrong.why_order import POSITIONS_ADDED as POSITIONS_ADDED
from pe.proofs.wrong.why_order import RECURRENT_COST as RECURRENT_COST
from pe.proofs.wrong.why_order import RECURRENT_LAYER as RECURRENT_LAYER
from pe.proofs.wrong.why_order import RECURRENT_STEPS as RECURRENT_STEPS
from pe.proofs.wrong.why_order import SINUSOIDAL_ENCODING as SINUSOIDAL_ENCODING

__all__ = [
    "ABEL_SIGN_FLIPPED",
    "ALIBI_SEQUENCE",
    "ATTENTION_COST",
    "BASE_CUBED",
    "BINARY_COUNTER",
    "BINARY_TURNS",
    "CANCELLING_SUBLAYER",
    "CAUSAL_LAYER",
    "CAUSAL_MASK",
    "CONJUGATE_FACTOR",
    "CONSTANT_ENCODING",
    "CONSTANT_GAP",
    "CORRECTLY_ROUNDED_64",
    "COS_FIRST_UNCONJUGATED",
    "COUNTER_CLOCKWISE_PHASE",
    "COUPLED_ROTATION_PROJECTION",
    "CROSS_TERMS_DROPPED",
    "DIFFERENCE_ONLY",
    "DIRECTION_FORGOTTEN",
    "DIRECT_FLOAT32_TABLE",
    "DIRECT_FLOAT64_TABLE",
    "DOUBLED_COSINE_PAIR",
    "DOUBLED_EXPONENT",
    "DOUBLED_EXPONENT_TABLE",
    "DOUBLED_EXPONENT_WAVELENGTHS",
    "DOUBLED_FREQUENCY_BLOCK",
    "DOUBLE_ANGLE_COSINE",
    "FAIRSEQ_FROM_ONE",
    "FLAT_PAPER_TOLERANCE",
    "FLIPPED_ROPE",
    "FLIPPED_SINE_SHIFT_MATRIX",
    "FLOAT16_ANGLES",
    "FLOAT32_ANGLES",
    "FLOAT32_RECIPE",
    "FLOAT32_TOLERANCE",
    "FLOAT64_ANGLES_DESIGN",
    "FLOAT64_ANGLE_ANCHORS",
    "FORGETFUL_READER",
    "FOUR_PAIRS",
    "GAP_ONE_OVER_N_MINUS_ONE",
    "HALF_TURN_ALIAS",
    "HALVING_SLOPES",
    "IDENTITY_PROJECTION",
    "IDENTITY_PROJECTIONS",
    "INCLUSIVE_PAIRS",
    "INSIDE_TRAINING",
    "INTERLEAVED_SWAPPED",
    "INVARIANCE",
    "INVERSE_IS_SELF",
    "LAST_PARTIAL_SUM",
    "LAST_TRAINED_POSITION",
    "LAST_WAVELENGTH_2PI_BASE",
    "LEARNED_ABSOLUTE",
    "LEARNED_LOOKUP",
    "LEARNED_TABLE",
    "LOG2_ROUNDED_DOWN",
    "MADE_OF_ROWS",
    "MIXED_FREQUENCY_PAIR",
    "MONOTONE_DECAY",
    "NOISY_PAPER_TABLE",
    "NORMALISED_INDEX",
    "NORM_SQUARED_D",
    "NOT_A_ROTATION",
    "NO_CAUSAL_MASK",
    "NO_CLIPPING",
    "NO_INTERPOLATION",
    "NO_PERMUTATION",
    "NO_UNSEEN_PAIRS",
    "NTK_IN_RANGE",
    "NUDGED_SHIFT_MATRIX",
    "OFFSETS_SUBTRACT",
    "OFFSET_ONE",
    "ONE_INDEXED_PAIRS",
    "ONE_INDEXED_SAME_BASE",
    "ONE_INDEXED_TABLE",
    "ONE_STEP",
    "ONLY_BETWEEN",
    "ONLY_QUERY_PERMUTED",
    "OTHER_BASE_SHIFT_MATRIX",
    "PAIR0_SLOWEST_ANGLE",
    "PAIRS_AS_COLUMNS",
    "PAIR_SHARE",
    "PAPER_BLOCK",
    "PAPER_TABLE",
    "PARTIAL_SUM_SHIFTED",
    "PLAIN_BASE_SCALING",
    "PLAIN_ROPE_BACKWARDS",
    "PLAIN_STACK",
    "POSITIONS_ADDED",
    "POST_LN_STACK",
    "QKV_AND_OUTPUT_READ",
    "RANDOM_PROJECTION",
    "RATIONAL_PERIOD",
    "RATIONAL_TURN",
    "RAW_INDEX",
    "RAW_INDEX_PAIR",
    "RECURRENT_COST",
    "RECURRENT_LAYER",
    "RECURRENT_STEPS",
    "RISES_STAYS_POSITIVE",
    "ROPE_AFTER_PROJECTION",
    "ROTATED_FROM_FIRST",
    "ROTATE_BEFORE_PROJECTING",
    "ROTATION_PROJECTION",
    "ROUNDED_ANGLES",
    "ROW_FOR_N_MAX",
    "SAME_INDEX_WIDER",
    "SCALED_BLOCK",
    "SCALED_ROTATION",
    "SHARES_PE0",
    "SHIFT_BETWEEN_ROWS",
    "SINGLE_PAIR",
    "SINUSOIDAL_ADDED",
    "SINUSOIDAL_DESIGN",
    "SINUSOIDAL_ENCODING",
    "SLOWEST_PAIR_TOO",
    "SQUARED_ANGLE",
    "SQUARED_MEAN",
    "STEP_IS_OMEGA",
    "SUM_ANGLE_DISTANCE",
    "SWAPPED_BLOCK",
    "SWAPPED_FACTOR",
    "SWAPPED_PARTNERS",
    "T2T_DESCRIBED_WITH_HALF_WIDTH",
    "T2T_EXPONENT_D_MINUS_1",
    "T2T_SAME_BASE",
    "TERM_C_LEFT_OUT",
    "TEXTBOOK_ROTATION",
    "TIED_PROJECTION",
    "TRANSPOSED_BLOCK",
    "TRANSPOSED_CONJUGATION",
    "TRANSPOSED_PERMUTATION",
    "TRANSPOSED_ROTATION",
    "TRANSPOSED_SHIFT_MATRIX",
    "UNCAPPED_BUCKETS",
    "UNCONJUGATED_SHIFT",
    "UNIFORM_NOISE_TABLE",
    "UNIT_EMBEDDING_INIT",
    "UNMASKED_MEAN",
    "WHOLE_TURNS_PER_BASE",
    "ZERO_TABLE",
    "Block",
    "Candidate",
    "ShiftMatrix",
]
