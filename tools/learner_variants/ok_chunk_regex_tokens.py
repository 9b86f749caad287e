# replaces: chunk_text
# kind: correct
# description: whitespace tokens via re.findall(r"\S+") instead of str.split()

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError(f"invalid chunking: chunk_size={chunk_size}, overlap={overlap}")
    tokens = re.findall(r"\S+", text)
    step = chunk_size - overlap
    out = []
    for start in range(0, len(tokens), step):
        out.append(Chunk(f"c{len(out)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return out
