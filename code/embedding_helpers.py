"""Step 3: text -> unit vectors.  [provided]

`embed_many` embeds chunks in batches and `embed_one` embeds a question, both with the ONE
embedding model chosen by config.py (chunks and questions must share a vector space: mixing
models returns confident nonsense). Vectors are unit length, so cosine similarity is a dot
product. The offline default is WordLlama's bundled model; any LiteLLM embedding model works.

Run alone:  python code/embedding_helpers.py    (embeds three sentences, prints similarities)
"""

from __future__ import annotations

import re

import numpy as np

from cli import run_cli
from config import Config, get_config
from llm import embedding

BATCH_SIZE = 64
# Texts are cut to this many characters before embedding: a batch is padded to its longest
# text, so one huge text would cost memory for all; a chunk is far shorter than this.
MAX_CHARS = 8000
# A run of this many characters without a space is data (base64, a hash), not language: left
# out of what is embedded, it cannot drown the sentences around it (they stay in the index).
_NOT_A_WORD = re.compile(r"\S{41,}")


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def embed_many(texts: list[str], cfg: Config | None = None, model: str | None = None) -> np.ndarray:
    """Embed `texts` (batched) into a float32 array of unit rows, shape (len(texts), dim)."""
    cfg = cfg or get_config()
    model = model or cfg.embedding_model
    batches = []
    for i in range(0, len(texts), BATCH_SIZE):
        batch = [_NOT_A_WORD.sub(" ", t[:MAX_CHARS]).strip() or " " for t in texts[i:i + BATCH_SIZE]]  # APIs reject ""
        batches.append(np.asarray(embedding(batch, model=model, cfg=cfg), dtype=np.float32))
    if not batches:
        return np.zeros((0, 0), dtype=np.float32)
    return _normalise(np.vstack(batches))


def embed_one(text: str, cfg: Config | None = None, model: str | None = None) -> np.ndarray:
    """Embed one text (a question) with the same model as the chunks: a unit vector."""
    return embed_many([text], cfg=cfg, model=model)[0]


def main() -> None:
    texts = ["Q3 revenue was 4.2M, up 8% YoY.", "What was Q3 revenue?", "A Berlin office opened in July."]
    cfg = get_config()
    vectors = embed_many(texts, cfg)
    print(f"model {cfg.embedding_model}: {vectors.shape[0]} vectors of dimension {vectors.shape[1]}")
    sims = vectors @ vectors.T
    for i, text in enumerate(texts):
        print(f"  cos(question, {text!r}) = {sims[1, i]:.3f}")


if __name__ == "__main__":
    run_cli(main)
