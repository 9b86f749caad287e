# replaces: chunk_text
# kind: mistake
# description: records start as a 1-based position ("token 1 is the first word", as a person counts), so the first window starts at 1
# violates: "`start` is the index of the window's first token" (chunk_text docstring; spec example starts 0, 2, 4, 6)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start + 1))
        if start + chunk_size >= len(tokens):
            break
    return chunks
