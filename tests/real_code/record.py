"""Record what real libraries compute, as the oracle of pe's named conventions and readers.

pe's conventions (``pe.conventions``) and its checkpoint reader (``pe.identify``) describe
other people's code. This script runs that code and saves what it produced, so that the
suite checks pe against it even where the libraries are not installed; where they are
(always in CI), ``tests/test_real_code.py`` runs them again and checks the recording too.

Regenerate (the versions used are written into ``recorded.json``)::

    .venv/bin/python -m pip install torch==2.13.0 transformers positional-encodings diffusers
    .venv/bin/python tests/real_code/record.py

It writes, next to itself:

- ``recorded.npz``: tables, one per library and shape, named ``CONVENTION__LIBRARY__NxD``;
- ``recorded.json``: the versions, the command, and what each library function is;
- ``fairseq_model.bin``: a ``torch.save`` state dict holding FSMT's sinusoidal table (the
  fairseq port's stored weight) among other tensors (a learned embedding, a transposed
  view, bfloat16 and int64 tensors, parameters);
- ``tutorial_buffer.pt``: the state dict of a module keeping PyTorch's tutorial table as a
  ``(max_len, 1, d)`` buffer named ``pe``;
- ``legacy.pt``: the same saved in the legacy (pre-1.6, non-zip) format;

and, inside the package (the relative-family chapter's claim ``t5-buckets`` reads it at
build, where transformers is not installed):

- ``pe/chapters/data/t5_buckets.json``: T5's buckets as transformers computes them
  (``T5Attention._relative_position_bucket``) for every relative position in
  ``[-3D, 3D]`` of each setting ``(bidirectional, num_buckets B, max_distance D)`` of
  :data:`T5_SETTINGS`, and the layout of its bias tables (:func:`t5_layout`);
- ``pe/chapters/data/alibi_slopes.json``: ALiBi's slopes as transformers' BLOOM computes
  them (``build_alibi_tensor``, a port of the ALiBi authors' ``get_slopes``) for every head
  count of :data:`ALIBI_HEADS`;
- ``pe/chapters/data/implementations.npz``: the tables of :data:`SURVEYED` (the
  implementations of the survey on the conventions page that run in a recorded library),
  at shape 66 x 32, as ``recorded.npz`` holds them;
- ``pe/chapters/data/implementations_odd.npz``: what each of :data:`SURVEYED` does when
  asked for 66 rows of the odd width :data:`ODD_WIDTH` (:func:`odd_width_outcome`): the
  table it returns, as it computed it, or a 0-d string array ``"ExceptionType: message"``
  naming what it raised (the conventions page's "odd width" column);
- ``pe/chapters/data/rope_code.json``: the linear map by which each model's RoPE code in
  transformers (RoFormer, GPT-J, GPT-NeoX, Llama) turns a vector of width
  :data:`ROPE_WIDTH` at each of :data:`ROPE_POSITIONS` (column ``j``: the image of the
  ``j``-th unit vector).
"""

from __future__ import annotations

import json
import math
import platform
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
#: (rows, width) of every recorded table: a short wide one, a long narrow one.
SHAPES = ((66, 32), (1026, 8))
COMMAND = ".venv/bin/python tests/real_code/record.py"
PACKAGES = ("torch", "transformers", "positional-encodings", "diffusers", "numpy")
#: T5's bucket settings recorded: T5's own (32, 128) both ways, a smaller and a larger one.
T5_SETTINGS = tuple(
    (bidirectional, buckets, distance)
    for bidirectional in (True, False)
    for buckets, distance in ((32, 128), (16, 64), (64, 1000))
)
DATA = HERE.parent.parent / "pe" / "chapters" / "data"
T5_RECORDING = DATA / "t5_buckets.json"
ALIBI_RECORDING = DATA / "alibi_slopes.json"
#: The head counts whose ALiBi slopes are recorded: every H from 1 to 64.
ALIBI_HEADS = range(1, 65)
ROPE_RECORDING = DATA / "rope_code.json"
#: The recordings the conventions page's survey is checked against, by the name it uses.
SURVEYED = {
    "DistilBERT": "paper__distilbert",
    "PyTorch tutorial": "paper__pytorch-tutorial",
    "Marian": "halves__marian",
    "M2M100": "fairseq__m2m100",
    "Whisper": "tensor2tensor__whisper",
    "fairseq (FSMT port)": "fairseq__fsmt",
    "diffusers": "tensor2tensor__diffusers",
}
IMPLEMENTATIONS = DATA / "implementations.npz"
#: The odd width at which each of :data:`SURVEYED` is run (with the 66 rows of ``SHAPES[0]``).
ODD_WIDTH = 33
ODD_IMPLEMENTATIONS = DATA / "implementations_odd.npz"


