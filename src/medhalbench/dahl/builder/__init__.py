"""The DAHL question builder: exam questions written from full-text papers, and the checks that
drop questions that are no questions or need their paper."""

PROMPTS = "medhalbench.dahl"
"""The package whose `prompts/` the builder's prompts are in (the benchmark's)."""
