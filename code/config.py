"""Step 0 of the pipeline: settings and the one gateway to models.  [provided]

Everything configurable lives here, so the index, the retriever and the generator can never
disagree about a setting:

* which chat model and which embedding model to use (`resolve_models`), in this order:
  explicit `LLM_MODEL` / `EMBEDDING_MODEL`  >  `USE_OLLAMA=1`  >  the first cloud key present
  (Groq, Anthropic, OpenAI, Gemini)  >  the offline models that ship with the project;
* the `Config` (temperature, chunking, top-k, gate threshold, ...) with `RAG_*` overrides;
* `completion(...)` and `embedding(...)`: offline model names go to `offline_model.py`,
  everything else to LiteLLM, which is imported only when a real model is called.

Run alone:  python code/config.py    (prints the resolved models and who chose them, never a key)
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

REPO_ROOT = Path(__file__).resolve().parent.parent

OFFLINE_CHAT_MODEL = "offline/extractive"
OFFLINE_EMBEDDING_MODEL = "offline/wordllama-l2-256"

# (key variable, chat model, embedding model or None when the provider has no embedding endpoint)
CLOUD_PROVIDERS: tuple[tuple[str, str, str | None], ...] = (
    ("GROQ_API_KEY", "groq/llama-3.3-70b-versatile", None),
    ("ANTHROPIC_API_KEY", "anthropic/claude-haiku-4-5", None),
    ("OPENAI_API_KEY", "openai/gpt-4o-mini", "openai/text-embedding-3-small"),
    ("GEMINI_API_KEY", "gemini/gemini-2.0-flash", "gemini/text-embedding-004"),
)
OLLAMA_CHAT_DEFAULT = "ollama/llama3.2"
OLLAMA_EMBEDDING = "ollama/nomic-embed-text"


class RAGError(Exception):
    """A problem the user can fix. Its message is one line: what is wrong, then the fix.

    Every entry point prints it as `error: <message>` and exits with code 2, never a traceback.
    """


def _load_dotenv() -> None:
    # The repo's .env fills in only what the shell has not set, so an exported variable always wins.
    env_file = REPO_ROOT / ".env"
    if env_file.is_file():
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)


_load_dotenv()


def resolve_models(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return {"model", "model_source", "embedding_model", "embedding_source"}.

    The *_source values name the variable that made the choice (never its value)."""
    env = os.environ if env is None else env
    chat = chat_src = embed = embed_src = None

    if env.get("LLM_MODEL"):
        chat, chat_src = env["LLM_MODEL"], "LLM_MODEL"
    if env.get("EMBEDDING_MODEL"):
        embed, embed_src = env["EMBEDDING_MODEL"], "EMBEDDING_MODEL"

    if env.get("USE_OLLAMA", "").strip().lower() in {"1", "true", "yes"}:
        if chat is None:
            chat, chat_src = "ollama/" + env.get("OLLAMA_MODEL", "llama3.2"), "USE_OLLAMA"
        if embed is None:
            embed, embed_src = OLLAMA_EMBEDDING, "USE_OLLAMA"

    for key_var, chat_model, embed_model in CLOUD_PROVIDERS:
        if not env.get(key_var):
            continue
        if chat is None:
            chat, chat_src = chat_model, key_var
        if embed is None and embed_model is not None:
            embed, embed_src = embed_model, key_var

    if chat is None:
        chat, chat_src = OFFLINE_CHAT_MODEL, "default (no key set)"
    if embed is None:
        embed, embed_src = OFFLINE_EMBEDDING_MODEL, "default (no embedding key set)"
    return {"model": chat, "model_source": chat_src,
            "embedding_model": embed, "embedding_source": embed_src}


