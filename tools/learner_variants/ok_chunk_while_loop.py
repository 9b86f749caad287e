# replaces: chunk_text
# kind: correct
# description: while loop over the window start, stopping once a window reaches the end

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0:
        raise ValueError("chunk_size must be positive")
    if not 0 <= overlap < chunk_size:
        raise ValueError("overlap must satisfy 0 <= overlap < chunk_size")
    words = text.split()
    chunks: list[Chunk] = []
    start = 0
    while start < len(words):
        end = min(start + chunk_size, len(words))
        chunks.append(Chunk(id=f"c{len(chunks)}", text=" ".join(words[start:end]), source=source, start=start))
        if end == len(words):
            break
        start += chunk_size - overlap
    return chunks
