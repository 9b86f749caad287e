"""The one door to models: the offline stand-in or LiteLLM.  [provided]

`completion(messages, cfg=cfg)` and `embedding(texts, cfg=cfg)` send `offline/...` models to
the offline stand-in (offline_chat.py, offline_embeddings.py) and every other model to LiteLLM, which is imported
only when a real model is called (the import costs seconds). Whatever answers, the response
has LiteLLM's shape: `response.choices[0].message.content` (or `response["choices"][0]...`).

A provider's failure becomes one `RAGError` line that names the fix (the key variable, the
model variable, the timeout setting). Rate limits, outages and timeouts are retried by the
provider client inside LiteLLM (`max_retries`: backoff from 0.5 s, honouring Retry-After), and
each retry is one `note:` line on stderr; 1 + RAG_MAX_RETRIES attempts at most. An empty reply is
an error too: it says nothing about the document.

Run alone:  python code/llm.py    (which models are configured, and one round trip to each)
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from citations import ungroup
from cli import run_cli, uninterrupted
from config import Config, RAGError, get_config, key_variable


def is_offline(model: str) -> bool:
    return model.startswith("offline/")


class _RetryCount(logging.Handler):
    """Counts retries: the provider client logs "Retrying request to ..." at INFO."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += record.getMessage().startswith("Retrying request")


_RETRIES = _RetryCount()


def load_litellm():
    """LiteLLM, imported on first use, quiet: stdout carries only the answer (or --json)."""
    # The local price map keeps LiteLLM from fetching its model list from the network; outside
    # "DEV" mode it does not load a .env of its own (only the repository's .env counts).
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_MODE", "PRODUCTION")
    with uninterrupted():
        import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    litellm.drop_params = True  # reasoning models refuse a temperature; drop it rather than fail
    litellm.DEFAULT_MAX_RETRIES = 0  # else embedding() reads max_retries=0 as "the default, 2"
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "httpx", "openai"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.WARNING)  # LiteLLM's own handler writes INFO to stdout
        logger.handlers = [logging.StreamHandler(sys.stderr)]
        logger.propagate = False
    retries = logging.getLogger("openai._base_client")
    retries.setLevel(logging.INFO)
    retries.handlers, retries.propagate = [_RETRIES], False
    return litellm


# A reply came, so the server is reachable (LiteLLM may still call it a connection error): an
# HTML error page or a proxy's text, JSON of some other service (no "choices"), or a 2xx body
# the client could not parse ("Received response - <APIResponse [200 OK]"): not the API.
_NOT_THE_API = ("model_dump", "expecting value", "<html", "no 'choices'", "<apiresponse [2")


def provider_error(exc: Exception, model: str) -> RAGError:
    """Turn a LiteLLM exception into one line that names the fix."""
    name = type(exc).__name__
    text = (str(exc).splitlines() or [name])[0][:200]
    low, key = str(exc).lower(), key_variable(model)  # the whole message: a marker may lie past 200 characters
    provider = model.split("/")[0].removesuffix("_chat")  # ollama_chat/ is Ollama too
    where = {"openai": "OPENAI_BASE_URL", "ollama": "OLLAMA_API_BASE"}.get(provider, "the network")
    not_the_api = any(s in low for s in _NOT_THE_API)
    if model.startswith("ollama") and ("Connect" in name or "refused" in low) and not not_the_api:
        return RAGError(f"cannot reach Ollama for {model}; start it with `ollama serve` "
                        f"and pull the model with `ollama pull {model.split('/', 1)[1]}`")
    if "Authentication" in name or "PermissionDenied" in name or "missing credentials" in low:
        hint = f"set {key}" if key else "set the provider's API key"
        return RAGError(f"{model}: the provider rejected or lacks the API key ({name}); {hint} in .env "
                        f"or unset LLM_MODEL/EMBEDDING_MODEL to run offline")
    if "NotFound" in name or ("BadRequest" in name and "model" in low):
        return RAGError(f"unknown model {model!r} ({text}); check LLM_MODEL / EMBEDDING_MODEL "
                        f"(format provider/name, e.g. openai/gpt-5.4-mini)")
    if "RateLimit" in name:
        return RAGError(f"{model}: the provider's rate limit was hit; wait a minute, lower "
                        f"RAG_TOP_K, or switch provider")
    if "Timeout" in name and "GatewayTimeout" not in name:
        return RAGError(f"{model}: no answer within RAG_REQUEST_TIMEOUT after retries; raise it "
                        f"or try again")
    if "BadGateway" in name or "GatewayTimeout" in name:  # before the page check: a proxy sends HTML
        return RAGError(f"{model}: a proxy or gateway could not reach the model's server ({name}); "
                        f"check that {'the server at ' + where if model.startswith('openai/') else 'the provider'} "
                        f"is up, or try again later")
    unreachable = any(s in low for s in ("connection error", "name or service not known", "refused"))
    if not not_the_api and ("Connection" in name or unreachable):
        return RAGError(f"{model}: cannot reach the provider ({text}); check {where} (is the server running?)")
    if not_the_api:
        url = "Ollama's own URL, without /v1" if model.startswith("ollama") else "a server's /v1 URL"
        return RAGError(f"{model}: the reply was not the provider's JSON API; check {where} ({url})")
    if "InternalServer" in name or "ServiceUnavailable" in name:
        return RAGError(f"{model}: the provider failed on its side ({text}); try again later or switch provider")
    return RAGError(f"{model}: provider error {name}: {text}")