def odd_width_outcome(make: Callable[[int, int], Any], n: int, d: int) -> np.ndarray:
    """What ``make`` does at ``n`` x ``d``: its table as :func:`run` gives it, or, if it
    raises, a 0-d string array ``"ExceptionType: first line of the message"`` (a library
    that cannot be imported is not an outcome: its ImportError propagates)."""
    try:
        return run(make, n, d)
    except ImportError:
        raise
    except Exception as error:  # noqa: BLE001 (refusing the width is the outcome recorded)
        message = str(error).splitlines()[0] if str(error) else ""
        return np.array(f"{type(error).__name__}: {message}")


def save_surveyed(tables: dict[str, np.ndarray]) -> None:
    """Write :data:`IMPLEMENTATIONS` from the recorded tables (shape 66 x 32), and
    :data:`ODD_IMPLEMENTATIONS` by running each of :data:`SURVEYED` at 66 x :data:`ODD_WIDTH`."""
    n, d = SHAPES[0]
    chosen = {name: tables[f"{stem}__{n}x{d}"] for name, stem in SURVEYED.items()}
    np.savez(IMPLEMENTATIONS, **chosen)  # type: ignore[arg-type]
    odd = {}
    for name, stem in SURVEYED.items():
        convention, library = stem.split("__")
        odd[name] = odd_width_outcome(RECORDERS[convention][library][1], n, ODD_WIDTH)
    np.savez(ODD_IMPLEMENTATIONS, **odd)  # type: ignore[arg-type]


#: Width and positions at which the RoPE maps are recorded.
ROPE_WIDTH = 16
ROPE_POSITIONS = (0, 1, 2, 5)


def tutorial_table(max_len: int, d_model: int) -> Any:
    """PyTorch's transformer tutorial: its recipe in float32, kept as (max_len, 1, d)."""
    import torch

    position = torch.arange(max_len).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    table = torch.zeros(max_len, 1, d_model)
    table[:, 0, 0::2] = torch.sin(position * div_term)
    table[:, 0, 1::2] = torch.cos(position * div_term)
    return table


def _distilbert(n: int, d: int) -> Any:
    import torch
    from transformers.models.distilbert import modeling_distilbert

    out = torch.empty(n, d)
    modeling_distilbert._create_sinusoidal_embeddings(n_pos=n, dim=d, out=out)
    return out


def _positional_encodings(n: int, d: int) -> Any:
    import torch
    from positional_encodings.torch_encodings import PositionalEncoding1D

    return PositionalEncoding1D(d)(torch.zeros(2, n, d))  # (batch, n, d): two equal tables


def _marian(n: int, d: int) -> Any:
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding

    return MarianSinusoidalPositionalEmbedding(n, d).create_weight()


def _m2m100(padding_idx: int | None) -> Callable[[int, int], Any]:
    def make(n: int, d: int) -> Any:
        from transformers.models.m2m_100.modeling_m2m_100 import (
            M2M100SinusoidalPositionalEmbedding,
        )

        return M2M100SinusoidalPositionalEmbedding.get_embedding(n, d, padding_idx)

    return make


def _whisper(n: int, d: int) -> Any:
    from transformers.models.whisper.modeling_whisper import sinusoids

    return sinusoids(n, d)


