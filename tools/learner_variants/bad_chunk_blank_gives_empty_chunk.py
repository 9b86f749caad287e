# replaces: chunk_text
# kind: mistake
# description: do-while loop emits one window before checking, so empty or blank text gives [Chunk("c0", "")]
# violates: "Empty text -> []" (seed, chunk_text docstring and contract table)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    start = 0
    while True:
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
        start += step
    return chunks
