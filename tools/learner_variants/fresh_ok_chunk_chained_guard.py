# replaces: chunk_text
# kind: correct
# description: one chained comparison guards everything (`if not 0 <= overlap < chunk_size: raise ValueError`), since 0 <= overlap < chunk_size already implies chunk_size > 0; a for loop with an explicit done flag
# note: chunk_size=0 with overlap=0 and a negative chunk_size both fail the chained test

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if not 0 <= overlap < chunk_size:
        raise ValueError(f"need 0 <= overlap < chunk_size, got overlap={overlap}, chunk_size={chunk_size}")
    words = text.split()
    out: list[Chunk] = []
    done = False
    for start in range(0, len(words), chunk_size - overlap):
        if done:
            break
        out.append(Chunk(id=f"c{len(out)}", text=" ".join(words[start:start + chunk_size]),
                         source=source, start=start))
        done = start + chunk_size >= len(words)
    return out
