# replaces: chunk_text
# kind: mistake
# description: stops when a window reaches the second-to-last token (start + chunk_size >= len(tokens) - 1), so when a window ends exactly one token short of the end, the last token is never chunked
# violates: "the last window is the first one that reaches the last token" (chunk_text docstring); "getting the window stride wrong either drops boundary text or emits a redundant tail chunk" (project.md, Known Difficulty Spikes 2)
# note: the spec example (10 tokens, 4/2) is right; 9 tokens with 4/2 lose token 8

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError(f"bad chunk_size/overlap: {chunk_size}/{overlap}")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens) - 1:  # last index is len - 1
            break
    return chunks
