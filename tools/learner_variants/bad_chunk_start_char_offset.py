# replaces: chunk_text
# kind: mistake
# description: start is the character offset of the window in the text, not the token index
# violates: "start index" with "start = 0, 2, 4, 6" for the example; Chunk.start is the "index of the chunk's first whitespace token" (seed; project.md)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    import re as _re
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    matches = list(_re.finditer(r"\S+", text))
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(matches), step):
        window = matches[start:start + chunk_size]
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(m.group() for m in window), source, window[0].start()))
        if start + chunk_size >= len(matches):
            break
    return chunks
