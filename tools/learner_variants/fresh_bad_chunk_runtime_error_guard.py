# replaces: chunk_text
# kind: mistake
# description: guards the sizes but raises RuntimeError("invalid chunking parameters") instead of ValueError
# violates: "chunk_size <= 0, overlap < 0 or overlap >= chunk_size raise ValueError" (chunk_text docstring; lesson §7 M1)
# note: the seed's table says only "raise/guard"; the exception type is fixed by the docstring and lesson §7

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or not 0 <= overlap < chunk_size:
        raise RuntimeError(f"invalid chunking parameters: size={chunk_size}, overlap={overlap}")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    start = 0
    while start < len(tokens):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
        start += step
    return chunks
