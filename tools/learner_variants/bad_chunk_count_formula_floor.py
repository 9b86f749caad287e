# replaces: chunk_text
# kind: mistake
# description: number of chunks computed up front as (n - overlap) // step (floor instead of ceil), right for the example, drops the tail otherwise
# violates: "Stop after the window that reaches the end" — the last window must reach the end of the text (seed docstring; lesson 3.2 formula ceil((N - chunk_size) / step) + 1)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    if not tokens:
        return []
    step = chunk_size - overlap
    count = max(1, (len(tokens) - overlap) // step)
    return [Chunk(f"c{i}", " ".join(tokens[i * step:i * step + chunk_size]), source, i * step)
            for i in range(count)]
