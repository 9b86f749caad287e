# replaces: chunk_text
# kind: correct
# description: the window starts as one range, range(0, max(len(tokens) - overlap, 1), step) (the first start whose window reaches the end is the last one below len - overlap), and one list comprehension builds the chunks
# note: for 0 < len(tokens) <= overlap the range is just [0]: one window holding the whole text

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("chunk_size must be positive and 0 <= overlap < chunk_size")
    tokens = text.split()
    if not tokens:
        return []
    step = chunk_size - overlap
    starts = range(0, max(len(tokens) - overlap, 1), step)
    return [Chunk(f"c{i}", " ".join(tokens[s:s + chunk_size]), source, s) for i, s in enumerate(starts)]
