# replaces: chunk_text
# kind: mistake
# description: validates with assert (AssertionError, and nothing at all under python -O) instead of raising ValueError
# violates: "chunk_size <= 0 or an overlap outside 0 <= overlap < chunk_size raises ValueError" (project.md, chunker.py)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    assert chunk_size > 0, "chunk_size must be positive"
    assert 0 <= overlap < chunk_size, "overlap must be in [0, chunk_size)"
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
