"""Small corpora in every layout the indexer reads, written by the tests (our own words)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

DOCUMENTS = {
    "loop-diuretics": (
        "Loop diuretics",
        "Loop diuretics such as furosemide inhibit the Na-K-2Cl cotransporter in the thick "
        "ascending limb of the loop of Henle. Blocking sodium reabsorption there produces a "
        "strong natriuresis, which relieves fluid overload in heart failure.",
    ),
    "metformin": (
        "Metformin",
        "Metformin lowers hepatic glucose production and activates AMP-activated protein "
        "kinase. Metformin does not stimulate insulin secretion from pancreatic beta cells, "
        "so on its own it rarely causes hypoglycaemia.",
    ),
    "vaccines": (
        "Vaccination and memory",
        "Vaccines expose the immune system to antigens so that memory B cells and memory T "
        "cells persist after the primary response. Booster doses restore waning antibody "
        "levels for some vaccines.",
    ),
    "lung-cancer": (
        "Lung cancer risk",
        "Tobacco smoking is the main risk factor for lung cancer. Exposure to radon and to "
        "asbestos also raises the risk, and the effects of asbestos and smoking multiply.",
    ),
}


def write_jsonl(path: Path, *, id_field: str = "id", text_field: str = "text") -> Path:
    with path.open("w", encoding="utf-8") as f:
        for doc_id, (title, text) in DOCUMENTS.items():
            f.write(json.dumps({id_field: doc_id, "title": title, text_field: text}) + "\n")
    return path


def write_csv(path: Path) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "title", "text"])
        for doc_id, (title, text) in DOCUMENTS.items():
            writer.writerow([doc_id, title, text])
    return path


def write_txt_folder(folder: Path) -> Path:
    (folder / "nested").mkdir(parents=True)
    for n, (doc_id, (_, text)) in enumerate(DOCUMENTS.items()):
        place = folder / "nested" if n % 2 else folder
        (place / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    (folder / "notes.md").write_text("not a corpus file", encoding="utf-8")
    return folder


def write_pubmedqa(path: Path) -> Path:
    entries = {
        str(10_000 + n): {
            "QUESTION": f"Question about {title.lower()}?",
            "CONTEXTS": [text[: len(text) // 2], text[len(text) // 2 :]],
            "LABELS": ["BACKGROUND", "RESULTS"],
            "MESHES": [],
            "YEAR": "2020",
            "final_decision": "yes",
            "LONG_ANSWER": "An answer we wrote.",
        }
        for n, (title, text) in enumerate(DOCUMENTS.values())
    }
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def write_sumpubmed(folder: Path) -> Path:
    for part in ("text", "abstract", "shorter_abstract"):
        (folder / part).mkdir(parents=True)
    for n, (_, text) in enumerate(DOCUMENTS.values(), start=1):
        (folder / "text" / f"text_{n}.txt").write_text(text.lower(), encoding="utf-8")
        (folder / "abstract" / f"abstract_{n}.txt").write_text("summary", encoding="utf-8")
    return folder


def write_medhallu(path: Path) -> Path:
    with path.open("w", encoding="utf-8") as f:
        for n, (title, text) in enumerate(DOCUMENTS.values()):
            f.write(
                json.dumps(
                    {
                        "pubid": f"p{n}",
                        "Question": f"Is it true of {title.lower()}?",
                        "Knowledge": [text],
                        "Ground Truth": "Yes.",
                        "Difficulty Level": "easy",
                        "Hallucinated Answer": "No.",
                        "Category of Hallucination": "Incomplete Information",
                    }
                )
                + "\n"
            )
    return path


def write_other_embedder(folder: Path) -> str:
    """A sentence-transformers model folder other than all-MiniLM-L6-v2: one small BERT
    layer of random weights (seeded) over MiniLM's tokenizer, 32 dimensions, about 5 MB."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertModel

    try:
        from sentence_transformers.sentence_transformer import modules
    except ImportError:  # sentence-transformers before 5.2
        from sentence_transformers import models as modules  # type: ignore[no-redef]
    from sentence_transformers import SentenceTransformer

    from medhalbench.embeddings import packaged_minilm_path

    tokenizer = AutoTokenizer.from_pretrained(str(packaged_minilm_path()))
    config = BertConfig(
        vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=1,
        num_attention_heads=2, intermediate_size=64, max_position_embeddings=128,
    )  # fmt: skip
    torch.manual_seed(0)
    BertModel(config).save_pretrained(folder / "bert")
    tokenizer.save_pretrained(folder / "bert")
    word = modules.Transformer(str(folder / "bert"), max_seq_length=128)
    model = SentenceTransformer(modules=[word, modules.Pooling(32), modules.Normalize()])
    model.save(str(folder / "model"))
    return str(folder / "model")
