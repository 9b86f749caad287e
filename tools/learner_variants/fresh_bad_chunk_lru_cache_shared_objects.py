# replaces: chunk_text
# kind: mistake
# description: memoises chunk_text with functools.lru_cache "because the same pages get chunked again"; every call with the same arguments returns the SAME list of the SAME Chunk objects, which chunk_pages then renumbers and shifts in place, so a second chunking of a document returns ids and starts already rewritten by the first
# violates: "ids count from 'c0' in order; `start` is the index of the window's first token" (chunk_text docstring); "Each chunk gets a stable id ('c0', 'c1', ...)" (project.md)
import functools


@functools.lru_cache(maxsize=128)
def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
