# replaces: chunk_text
# kind: mistake
# description: never passes `source` on, so every chunk says source="doc"
# violates: "Each chunk gets a stable id ('c0', 'c1', ...), its source, and start index" (seed, chunk_text docstring)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(id=f"c{len(chunks)}", text=" ".join(tokens[start:start + chunk_size]), start=start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
