# replaces: chunk_text
# kind: correct
# description: a private generator `_windows(tokens, size, step)` yields (start, tokens) pairs and chunk_text materialises them with a list comprehension over enumerate

def _windows(tokens: list[str], size: int, step: int):
    start = 0
    while start < len(tokens):
        yield start, tokens[start:start + size]
        if start + size >= len(tokens):
            return
        start += step


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError(f"chunk_size must be > 0 and 0 <= overlap < chunk_size (got {chunk_size}, {overlap})")
    windows = _windows(text.split(), chunk_size, chunk_size - overlap)
    return [Chunk(f"c{i}", " ".join(words), source, start) for i, (start, words) in enumerate(windows)]
