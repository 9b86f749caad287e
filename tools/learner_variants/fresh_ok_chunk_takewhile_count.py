# replaces: chunk_text
# kind: correct
# description: itertools: starts from count(0, step), kept while the PREVIOUS window had not reached the end (takewhile over pairwise-shifted starts)
import itertools


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError(f"invalid sizes: chunk_size={chunk_size}, overlap={overlap}")
    tokens = text.split()
    if not tokens:
        return []
    step = chunk_size - overlap
    # A start is needed when it is the first one or the window before it did not reach the end.
    starts = itertools.takewhile(lambda s: s == 0 or s - step + chunk_size < len(tokens), itertools.count(0, step))
    return [Chunk(f"c{n}", " ".join(tokens[s:s + chunk_size]), source, s) for n, s in enumerate(starts)]
