"""The MedHal builder: QA, NLI, extraction and summarization data turned into one statement
format, factual and non-factual samples paired, split 80/10/10; by our rules or the authors'
code rule by rule (`--protocol paper`)."""

PROMPTS = "medhalbench.medhal"
"""The package whose `prompts/` the builder's prompts are in (the benchmark's)."""
