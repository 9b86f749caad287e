# replaces: chunk_text
# kind: mistake
# description: no validation of chunk_size/overlap at all (overlap > size silently gives [], a negative overlap gives gaps)
# violates: "overlap >= size -> raise/guard" (seed, Input/Output contract table); "chunk_size <= 0 or an overlap outside 0 <= overlap < chunk_size raises ValueError" (project.md)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
