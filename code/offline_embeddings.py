"""The offline embedding models: text to unit vectors with no network.  [provided]

`embed(texts)` uses WordLlama's small static embeddings (256 dimensions), whose weights ship
inside the installed wheel; `offline/hash-256` is a much weaker model of the same dimension, for
the experiment that queries an index with another model than the one that built it. llm.py
sends every `offline/...` embedding model here.

Run alone:  python code/offline_embeddings.py    (cosine similarities of three sentences)
"""

from __future__ import annotations

import re
from functools import lru_cache

from cli import run_cli
from config import RAGError


@lru_cache(maxsize=1)
def _wordllama():
    import os

    import wordllama
    from wordllama import WordLlama

    # The weights and tokenizer ship inside the wheel; pointing cache_dir at the package and
    # disabling downloads keeps the load offline (otherwise WordLlama tries the network).
    return WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True)


def _hash_embed(texts: list[str], dim: int = 256) -> list[list[float]]:
    """A second, much weaker embedding model: hashed word counts. Same dimension as the
    default, different space: the failure experiment uses it to show what happens when an index
    is queried with another model than the one that built it."""
    import zlib

    import numpy as np

    vectors = np.zeros((len(texts), dim), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in re.findall(r"\w+", text.lower()):
            vectors[row, zlib.crc32(word.encode()) % dim] += 1.0
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1, norms)).tolist()


EMBEDDING_MODELS = {"offline/wordllama-l2-256": lambda texts: _wordllama().embed(texts, norm=True).tolist(),
                    "offline/hash-256": _hash_embed}


def embed(texts: list[str], model: str = "offline/wordllama-l2-256") -> list[list[float]]:
    if model not in EMBEDDING_MODELS:
        raise RAGError(f"unknown offline embedding model {model!r}; use one of "
                       f"{', '.join(EMBEDDING_MODELS)} or a LiteLLM model name")
    return EMBEDDING_MODELS[model](list(texts)) if texts else []


# WordLlama's static vectors set a word close to its synonyms ("begin"/"start" 0.82, "incorrect"/
# "wrong" 0.75, "receive"/"get" 0.62) and far from unrelated words (mostly under 0.3): a word this
# close to another is that word, reworded. (Antonyms are close too, "faster"/"slower" 0.55: the
# verifier checks direction words on its own.)
SYNONYM_SIMILARITY = 0.6


@lru_cache(maxsize=1 << 15)
def _word_vector(word: str):
    import numpy as np

    return np.asarray(embed([word])[0])


def reworded_in(words: list[str], text: str) -> set[str]:
    """Those of `words` that a word of `text` says, in other words or the same (WordLlama's vectors)."""
    import numpy as np

    said = sorted(set(re.findall(r"[a-z]{3,}", text.lower())))
    if not words or not said:
        return set()
    closest = (np.stack([_word_vector(w) for w in words]) @ np.stack([_word_vector(w) for w in said]).T).max(axis=1)
    return {word for word, similarity in zip(words, closest) if similarity >= SYNONYM_SIMILARITY}


def main() -> None:
    import numpy as np

    texts = ["Q3 revenue was 4.2M.", "Third-quarter sales reached 4.2 million.", "A Berlin office opened."]
    vectors = np.asarray(embed(texts))
    for text, row in zip(texts[1:], vectors[1:] @ vectors[0]):
        print(f"{row:.3f}  {texts[0]!r} ~ {text!r}")


if __name__ == "__main__":
    run_cli(main)
