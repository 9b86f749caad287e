# replaces: chunk_text
# kind: mistake
# description: only full windows (range up to len - chunk_size), so tokens after the last full window are dropped when the stride does not divide evenly
# violates: "Stop after the window that reaches the end" / "adjacent overlap by overlap" — every token must be in a chunk (seed, chunk_text docstring; lesson 3.2)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    if not tokens:
        return []
    step = chunk_size - overlap
    last_start = max(len(tokens) - chunk_size, 0)
    return [Chunk(f"c{i}", " ".join(tokens[s:s + chunk_size]), source, s)
            for i, s in enumerate(range(0, last_start + 1, step))]
