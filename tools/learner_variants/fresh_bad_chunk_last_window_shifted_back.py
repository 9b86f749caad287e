# replaces: chunk_text
# kind: mistake
# description: "all chunks the same size": when the last window would be short, it is moved back to start at len(tokens) - chunk_size, so it overlaps its neighbour by more than `overlap`
# violates: "window i covers tokens [i*step, i*step + chunk_size) ... the last window ... (it may be shorter than chunk_size)" (chunk_text docstring); "adjacent overlap by `overlap`" (project.md contract table)
# note: identical on the spec example, whose last window fits exactly

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        if start + chunk_size > len(tokens):
            start = max(0, len(tokens) - chunk_size)
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
