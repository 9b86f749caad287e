# replaces: chunk_text
# kind: mistake
# description: guards exactly the seed's table row (overlap >= size) but lets a negative overlap through
# violates: "chunk_size <= 0 or an overlap outside 0 <= overlap < chunk_size raises ValueError" (project.md, chunker.py)
# note: the seed's contract table names only "overlap >= size -> raise/guard"; project.md is stricter

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if overlap >= chunk_size:
        raise ValueError("overlap must be smaller than chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
