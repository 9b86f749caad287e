"""Step 0: the settings of a run.  [provided]

Everything configurable lives here, so the index, the retriever and the generator can never
disagree about a setting. This module imports no other module of the project.

* which chat and embedding model to use (`resolve_models`), in this order: explicit
  `LLM_MODEL` / `EMBEDDING_MODEL`  >  `USE_OLLAMA=1`  >  the first provider key present (the
  order of `PROVIDERS`)  >  the offline models that ship with the project;
* the `Config` of one run, with a `RAG_*` (or `CHROMA_*`) override for every field;
* `RAGError`, the one kind of error a user can fix (cli.py prints it as one line);
The models themselves are called through llm.py.

Run alone:  python code/config.py    (prints the resolved models and who chose them, never a key)
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

REPO_ROOT = Path(__file__).resolve().parent.parent

OFFLINE_CHAT_MODEL = "offline/extractive"
OFFLINE_EMBEDDING_MODEL = "offline/wordllama-l2-256"


@dataclass(frozen=True)
class Provider:
    key_variable: str
    chat_model: str
    embedding_model: str | None  # None: the provider has no embedding endpoint


# The one provider table: README, .env.example, error messages and tests read it from here.
# Current models of LiteLLM's bundled model map, none with a deprecation date (2026-11); a test
# fails when an upgrade of LiteLLM no longer knows one (the project's provider tests).
PROVIDERS: tuple[Provider, ...] = (
    Provider("GROQ_API_KEY", "groq/openai/gpt-oss-20b", None),
    Provider("ANTHROPIC_API_KEY", "anthropic/claude-haiku-4-5", None),
    Provider("OPENAI_API_KEY", "openai/gpt-5.4-mini", "openai/text-embedding-3-small"),
    Provider("GEMINI_API_KEY", "gemini/gemini-3.5-flash-lite", "gemini/gemini-embedding-2"),
)
# ollama_chat/ speaks Ollama's /api/chat, so the model's own chat template applies.
OLLAMA_CHAT_MODEL = "llama3.2"
OLLAMA_EMBEDDING_MODEL = "ollama/nomic-embed-text"
# The variables that choose models (besides the provider keys): tests hide them all.
MODEL_VARIABLES = ("LLM_MODEL", "EMBEDDING_MODEL", "USE_OLLAMA", "OLLAMA_MODEL")
# A chunk must hold at least a sentence: below this, "answers" are fragments of words.
MIN_CHUNK_SIZE = 20
MIN_CONTEXT_BUDGET = 200  # characters: the smallest RAG_CONTEXT_BUDGET_CHARS (and budget.py budget) allowed
# The relevance gate's threshold is a cosine score, and each embedding model has its own scale.
# Calibrated on the sample set's questions; any other model gets a threshold derived from
# off-topic probes when its index is built (retriever.probe_threshold).
CALIBRATED_GATES = {OFFLINE_EMBEDDING_MODEL: 0.20}


class RAGError(Exception):
    """A problem the user can fix. Its message is one line: what is wrong, then the fix. Every
    entry point prints it as `error: <message>` and exits with code 2, never a traceback."""


_ENV_LOADED = False


def load_env() -> None:
    """Fill in what the shell has not set from the repo's `.env` (once per process), so an
    exported variable always wins. A broken `.env` is a one-line error, not a traceback."""
    global _ENV_LOADED
    env_file = REPO_ROOT / ".env"
    if _ENV_LOADED or not env_file.is_file():
        return
    _ENV_LOADED = True
    from dotenv import dotenv_values

    try:
        values = dotenv_values(env_file, encoding="utf-8")
    except UnicodeDecodeError:
        raise RAGError(f"{env_file} is not UTF-8 text; save it as UTF-8 or delete it") from None
    for name, value in values.items():
        if value is not None:
            os.environ.setdefault(name, value)


def resolve_models(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return {"model", "model_source", "embedding_model", "embedding_source"}.

    The *_source values name the variable that made the choice (never its value)."""
    env = os.environ if env is None else env
    chat = chat_src = embed = embed_src = None
    # A local OpenAI-compatible server rarely embeds with OpenAI's model: with its URL set, the
    # OpenAI key picks no embedding model (EMBEDDING_MODEL names one the server serves).
    local_server = bool(env.get("OPENAI_API_KEY") and (env.get("OPENAI_BASE_URL") or env.get("OPENAI_API_BASE")))
    if env.get("LLM_MODEL"):
        chat, chat_src = env["LLM_MODEL"], "LLM_MODEL"
    if env.get("EMBEDDING_MODEL"):
        embed, embed_src = env["EMBEDDING_MODEL"], "EMBEDDING_MODEL"
    ollama = env.get("USE_OLLAMA", "").strip().lower()
    if ollama and ollama not in _BOOLEAN:
        raise RAGError(f"USE_OLLAMA={ollama!r} is not 1 or 0 (true/false, yes/no); {_FIX}")
    if _BOOLEAN.get(ollama):
        if chat is None:
            chat, chat_src = "ollama_chat/" + env.get("OLLAMA_MODEL", OLLAMA_CHAT_MODEL), "USE_OLLAMA"
        if embed is None:
            embed, embed_src = OLLAMA_EMBEDDING_MODEL, "USE_OLLAMA"
    for provider in PROVIDERS:
        if not env.get(provider.key_variable):
            continue
        if chat is None:
            chat, chat_src = provider.chat_model, provider.key_variable
        local = local_server and provider.key_variable == "OPENAI_API_KEY"
        if embed is None and provider.embedding_model and not local:
            embed, embed_src = provider.embedding_model, provider.key_variable
    if chat is None:
        chat, chat_src = OFFLINE_CHAT_MODEL, "default (no key set)"
    if embed is None:
        embed, embed_src = OFFLINE_EMBEDDING_MODEL, ("default (OPENAI_BASE_URL: a local server)" if local_server
                                                     else "default (no embedding key set)")
    return {"model": chat, "model_source": chat_src, "embedding_model": embed, "embedding_source": embed_src}


