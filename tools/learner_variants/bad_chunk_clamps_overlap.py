# replaces: chunk_text
# kind: mistake
# description: "guards" a bad overlap by clamping it into range (overlap = chunk_size - 1) instead of failing
# violates: "chunk_size <= 0 or an overlap outside 0 <= overlap < chunk_size raises ValueError" (project.md, chunker.py)
# note: the seed's table says "overlap >= size -> raise/guard", which reads as allowing a silent guard; project.md forbids it

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    chunk_size = max(1, chunk_size)
    overlap = min(max(0, overlap), chunk_size - 1)
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