@dataclass(frozen=True)
class Config:
    """All settings of one run. Build it with `get_config()`; every field has a RAG_* override
    named after it (e.g. RAG_TOP_K=8, RAG_CHUNKER=sentence)."""

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
    # to the question is below this (calibrated in EVALUATION.md).
    min_relevance: float = 0.20
    # Characters of context handed to the model; beyond it, the most relevant windows are kept.
    context_budget_chars: int = 6000
    max_question_chars: int = 2000
    max_pdf_mb: float = 100.0
    index_dir: str = str(REPO_ROOT / ".rag_index")
    request_timeout: float = 60.0
    max_retries: int = 3
    # Tests: when set, LiteLLM returns this text through its real code path, with no network.
    mock_response: str = ""
    # Filled from resolve_models: which variable chose each model (shown by `python config.py`).
    model_source: str = field(default="default", compare=False)
    embedding_source: str = field(default="default", compare=False)


_CHOICES = {"chunker": {"fixed", "sentence"}, "retrieval": {"dense", "bm25", "hybrid"}}


def get_config(env: Mapping[str, str] | None = None, **overrides: Any) -> Config:
    """Read the environment now (cheap), so a changed variable takes effect on the next call."""
    env = os.environ if env is None else env
    values: dict[str, Any] = dict(resolve_models(env))
    for f in fields(Config):
        if f.name in values:
            continue
        raw = env.get("RAG_" + f.name.upper())
        if raw is None or raw == "":
            continue
        kind = type(f.default)
        try:
            values[f.name] = kind(raw)
        except ValueError:
            raise RAGError(f"RAG_{f.name.upper()}={raw!r} is not a valid {kind.__name__}; "
                           f"fix or unset it in your environment or .env") from None
    values.update({k: v for k, v in overrides.items() if v is not None})
    cfg = Config(**values)
    validate(cfg)
    return cfg


def validate(cfg: Config) -> None:
    if cfg.chunk_size <= 0:
        raise RAGError(f"chunk size must be positive (got {cfg.chunk_size}); use e.g. --chunk-size 120")
    if cfg.chunk_overlap < 0 or cfg.chunk_overlap >= cfg.chunk_size:
        raise RAGError(f"overlap must be >= 0 and smaller than the chunk size "
                       f"(got overlap {cfg.chunk_overlap}, size {cfg.chunk_size}); "
                       f"use e.g. --overlap {cfg.chunk_size // 4}")
    if cfg.top_k <= 0:
        raise RAGError(f"top-k must be positive (got {cfg.top_k}); use e.g. --top-k 5")
    for name, allowed in _CHOICES.items():
        if getattr(cfg, name) not in allowed:
            raise RAGError(f"{name} must be one of {', '.join(sorted(allowed))} "
                           f"(got {getattr(cfg, name)!r})")


def is_offline(model: str) -> bool:
    return model.startswith("offline/")


# --------------------------------------------------------------------------- the model gateway

def _litellm():
    # Importing LiteLLM takes seconds, so only real-model calls pay for it; the local price map
    # keeps it from fetching its model list from the network on import.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    return litellm


def _provider_error(exc: Exception, model: str) -> RAGError:
    """Turn a LiteLLM exception into one line that names the fix."""
    name = type(exc).__name__
    text = str(exc).splitlines()[0][:200] if str(exc) else name
    if model.startswith("ollama/") and ("Connect" in name or "Connection" in text
                                        or "refused" in text.lower()):
        return RAGError(f"cannot reach Ollama for {model}; start it with `ollama serve` "
                        f"and pull the model with `ollama pull {model.split('/', 1)[1]}`")
    if "Authentication" in name or "api key" in text.lower() or "api_key" in text.lower():
        wanted = next((k for k, c, e in CLOUD_PROVIDERS
                       if model.split("/")[0] in k.lower() or model in (c, e)), None)
        hint = f"set {wanted}" if wanted else "set the provider's API key"
        return RAGError(f"{model}: the provider rejected the API key ({name}); {hint} in .env "
                        f"or unset LLM_MODEL/EMBEDDING_MODEL to run offline")
    if "NotFound" in name or ("BadRequest" in name and "model" in text.lower()):
        return RAGError(f"unknown model {model!r} ({text}); check LLM_MODEL / EMBEDDING_MODEL "
                        f"(format provider/name, e.g. openai/gpt-4o-mini)")
    if "RateLimit" in name:
        return RAGError(f"{model}: rate limit still hit after retries; wait a minute, lower "
                        f"RAG_TOP_K, or switch provider")
    if "Timeout" in name:
        return RAGError(f"{model}: request timed out after retries; raise RAG_REQUEST_TIMEOUT "
                        f"or try again")
    return RAGError(f"{model}: provider error {name}: {text}")


