"""Writing a fine-tuned Llama-architecture model back to GGUF, to run it in-process.

The metadata (hyperparameters, tokenizer, chat template) is copied from the GGUF the model
was loaded from; only the tensors are replaced. Names are mapped with gguf-py's own tensor
map, and the query/key rows are permuted back into llama.cpp's layout (transformers
un-permutes them when it loads a GGUF).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import numpy as np

from medhalbench._errors import ResourceUnavailableError

_SKIP_FIELDS = ("general.architecture", "general.file_type", "general.quantization_version")


def _permute(weights: np.ndarray, n_head: int) -> np.ndarray:
    # As llama.cpp's converter does for LLaMA query and key projections.
    return (
        weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:])
        .swapaxes(1, 2)
        .reshape(weights.shape)
    )


@functools.lru_cache(maxsize=1)
def _template_reader(path: str, modified: float) -> Any:
    """A GGUF's reader, kept for the next export from the same unchanged file: gguf-py parses
    a tokenizer's fields one by one (seconds for SmolLM2's 49k tokens), and a training run
    exports its base and its merged model from one template."""
    import gguf

    return gguf.GGUFReader(path)


def export_gguf(
    state_dict: Mapping[str, Any],
    template: str | Path,
    out: str | Path,
    *,
    dtype: Literal["f16", "f32"] = "f16",
) -> Path:
    """Write a model's weights as GGUF, with the metadata of `template`.

    Args:
        state_dict: The model's weights (HF names, e.g. `model.layers.0.self_attn.q_proj.weight`).
        template: The GGUF the model was loaded from (same architecture and shapes).
        out: The GGUF file to write.
        dtype: Storage of 2-D weights (norms and other 1-D tensors stay F32).

    Raises:
        ResourceUnavailableError: The template is not a LLaMA-architecture GGUF, or a tensor
            it holds has no counterpart in the weights.
    """
    import gguf

    reader = _template_reader(str(template), Path(template).stat().st_mtime)
    architecture = str(reader.fields["general.architecture"].contents())
    if architecture != "llama":
        raise ResourceUnavailableError(
            f"GGUF export supports the llama architecture, not '{architecture}'"
        )
    n_head = int(reader.fields["llama.attention.head_count"].contents())
    n_head_kv = int(reader.fields["llama.attention.head_count_kv"].contents())
    n_blocks = int(reader.fields["llama.block_count"].contents())
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, n_blocks)
    tensors: dict[str, np.ndarray] = {}
    for hf_name, value in state_dict.items():
        gguf_name = names.get_name(hf_name, try_suffixes=(".weight", ".bias"))
        if gguf_name is None:
            continue
        array = (
            value.detach().float().cpu().numpy()
            if hasattr(value, "detach")
            else np.asarray(value, dtype=np.float32)
        )
        if hf_name.endswith("self_attn.q_proj.weight"):
            array = _permute(array, n_head)
        elif hf_name.endswith("self_attn.k_proj.weight"):
            array = _permute(array, n_head_kv)
        tensors[gguf_name] = array
    writer = gguf.GGUFWriter(str(out), architecture)
    for field in reader.fields.values():
        if field.name in _SKIP_FIELDS or field.name.startswith("GGUF."):
            continue
        value_type = field.types[0]
        sub_type = field.types[-1] if value_type == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(field.name, field.contents(), value_type, sub_type=sub_type)
    writer.add_file_type(
        gguf.LlamaFileType.MOSTLY_F16 if dtype == "f16" else gguf.LlamaFileType.ALL_F32
    )
    for tensor in reader.tensors:
        if tensor.name not in tensors:
            raise ResourceUnavailableError(f"GGUF export: no weights for tensor '{tensor.name}'")
        array = tensors[tensor.name]
        writer.add_tensor(
            tensor.name,
            array.astype(np.float16 if dtype == "f16" and array.ndim > 1 else np.float32),
        )
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return Path(out)