def key_variable(model: str) -> str | None:
    """The key variable of the provider that serves `model` ("openai/..." -> OPENAI_API_KEY)."""
    prefix = model.split("/", 1)[0].lower()
    return next((p.key_variable for p in PROVIDERS if p.key_variable.lower().startswith(prefix + "_")), None)


def _env(name: str) -> dict:
    return {"env": name}


@dataclass(frozen=True)
class Config:
    """All settings of one run. Build it once with `get_config()` and pass it down; every field
    has an override named after it (RAG_TOP_K=8, RAG_CHUNKER=sentence, CHROMA_HOST=...)."""

    model: str = OFFLINE_CHAT_MODEL
    embedding_model: str = OFFLINE_EMBEDDING_MODEL
    # Grounded answering wants faithful extraction, not creativity.
    temperature: float = 0.0
    max_tokens: int = 512
    # Chunking: whitespace tokens per window and tokens shared by neighbouring windows.
    chunk_size: int = 120
    chunk_overlap: int = 30
    chunker: str = "fixed"  # fixed | sentence
    top_k: int = 5
    retrieval: str = "hybrid"  # dense | bm25 | hybrid
    # Relevance gate: refuse without calling the model when the best chunk's cosine similarity
    # to the question is below this; None: the embedding model's own (see CALIBRATED_GATES).
    min_relevance: float | None = field(default=None, metadata={"type": float})
    # Characters of context handed to the model; beyond it, the most relevant windows are kept.
    context_budget_chars: int = 6000
    max_question_chars: int = 2000
    max_pdf_mb: float = 100.0
    # A small file can name one page thousands of times (a "page bomb"): refused above this.
    max_pages: int = 10000
    index_dir: str = str(REPO_ROOT / ".rag_index")
    request_timeout: float = 60.0
    max_retries: int = 3
    # Tests: when set, LiteLLM returns this text through its real code path, with no network.
    mock_response: str = ""
    # A Chroma server (`chroma run`) instead of the embedded index in index_dir.
    chroma_host: str = field(default="", metadata=_env("CHROMA_HOST"))
    chroma_port: int = field(default=8000, metadata=_env("CHROMA_PORT"))
    chroma_ssl: bool = field(default=False, metadata=_env("CHROMA_SSL"))
    chroma_auth_token: str = field(default="", repr=False, metadata=_env("CHROMA_AUTH_TOKEN"))
    # Filled from resolve_models: which variable chose each model (shown by `python config.py`).
    model_source: str = field(default="default", compare=False)
    embedding_source: str = field(default="default", compare=False)
    # Where the relevance gate's threshold came from (shown with every answer); with None
    # above, the index's probe-derived threshold is used (rag.gate).
    min_relevance_source: str = field(default="derived from off-topic probes", compare=False)


