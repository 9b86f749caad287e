# replaces: chunk_text
# kind: mistake
# description: loops over every start up to the end of the tokens, so the last windows ("I J") lie inside the one before
# violates: "Stop after the window that reaches the end (no redundant tail)" (seed, chunk_text docstring)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for i, start in enumerate(range(0, len(tokens), step)):
        chunks.append(Chunk(f"c{i}", " ".join(tokens[start:start + chunk_size]), source, start))
    return chunks
