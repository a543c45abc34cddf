"""Logs as pandas DataFrames: one row per run, per sample, or per DAHL atomic unit."""

from medhalbench.frames._frames import load_runs, load_samples, load_units

__all__ = ["load_runs", "load_samples", "load_units"]
