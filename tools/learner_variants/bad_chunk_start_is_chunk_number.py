# replaces: chunk_text
# kind: mistake
# description: start holds the chunk's number (0, 1, 2, ...) instead of the index of its first token
# violates: "Each chunk gets a stable id ('c0', 'c1', ...), its source, and start index" / "start = 0, 2, 4, 6" (seed docstring; project.md example)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for n, start in enumerate(range(0, len(tokens), step)):
        chunks.append(Chunk(f"c{n}", " ".join(tokens[start:start + chunk_size]), source, n))
        if start + chunk_size >= len(tokens):
            break
    return chunks
