"""The package version (kept apart so that modules can name it without importing the API)."""

VERSION = "0.1.0"