def _diffusers(n: int, d: int) -> Any:
    """diffusers' ``get_timestep_embedding`` of the timesteps 0 .. n - 1, its defaults
    (``flip_sin_to_cos=False``, ``downscale_freq_shift=1``, ``scale=1``, period 10000)."""
    import torch
    from diffusers.models.embeddings import get_timestep_embedding

    return get_timestep_embedding(torch.arange(n), d)


def _xglm(n: int, d: int) -> Any:
    from transformers.models.xglm.modeling_xglm import XGLMSinusoidalPositionalEmbedding

    return XGLMSinusoidalPositionalEmbedding.get_embedding(n, d, 1)


def _speech2text(n: int, d: int) -> Any:
    from transformers.models.speech_to_text.modeling_speech_to_text import (
        Speech2TextSinusoidalPositionalEmbedding,
    )

    return Speech2TextSinusoidalPositionalEmbedding.get_embedding(n, d, 1)


def fsmt_weight(n: int, d: int) -> Any:
    """FSMT's SinusoidalPositionalEmbedding (fairseq's port): its weight, as a Parameter."""
    from transformers.models.fsmt.modeling_fsmt import SinusoidalPositionalEmbedding

    module = SinusoidalPositionalEmbedding(n, d, 1)
    module.make_weight(n, d, 1)
    return module.weight


def _m2m100_forward(n: int, d: int) -> Any:
    """What M2M100's module returns for n tokens, none of them padding: (1, n, d)."""
    import torch
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding

    module = M2M100SinusoidalPositionalEmbedding(n, d, padding_idx=1)
    return module(input_ids=torch.full((1, n), 5))


#: convention -> library -> (what it is, the function of (n, d) that runs it).
RECORDERS: dict[str, dict[str, tuple[str, Callable[[int, int], Any]]]] = {
    "paper": {
        "distilbert": (
            "transformers DistilBERT _create_sinusoidal_embeddings (float64, then float32)",
            _distilbert,
        ),
        "positional-encodings": (
            "positional_encodings.torch_encodings.PositionalEncoding1D, batch of 2",
            _positional_encodings,
        ),
        "pytorch-tutorial": (
            "PyTorch's transformer tutorial recipe, float32, its (max_len, 1, d) buffer",
            tutorial_table,
        ),
    },
    "halves": {
        "marian": (
            "transformers MarianSinusoidalPositionalEmbedding.create_weight",
            _marian,
        ),
    },
    "tensor2tensor": {
        "m2m100": (
            (
                "transformers M2M100SinusoidalPositionalEmbedding.get_embedding(n, d) "
                "(documented there as tensor2tensor's), no padding row"
            ),
            _m2m100(None),
        ),
        "whisper": ("transformers whisper sinusoids(n, d)", _whisper),
        "diffusers": (
            "diffusers.models.embeddings.get_timestep_embedding(arange(n), d), its defaults",
            _diffusers,
        ),
    },
    "fairseq": {
        "m2m100": (
            "transformers M2M100SinusoidalPositionalEmbedding.get_embedding(n, d, 1)",
            _m2m100(1),
        ),
        "xglm": ("transformers XGLMSinusoidalPositionalEmbedding.get_embedding(n, d, 1)", _xglm),
        "speech2text": (
            "transformers Speech2TextSinusoidalPositionalEmbedding.get_embedding(n, d, 1)",
            _speech2text,
        ),
        "fsmt": (
            "transformers FSMT SinusoidalPositionalEmbedding weight, padding_idx 1",
            fsmt_weight,
        ),
    },
    "fairseq-tokens": {
        "m2m100-forward": (
            (
                "transformers M2M100SinusoidalPositionalEmbedding(n, d, padding_idx=1) "
                "applied to n tokens without padding: the rows they read, (1, n, d)"
            ),
            _m2m100_forward,
        ),
    },
}


def key(convention: str, library: str, n: int, d: int) -> str:
    """The name of a recording in ``recorded.npz``."""
    return f"{convention}__{library}__{n}x{d}"


def run(make: Callable[[int, int], Any], n: int, d: int) -> np.ndarray:
    """The library's table as a NumPy array, exactly as it computed it."""
    return np.asarray(make(n, d).detach().cpu().numpy())