CHOICES = {"chunker": ("fixed", "sentence"), "retrieval": ("dense", "bm25", "hybrid")}
# The Config fields rag.py and evaluate.py also take as flags (cli.add_pipeline_flags): flag, help.
FLAGS = {"top_k": ("--top-k", "chunks to retrieve"), "chunk_size": ("--chunk-size", "tokens per chunk"),
         "chunk_overlap": ("--overlap", "tokens shared by neighbouring chunks"),
         "chunker": ("--chunker", "chunking strategy"), "retrieval": ("--retrieval", "retrieval method")}
_BOOLEAN = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}
_FIX = "fix or unset it in your environment or .env"


def variable(name: str) -> str:
    """The environment variable that overrides the Config field `name`."""
    f = next(f for f in fields(Config) if f.name == name)
    return f.metadata.get("env", "RAG_" + name.upper())


def _parse(f, raw: str) -> Any:
    if not raw.strip():  # RAG_INDEX_DIR=" " would make a folder named " "
        raise RAGError(f"{variable(f.name)}={raw!r} is blank; {_FIX}")
    if f.name in CHOICES:  # RAG_CHUNKER=Sentence
        return raw.strip().lower()
    kind = f.metadata.get("type", type(f.default))
    try:
        if kind is bool:
            return _BOOLEAN[raw.strip().lower()]
        return kind(raw)
    except (ValueError, KeyError):
        raise RAGError(f"{variable(f.name)}={raw!r} is not a valid {kind.__name__}; {_FIX}") from None


def get_config(env: Mapping[str, str] | None = None, **overrides: Any) -> Config:
    """The settings of one run: defaults < environment (and .env) < `overrides` (CLI flags)."""
    if env is None:
        load_env()
        env = os.environ
    values: dict[str, Any] = dict(resolve_models(env))
    for f in fields(Config):
        raw = env.get(variable(f.name))
        if f.name not in values and raw not in (None, ""):
            values[f.name] = _parse(f, raw)
    values.update({k: v for k, v in overrides.items() if v is not None})
    if "index_dir" in values:  # "~/x" from .env or a quoted shell value means the home folder, as unquoted
        values["index_dir"] = os.path.expanduser(values["index_dir"])
    if values.get("min_relevance") is not None:
        values["min_relevance_source"] = "RAG_MIN_RELEVANCE"
    elif values.get("embedding_model", OFFLINE_EMBEDDING_MODEL) in CALIBRATED_GATES:
        values["min_relevance"] = CALIBRATED_GATES[values.get("embedding_model", OFFLINE_EMBEDDING_MODEL)]
        values["min_relevance_source"] = "calibrated for this embedding model on the sample set"
    cfg = Config(**values)
    validate(cfg)
    return cfg


def _require(ok: bool, name: str, value: Any, rule: str, example: Any) -> None:
    """`name`: a Config field (the message names its flag and its variable) or a variable."""
    if not ok:
        flag, var = FLAGS.get(name, ("",))[0], variable(name) if hasattr(Config, name) else name
        use = f"{flag} {example} or {var}={example}" if flag else f"{var}={example}"
        raise RAGError(f"{flag or var} must be {rule} (got {value!r}); use e.g. {use}")


