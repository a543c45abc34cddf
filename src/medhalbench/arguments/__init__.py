"""Arguments declared once: a task's signature, a builder's settings dataclass or a tool's
request, with types, defaults, `Literal` choices and ranges (`Annotated`) and docstring help.
The command line, suites and `inspect eval -T` derive from them and check values the same way."""

from medhalbench.arguments._arguments import (
    REQUIRED,
    Argument,
    ArgumentError,
    arguments_of,
    check_arguments,
    checked,
    construct,
    description,
    usage_examples,
)
from medhalbench.arguments._marks import (
    BuildProtocol,
    Count,
    DataSource,
    Fraction,
    InputFile,
    Internal,
    LocalPath,
    NonNegative,
    OutputFolder,
    Parse,
    Positive,
    Range,
    Share,
    Spelling,
    Temperature,
)

__all__ = [
    "REQUIRED",
    "Argument",
    "ArgumentError",
    "BuildProtocol",
    "Count",
    "DataSource",
    "Fraction",
    "InputFile",
    "Internal",
    "LocalPath",
    "NonNegative",
    "OutputFolder",
    "Parse",
    "Positive",
    "Range",
    "Share",
    "Spelling",
    "Temperature",
    "arguments_of",
    "check_arguments",
    "checked",
    "construct",
    "description",
    "usage_examples",
]
