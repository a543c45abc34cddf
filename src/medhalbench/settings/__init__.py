"""Settings as one typed record each: a frozen pydantic model per benchmark, builder, tool and
command, validated once where its values enter (command line, suite, `inspect eval -T`,
Python API), passed as that object to the task, the plan and the log, and read back from the
log. The command line's options, their help and defaults are derived from the models; the
settings that benchmarks share are declared once here. Imports nothing heavy: `--help` reads
these models."""

from medhalbench import _lazy
from medhalbench.settings._commands import (
    DEFAULT_ATTEMPT_TIMEOUT,
    DEFAULT_MAX_RETRIES,
    DEFAULT_MODEL,
    DEFAULT_REPLY_SEED,
    DEMO_ROWS,
    SUFFIXES,
    AuditRequest,
    CommandSettings,
    CompareRequest,
    ComparisonFormat,
    ConnectionSettings,
    Display,
    ModelOptions,
    PlanSettings,
    ReportFormat,
    ReportRequest,
    ReproduceRequest,
    ReproductionFormat,
    RescoreRequest,
    RunOptions,
    SuiteSettings,
    TableOptions,
    task_options,
)
from medhalbench.settings._evidence import (
    HYBRID_DEPTH,
    RERANK_CANDIDATES,
    RRF_K,
    DenseSettings,
    Grounding,
    IndexRequest,
    IndexSettings,
    RecallSettings,
    Retrieval,
    VectorType,
)
from medhalbench.settings._marks import (
    COMMA_SEPARATED,
    BuildProtocol,
    ByProtocol,
    Count,
    DataSource,
    Fraction,
    InputFile,
    Internal,
    LocalPath,
    Meaning,
    Means,
    NotTaken,
    OutputFile,
    OutputFolder,
    PartOf,
    Positive,
    Qualifies,
    SetBy,
    Share,
    Spelling,
    Temperature,
    parsed_text,
)
from medhalbench.settings._model import (
    EXAMPLE_DATASET,
    SETTINGS_KEY,
    Problem,
    ProtocolSettings,
    SettingProblem,
    Settings,
    SettingsError,
    keep_settings,
    kept_settings,
    resolved,
    roles_named,
)
from medhalbench.settings._models import (
    UNSENDABLE,
    model_name_problem,
    named_problem,
    normalise_model_name,
    parse_model_args,
    parse_role_values,
    provider_of,
    sendable_in_header,
    shown_argument_name,
)
from medhalbench.settings._options import (
    REQUIRED,
    Option,
    anchored,
    description,
    options_of,
    usage_examples,
)
from medhalbench.settings._shared import (
    BOOTSTRAP_SEED,
    DEFAULT_EMBEDDER,
    DEFAULT_RESAMPLES,
    MAX_RESAMPLES,
    BenchmarkSettings,
    Bootstrap,
    BuilderSettings,
    Cache,
    Generation,
    Outputs,
    PaperCall,
    ReplyTemperature,
    ReplyTokens,
    Resamples,
    RunData,
    SampleLimit,
    SampleSeed,
    ScoreThreshold,
)
from medhalbench.settings._suite import SuiteFile, SuiteModel, SuiteRun, suite_problems

__getattr__, __all__ = _lazy.exports(__name__, __file__)