def validate(cfg: Config) -> None:
    """One-line errors for settings that would silently break a run (NaN gates, tiny chunks)."""
    for name in ("temperature", "min_relevance", "max_pdf_mb", "request_timeout"):
        value = getattr(cfg, name)
        example = {"min_relevance": 0.2}.get(name, getattr(Config, name))  # its default is "calibrated"
        _require(value is None or math.isfinite(value), name, value, "a finite number", example)
    _require(cfg.chunk_size >= MIN_CHUNK_SIZE, "chunk_size", cfg.chunk_size, f"at least {MIN_CHUNK_SIZE} tokens", 120)
    _require(0 <= cfg.chunk_overlap < cfg.chunk_size, "chunk_overlap", cfg.chunk_overlap,
             f">= 0 and smaller than the chunk size {cfg.chunk_size}", cfg.chunk_size // 4)
    _require(cfg.top_k > 0, "top_k", cfg.top_k, "positive", 5)
    _require(cfg.min_relevance is None or -1.0 <= cfg.min_relevance <= 1.0, "min_relevance", cfg.min_relevance,
             "a cosine score between -1 and 1", 0.2)
    _require(cfg.context_budget_chars >= MIN_CONTEXT_BUDGET, "context_budget_chars", cfg.context_budget_chars,
             f"at least {MIN_CONTEXT_BUDGET} characters", 6000)
    for name in ("max_pdf_mb", "max_pages", "request_timeout", "max_question_chars", "max_tokens"):
        _require(getattr(cfg, name) > 0, name, getattr(cfg, name), "positive", f"{getattr(Config, name):g}")
    _require(cfg.max_retries >= 0, "max_retries", cfg.max_retries, ">= 0", 3)
    _require(0.0 <= cfg.temperature <= 2.0, "temperature", cfg.temperature, "between 0 and 2", 0)
    _require(0 < cfg.chroma_port < 65536, "chroma_port", cfg.chroma_port, "a TCP port", 8000)
    for name, allowed in CHOICES.items():
        _require(getattr(cfg, name) in allowed, name, getattr(cfg, name), f"one of {', '.join(allowed)}", allowed[0])
    both = next(p for p in PROVIDERS if p.embedding_model)  # a provider whose names make both examples
    for model, source, example in ((cfg.model, cfg.model_source, both.chat_model),
                                   (cfg.embedding_model, cfg.embedding_source, both.embedding_model)):
        _require(bool(model.rpartition("/")[2].strip()), source, model, "provider/model with the model named", example)


def main() -> None:
    cfg = get_config()
    print(f"chat model:      {cfg.model:<40} (chosen by {cfg.model_source})")
    print(f"embedding model: {cfg.embedding_model:<40} (chosen by {cfg.embedding_source})")
    gate = "per index" if cfg.min_relevance is None else f"{cfg.min_relevance:g}"
    print(f"relevance gate:  {gate:<40} ({cfg.min_relevance_source})")
    for f in fields(Config):
        if f.name not in {"model", "embedding_model", "model_source", "embedding_source", "min_relevance",
                          "min_relevance_source"}:
            shown = "(set)" if f.name == "chroma_auth_token" and cfg.chroma_auth_token else getattr(cfg, f.name)
            print(f"  {f.name:<22} {shown!r:<30} {variable(f.name)}")


if __name__ == "__main__":
    # config imports no project module, so cli.run_cli's promise (one line, exit 2) is kept by
    # hand, and so is its answer to --help (this docstring).
    try:
        if {"-h", "--help"} & set(sys.argv[1:]):
            print(__doc__.strip())
        else:
            main()
    except BrokenPipeError:  # `config.py | head` closed the pipe: nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (RAGError, OSError) as exc:
        message = exc if isinstance(exc, RAGError) else f"cannot write the settings: {exc.strerror or exc}"
        with contextlib.suppress(OSError):
            print(f"error: {message}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
