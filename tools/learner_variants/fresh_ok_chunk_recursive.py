# replaces: chunk_text
# kind: correct
# description: recursive helper: emit the window at `start`, stop if it reaches the end, else recurse at start + step (ids numbered afterwards)

def _chunk_from(tokens: list[str], start: int, size: int, step: int) -> list[tuple[int, str]]:
    window = (start, " ".join(tokens[start:start + size]))
    if start + size >= len(tokens):
        return [window]
    return [window] + _chunk_from(tokens, start + step, size, step)


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0:
        raise ValueError("chunk_size must be positive")
    if not 0 <= overlap < chunk_size:
        raise ValueError("overlap must satisfy 0 <= overlap < chunk_size")
    tokens = text.split()
    if not tokens:
        return []
    pairs = _chunk_from(tokens, 0, chunk_size, chunk_size - overlap)
    return [Chunk(f"c{i}", body, source, start) for i, (start, body) in enumerate(pairs)]
