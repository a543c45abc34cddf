"""The MedHallu builder: a subtle hallucinated answer, with a difficulty, per PubMedQA question,
by our steps or the authors' code rule by rule (`--protocol paper`)."""

PROMPTS = "medhalbench.medhallu"
"""The package whose `prompts/` the builder's prompts are in (the benchmark's)."""