def _call(function, model: str, cfg: Config, **kwargs: Any):
    # max_retries, not LiteLLM's num_retries: that one retries at once, also on 401 and 404,
    # and is ignored by embedding(); the provider client's retries back off and are bounded.
    _RETRIES.count = 0
    try:
        response = function(model=model, timeout=cfg.request_timeout, max_retries=cfg.max_retries, **kwargs)
    except RAGError:
        raise
    except Exception as exc:  # LiteLLM maps every provider's errors onto its own classes
        error = provider_error(exc, model)
        raise RAGError(f"{error} (retried {_RETRIES.count}x)" if _RETRIES.count else str(error)) from None
    if _RETRIES.count:  # a failure says it in its one line; a success says it here
        print(f"note: {model} answered once retried {_RETRIES.count}x", file=sys.stderr)
    return response


def completion(messages: list[dict], *, model: str | None = None, temperature: float | None = None,
               max_tokens: int | None = None, cfg: Config | None = None, **kwargs: Any):
    """Chat completion at the configured model, temperature and token limit (each may be
    overridden). Returns a LiteLLM-shaped response; ids grouped in one pair of brackets by a real
    model ("[c0, c12]") come back one per pair ("[c0][c12]"), the form `_CITE` reads."""
    cfg = cfg or get_config()
    model = model or cfg.model
    if is_offline(model):
        import offline_chat

        return offline_chat.complete(messages, model=model)
    if cfg.mock_response:
        kwargs.setdefault("mock_response", cfg.mock_response)
    response = _call(load_litellm().completion, model, cfg, messages=messages,
                     temperature=cfg.temperature if temperature is None else temperature,
                     max_tokens=max_tokens or cfg.max_tokens, **kwargs)
    message = response.choices[0].message
    if not (message.content or "").strip():
        raise RAGError(f"{model}: the model returned an empty reply (a content filter, or a token "
                       f"limit spent on reasoning); try again, raise RAG_MAX_TOKENS or pick another model")
    message.content = ungroup(message.content)  # a real model may group ids, "[c0, c12]"
    return response


def embedding(texts: list[str], *, model: str | None = None, cfg: Config | None = None) -> list[list[float]]:
    """Embed a batch of texts with `model` (default: the configured embedding model)."""
    cfg = cfg or get_config()
    model = model or cfg.embedding_model
    if is_offline(model):
        import offline_embeddings

        return offline_embeddings.embed(texts, model=model)
    response = _call(load_litellm().embedding, model, cfg, input=texts)
    return [item["embedding"] for item in response.data]


def main() -> None:
    cfg = get_config()
    reply = completion([{"role": "system", "content": "Answer only from the context; cite ids like [c0]."},
                        {"role": "user", "content": "[c0] The sky is blue.\n\nQuestion: What colour is the sky?"}],
                       cfg=cfg)
    print(f"chat {cfg.model}: {reply.choices[0].message.content}")
    print(f"embeddings {cfg.embedding_model}: dimension {len(embedding(['hello'], cfg=cfg)[0])}")


if __name__ == "__main__":
    run_cli(main)
