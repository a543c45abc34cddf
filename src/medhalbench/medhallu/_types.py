"""MedHallu's four hallucination types, with the published category names."""

from __future__ import annotations

HALLUCINATION_TYPES: dict[str, str] = {
    "Misinterpretation of #Question#": (
        "the answer misunderstands the question and so addresses something other than what "
        "was asked"
    ),
    "Incomplete Information": (
        "the answer leaves out essential findings or caveats, or says what is not true "
        "without giving the correct information, so that it misleads"
    ),
    "Mechanism and Pathway Misattribution": (
        "the answer attributes the finding to the wrong biological mechanism, molecular "
        "pathway or disease process"
    ),
    "Methodological and Evidence Fabrication": (
        "the answer invents research methods, experimental results, numbers or evidence"
    ),
}


def types_text() -> str:
    """The types as a numbered list for prompts."""
    return "\n".join(
        f"{i}. {name}: {text}."
        for i, (name, text) in enumerate(HALLUCINATION_TYPES.items(), start=1)
    )


def normalise_category(raw: str | None) -> str | None:
    """The published name a generator's category refers to, or None."""
    if not raw:
        return None
    text = raw.strip().lower()
    for name in HALLUCINATION_TYPES:
        key = name.lower().replace("#question#", "question")
        if text == name.lower() or text.replace("#", "") == key or key.split()[0] in text:
            return name
    return None
