# replaces: chunk_text
# kind: mistake
# description: a learner probe (2026-12-01, lt12): follows the docstring's words literally, "any run of spaces, tabs or newlines separates two tokens": re.split(r"[ \t\n]+"), so \r (Windows line ends), \f (PDF page feed), \v and no-break spaces are not separators
# violates: "tokens are the words of `text.split()`" (chunk_text docstring)


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = [t for t in re.split(r"[ \t\n]+", text) if t]
    step = chunk_size - overlap
    chunks = []
    start = 0
    while start < len(tokens):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
        start += step
    return chunks