def _model_state(n: int, d: int) -> dict[str, Any]:
    """A small state dict with FSMT's sinusoidal weight among tensors that are not tables."""
    import torch

    generator = torch.Generator().manual_seed(0)
    learned = torch.nn.Embedding(100, d)
    torch.nn.init.normal_(learned.weight, std=0.02, generator=generator)
    fc = torch.randn(4 * d, d, generator=generator)
    return {
        "model.encoder.embed_tokens.weight": learned.weight,
        "model.encoder.embed_positions.weight": fsmt_weight(n, d),
        "model.encoder.layers.0.fc1.weight": fc,
        "model.encoder.layers.0.fc2.weight": fc.t(),  # a transposed view of the same storage
        "model.encoder.layers.0.fc1.bias": torch.zeros(4 * d),
        "model.encoder.layer_norm.weight": torch.ones(d, dtype=torch.bfloat16),
        "model.encoder.version": torch.tensor([2], dtype=torch.int64),
        "model.decoder.embed_positions.weight": fsmt_weight(n, d).to(torch.bfloat16),
    }


def t5_buckets(bidirectional: bool, num_buckets: int, max_distance: int) -> list[int]:
    """transformers' T5 buckets of every relative position in ``[-3D, 3D]``."""
    import torch
    from transformers.models.t5.modeling_t5 import T5Attention

    rel = torch.arange(-3 * max_distance, 3 * max_distance + 1)
    buckets = T5Attention._relative_position_bucket(
        rel, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    return [int(b) for b in buckets.tolist()]


def t5_layout() -> dict[str, Any]:
    """What transformers' T5 keeps: its default buckets and distance, and in a 3-block
    stack with 2 heads, which blocks hold a bias table and its shape (buckets, heads)."""
    from transformers import T5Config
    from transformers.models.t5.modeling_t5 import T5Stack

    config = T5Config(d_model=8, d_kv=4, d_ff=16, num_layers=3, num_heads=2, vocab_size=10)
    stack = T5Stack(config)
    attention = [block.layer[0].SelfAttention for block in stack.block]
    return {
        "num_buckets": T5Config().relative_attention_num_buckets,
        "max_distance": T5Config().relative_attention_max_distance,
        "blocks_with_bias": [i for i, a in enumerate(attention) if a.has_relative_attention_bias],
        "blocks": len(attention),
        "bias_shape": list(attention[0].relative_attention_bias.weight.shape),
        "heads": config.num_heads,
    }


def record_t5() -> None:
    """Write :data:`T5_RECORDING`: every setting's buckets, with the versions and command."""
    recording = {
        "layout": t5_layout(),
        "what": "transformers T5Attention._relative_position_bucket(r, bidirectional, B, D) "
        "for r = -3D .. 3D",
        "command": COMMAND,
        "versions": {name: metadata.version(name) for name in ("torch", "transformers")},
        "settings": [
            {
                "bidirectional": b,
                "num_buckets": nb,
                "max_distance": md,
                "first": -3 * md,
                "buckets": t5_buckets(b, nb, md),
            }
            for b, nb, md in T5_SETTINGS
        ],
    }
    T5_RECORDING.write_text(json.dumps(recording, separators=(",", ":")) + "\n")


def alibi_slopes(heads: int) -> list[float]:
    """transformers' BLOOM ALiBi slopes for ``heads`` heads, in head order: the bias
    ``build_alibi_tensor`` adds at position 1 (``slope * 1``), in float32 as BLOOM runs it."""
    import torch
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    bias = build_alibi_tensor(torch.ones(1, 2), heads, torch.float32)  # (heads, 1, 2)
    return [float(b) for b in bias[:, 0, 1].tolist()]


def record_alibi() -> None:
    """Write :data:`ALIBI_RECORDING`: the slopes of every head count, versions and command."""
    recording = {
        "what": "transformers.models.bloom.modeling_bloom.build_alibi_tensor(ones(1, 2), H, "
        "float32)[:, 0, 1]: the slope of each head",
        "command": COMMAND,
        "versions": {name: metadata.version(name) for name in ("torch", "transformers")},
        "slopes": {str(h): alibi_slopes(h) for h in ALIBI_HEADS},
    }
    ALIBI_RECORDING.write_text(json.dumps(recording, separators=(",", ":")) + "\n")


#: A RoPE function of real code: ``fn(x, positions)`` for ``x`` of shape ``(n, d)``.
RopeCode = Callable[[np.ndarray, np.ndarray], Any]


def hf_rope(model: str, rope_parameters: dict[str, Any], head: int) -> RopeCode:
    """transformers' rotary embedding of ``"llama"`` or ``"neox"`` (GPT-NeoX), with
    ``rope_parameters``, applied to ``x`` as one head of width ``head``."""
    import torch

    if model == "llama":
        from transformers import LlamaConfig as Config
        from transformers.models.llama import modeling_llama as modeling

        rotary_class: Any = modeling.LlamaRotaryEmbedding
    else:
        from transformers import GPTNeoXConfig as Config
        from transformers.models.gpt_neox import modeling_gpt_neox as modeling

        rotary_class = modeling.GPTNeoXRotaryEmbedding
    config = Config(
        hidden_size=2 * head,
        num_attention_heads=2,
        max_position_embeddings=4096,
        rope_parameters=rope_parameters,
    )
    rotary = rotary_class(config)

    def fn(x: np.ndarray, positions: np.ndarray) -> Any:
        t = torch.tensor(x)[None, None]  # (batch, heads, n, d), float64
        cos, sin = rotary(t, torch.tensor(positions)[None])
        rotated, _ = modeling.apply_rotary_pos_emb(t, t, cos, sin)
        return rotated[0, 0]

    return fn


def gptj_rope(rotary_dim: int) -> RopeCode:
    """transformers' GPT-J rotary embedding on the first ``rotary_dim`` columns of ``x``."""
    import torch
    from transformers.models.gptj import modeling_gptj

    table = modeling_gptj.create_sinusoidal_positions(4096, rotary_dim)

    def fn(x: np.ndarray, positions: np.ndarray) -> Any:
        t = torch.tensor(x, dtype=torch.float32)[None, :, None, :]  # (batch, n, heads, d)
        sin, cos = torch.split(table[torch.tensor(positions)][None], rotary_dim // 2, dim=-1)
        rotated = modeling_gptj.apply_rotary_pos_emb(t[..., :rotary_dim], sin, cos)
        return torch.cat([rotated, t[..., rotary_dim:]], dim=-1)[0, :, 0]

    return fn


def gptj_default_rotary_dim(head: int) -> int:
    """The columns GPT-J rotates in a head of width ``head``, in the proportion of its default
    configuration: ``rotary_dim`` of ``n_embd / n_head`` (64 of 256 in transformers)."""
    from transformers import GPTJConfig

    config = GPTJConfig()
    return int(head * config.rotary_dim // (config.n_embd // config.n_head))


def roformer_rope(width: int) -> RopeCode:
    """transformers' RoFormer: its sinusoidal table and ``apply_rotary_position_embeddings``."""
    import torch
    from transformers.models.roformer import modeling_roformer

    table = modeling_roformer.RoFormerSinusoidalPositionalEmbedding(4096, width)
    with torch.no_grad():
        table.weight.copy_(table.create_weight())

    def fn(x: np.ndarray, positions: np.ndarray) -> Any:
        sinusoidal = table(None, position_ids=torch.tensor(positions))[None, None]
        t = torch.tensor(x, dtype=torch.float32)[None, None]  # (batch, heads, n, d)
        rotate = modeling_roformer.RoFormerSelfAttention.apply_rotary_position_embeddings
        query, _ = rotate(sinusoidal, t, t)
        return query[0, 0]

    return fn


def default_rope_parameters(model: str) -> dict[str, Any]:
    """The ``rope_parameters`` of ``"llama"``'s or ``"neox"``'s (GPT-NeoX) configuration
    made with no argument: what the model's default configuration rotates with."""
    from transformers import GPTNeoXConfig, LlamaConfig

    config = LlamaConfig() if model == "llama" else GPTNeoXConfig()
    return dict(config.rope_parameters)


def rope_codes(width: int) -> dict[str, tuple[str, RopeCode]]:
    """Each model's RoPE code in transformers, by the name the claim uses: (what, fn)."""
    return {
        "RoFormer": (
            "RoFormerSinusoidalPositionalEmbedding, apply_rotary_position_embeddings",
            roformer_rope(width),
        ),
        "GPT-J": (
            "create_sinusoidal_positions, apply_rotary_pos_emb (GPTJConfig's rotary share)",
            gptj_rope(gptj_default_rotary_dim(width)),
        ),
        "GPT-NeoX": (
            (
                "GPTNeoXRotaryEmbedding, apply_rotary_pos_emb (GPTNeoXConfig()'s "
                f"rope_parameters: {default_rope_parameters('neox')})"
            ),
            hf_rope("neox", default_rope_parameters("neox"), width),
        ),
        "Hugging Face's Llama": (
            (
                "LlamaRotaryEmbedding, apply_rotary_pos_emb (LlamaConfig()'s "
                f"rope_parameters: {default_rope_parameters('llama')})"
            ),
            hf_rope("llama", default_rope_parameters("llama"), width),
        ),
    }


def rope_map(fn: RopeCode, width: int, position: int) -> np.ndarray:
    """The matrix by which ``fn`` turns a vector at ``position``: column ``j`` is the image
    of the ``j``-th unit vector."""
    images = fn(np.eye(width), np.full(width, position))
    return np.asarray(images.detach().cpu().numpy(), dtype=np.float64).T


def record_rope() -> None:
    """Write :data:`ROPE_RECORDING`: each model's map at every recorded position."""
    codes = rope_codes(ROPE_WIDTH)
    recording = {
        "what": "transformers' RoPE code per model: at each position, the matrix whose "
        "column j is the image of the j-th unit vector",
        "command": COMMAND,
        "versions": {name: metadata.version(name) for name in ("torch", "transformers")},
        "width": ROPE_WIDTH,
        "positions": list(ROPE_POSITIONS),
        "models": {
            name: {
                "code": what,
                "maps": [rope_map(fn, ROPE_WIDTH, p).tolist() for p in ROPE_POSITIONS],
            }
            for name, (what, fn) in codes.items()
        },
    }
    ROPE_RECORDING.write_text(json.dumps(recording, separators=(",", ":")) + "\n")


def main() -> None:
    import torch

    record_t5()
    record_alibi()
    record_rope()

    tables = {}
    described = {}
    for convention, libraries in RECORDERS.items():
        for library, (what, make) in libraries.items():
            described[f"{convention}__{library}"] = what
            for n, d in SHAPES:
                tables[key(convention, library, n, d)] = run(make, n, d)
    np.savez(HERE / "recorded.npz", **tables)  # type: ignore[arg-type]
    save_surveyed(tables)
    n, d = 130, 32
    torch.save(_model_state(n, d), HERE / "fairseq_model.bin")
    module = torch.nn.Module()
    module.register_buffer("pe", tutorial_table(80, 16))
    torch.save(module.state_dict(), HERE / "tutorial_buffer.pt")
    torch.save(module.state_dict(), HERE / "legacy.pt", _use_new_zipfile_serialization=False)
    versions = {name: metadata.version(name) for name in PACKAGES}
    info = {
        "command": COMMAND,
        "python": platform.python_version(),
        "versions": versions,
        "shapes": [list(shape) for shape in SHAPES],
        "recordings": described,
        "fairseq_model.bin": f"torch.save of a state dict; FSMT weight {n} x {d}, padding_idx 1",
        "odd_width": f"pe/chapters/data/implementations_odd.npz: each of SURVEYED run at "
        f"{SHAPES[0][0]} x {ODD_WIDTH}, its table or the exception it raised",
    }
    (HERE / "recorded.json").write_text(json.dumps(info, indent=2) + "\n")
    print(f"recorded {len(tables)} tables with {versions} (Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