_RETRYABLE = ("RateLimitError", "Timeout", "APIConnectionError", "ServiceUnavailableError",
              "InternalServerError")


def _call_with_retries(call, model: str, retries: int, base_delay: float = 1.0):
    for attempt in range(retries + 1):
        try:
            return call()
        except RAGError:
            raise
        except Exception as exc:  # LiteLLM maps every provider's errors onto its own classes
            retryable = type(exc).__name__ in _RETRYABLE and not (
                model.startswith("ollama/") and type(exc).__name__ == "APIConnectionError")
            if not retryable or attempt == retries:
                raise _provider_error(exc, model) from None
            time.sleep(base_delay * 2 ** attempt)


def completion(messages: list[dict], *, model: str | None = None, temperature: float | None = None,
               max_tokens: int | None = None, cfg: Config | None = None, **kwargs: Any):
    """Chat completion through one door. Returns an object shaped like LiteLLM's response:
    `response.choices[0].message.content` and `response.usage.prompt_tokens`."""
    cfg = cfg or get_config()
    model = model or cfg.model
    temperature = cfg.temperature if temperature is None else temperature
    max_tokens = max_tokens or cfg.max_tokens
    if is_offline(model):
        import offline_model

        return offline_model.complete(messages, model=model)
    litellm = _litellm()
    if cfg.mock_response and "mock_response" not in kwargs:
        kwargs["mock_response"] = cfg.mock_response
    return _call_with_retries(
        lambda: litellm.completion(model=model, messages=messages, temperature=temperature,
                                   max_tokens=max_tokens, timeout=cfg.request_timeout, **kwargs),
        model, cfg.max_retries)


def embedding(texts: list[str], *, model: str | None = None, cfg: Config | None = None) -> list[list[float]]:
    """Embed a batch of texts with `model` (default: the configured embedding model)."""
    cfg = cfg or get_config()
    model = model or cfg.embedding_model
    if is_offline(model):
        import offline_model

        return offline_model.embed(texts, model=model)
    litellm = _litellm()
    response = _call_with_retries(
        lambda: litellm.embedding(model=model, input=texts, timeout=cfg.request_timeout),
        model, cfg.max_retries)
    return [item["embedding"] for item in response.data]


def fail(message: str, code: int = 2) -> "NoReturn":  # noqa: F821 - typing only
    """Print a one-line error and exit: the common ending of every CLI's error path."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(code)


def run_cli(main_fn) -> None:
    """Run a module's main() as a learner expects: a user error (RAGError) or a milestone not
    done yet (NotImplementedError) is one line on stderr and exit code 2, never a traceback; an
    unexpected error is one line and exit code 1 (RAG_DEBUG=1 shows its traceback)."""
    try:
        main_fn()
    except RAGError as exc:
        fail(str(exc))
    except NotImplementedError as exc:
        fail(str(exc) or "a milestone is not implemented yet")
    except KeyboardInterrupt:
        fail("interrupted; an unfinished index is discarded on the next run", 130)
    except Exception as exc:  # a bug, not bad input: say so briefly, keep the trace on request
        if os.environ.get("RAG_DEBUG"):
            raise
        first_line = (str(exc).splitlines() or [""])[0][:200]
        fail(f"unexpected {type(exc).__name__}: {first_line} (a bug? run again with RAG_DEBUG=1 "
             f"to see the traceback, and please report it)", 1)


def main() -> None:
    cfg = get_config()
    print(f"chat model:      {cfg.model:<40} (chosen by {cfg.model_source})")
    print(f"embedding model: {cfg.embedding_model:<40} (chosen by {cfg.embedding_source})")
    for f in fields(Config):
        if f.name not in {"model", "embedding_model", "model_source", "embedding_source"}:
            print(f"  {f.name:<22} {getattr(cfg, f.name)!r:<30} RAG_{f.name.upper()}")


if __name__ == "__main__":
    run_cli(main)
