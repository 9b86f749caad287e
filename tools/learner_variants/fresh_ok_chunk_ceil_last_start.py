# replaces: chunk_text
# kind: correct
# description: computes the last start arithmetically (ceil((N - size) / step) * step, with -(-a // b) for the ceiling, 0 when the text fits one window) and loops over range(0, last + 1, step)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    if overlap < 0 or overlap >= chunk_size:
        raise ValueError("overlap must be at least 0 and smaller than chunk_size")
    tokens = text.split()
    n = len(tokens)
    if n == 0:
        return []
    step = chunk_size - overlap
    last = -(-max(n - chunk_size, 0) // step) * step
    chunks = []
    for index, start in enumerate(range(0, last + 1, step)):
        chunks.append(Chunk(f"c{index}", " ".join(tokens[start:start + chunk_size]), source, start))
    return chunks
