# replaces: chunk_text
# kind: mistake
# description: makes ids globally unique by prefixing the source (f"{source}:c{i}", so "doc:c0"), anticipating multi-file search
# violates: "Each chunk gets a stable id ('c0', 'c1', ...), its source, and start index" (project.md); the source has its own field

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"{source}:c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
