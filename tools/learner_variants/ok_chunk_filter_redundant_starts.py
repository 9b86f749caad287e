# replaces: chunk_text
# kind: correct
# description: list of candidate starts, keeping the first and every start whose window is not inside the previous one (start + overlap < N)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size < 1 or not (0 <= overlap < chunk_size):
        raise ValueError("chunk_size must be >= 1 and overlap in [0, chunk_size)")
    tokens = text.split()
    n = len(tokens)
    starts = [s for s in range(0, n, chunk_size - overlap) if s == 0 or s + overlap < n]
    return [Chunk(f"c{i}", " ".join(tokens[s:s + chunk_size]), source, s) for i, s in enumerate(starts)]
