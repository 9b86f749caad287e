# replaces: chunk_text
# kind: mistake
# description: zero-pads the ids (c000, c001, ...) "so they sort correctly as strings"
# violates: "Each chunk gets a stable id ('c0', 'c1', ...)" (project.md, chunk_text docstring)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks):03d}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
