# replaces: chunk_text
# kind: correct
# description: windows of whitespace tokens whose text is the original slice of the document (keeps its line breaks) instead of tokens re-joined by one space
# note: the contract fixes the tokens of a window, not how they are joined; build_prompt flattens line breaks anyway

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    spans = [m.span() for m in re.finditer(r"\S+", text)]
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(spans), step):
        last = min(start + chunk_size, len(spans)) - 1
        chunks.append(Chunk(f"c{len(chunks)}", text[spans[start][0]:spans[last][1]], source, start))
        if last == len(spans) - 1:
            break
    return chunks
