# replaces: chunk_text
# kind: correct
# description: computes the number of chunks first with the lesson's formula ceil((N - size) / step) + 1, then builds them

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    import math

    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    if not tokens:
        return []
    step = chunk_size - overlap
    count = 1 if len(tokens) <= chunk_size else math.ceil((len(tokens) - chunk_size) / step) + 1
    return [Chunk(f"c{i}", " ".join(tokens[i * step:i * step + chunk_size]), source, i * step)
            for i in range(count)]
