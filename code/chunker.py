"""Step 2: split document text into overlapping, id-tagged chunks.  [learner: M1]

You write `chunk_text` (milestone M1). Provided around it:
* `Chunk`, the unit everything downstream passes around (id, text, source, start, page, span);
* `chunk_sentences`, the second strategy: paragraph -> sentence -> word boundaries;
* `chunk_pages`, which runs a strategy over a page list and gives every chunk its page and
  character span, so a citation can point at "p.2, characters 310-415".

Run alone:  python code/chunker.py    (chunks the sample report and prints the windows)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cli import run_cli
from config import RAGError, get_config
from textutils import PARAGRAPH_BREAK, sentence_spans


@dataclass
class Chunk:
    id: str
    text: str
    source: str = "doc"
    start: int = 0  # index of the chunk's first whitespace token in the document
    page: int | None = None  # 1-based page of the chunk's first character
    page_label: str | None = None  # the number printed on that page ("124", "iv") when it is not `page`
    char_start: int | None = None  # span in the document text (pages joined by PAGE_JOIN)
    char_end: int | None = None
    score: float | None = None  # cosine similarity to the question, set by retrieve()
    ranks: dict | None = None  # its rank in each retrieval list, set by retrieve()


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    """Fixed-size windows over whitespace tokens, stepping by (chunk_size - overlap). Each chunk gets
    a stable id ('c0', 'c1', ...), its source, and start index. Stop after the window that reaches the
    end (no redundant tail). Empty text -> [].

    The rules, in full:
    * tokens are the words of `text.split()`: any run of whitespace (spaces, tabs, newlines,
      carriage returns, form feeds, no-break spaces) separates two tokens, and a chunk's text is
      its tokens in order, joined by single spaces (or spaced as the document spaced them:
      build_prompt puts each chunk on one line either way);
    * window i covers tokens [i*step, i*step + chunk_size) with step = chunk_size - overlap, so
      neighbouring chunks share exactly `overlap` tokens;
    * ids count from 'c0' in order; `start` is the index of the window's first token;
    * the last window is the first one that reaches the last token (it may be shorter than
      chunk_size); no window after it;
    * empty or whitespace-only text gives [];
    * chunk_size <= 0, overlap < 0 or overlap >= chunk_size raise ValueError, for any text, empty
      included (the stride would be zero or negative and the loop would never end).

    Example (the spec's):
        chunk_text("A B C D E F G H I J", chunk_size=4, overlap=2)
        -> [Chunk("c0", "A B C D", "doc", 0), Chunk("c1", "C D E F", "doc", 2),
            Chunk("c2", "E F G H", "doc", 4), Chunk("c3", "G H I J", "doc", 6)]
    """
    # BEGIN SOLUTION M1
    if chunk_size <= 0:
        raise ValueError(f"chunk_size must be positive, got {chunk_size}")
    if overlap < 0 or overlap >= chunk_size:
        raise ValueError(f"overlap must be in [0, chunk_size), got {overlap} with chunk_size {chunk_size}")
    tokens = text.split()
    step = chunk_size - overlap
    chunks: list[Chunk] = []
    for start in range(0, len(tokens), step):
        window = tokens[start:start + chunk_size]
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(window), source, start))
        if start + chunk_size >= len(tokens):
            break  # this window reached the end; another would only repeat its tail
    return chunks
    # END SOLUTION


# ------------------------------------------------------------------- the second strategy

def _pieces(text: str, budget: int) -> list[tuple[int, int]]:
    """Spans no longer than `budget` tokens, cut at the largest boundary that fits:
    paragraph, then sentence, then word. A sentence is cut only when it alone exceeds the budget."""
    pieces: list[tuple[int, int]] = []
    for s, e in sentence_spans(text):
        words = [(m.start() + s, m.end() + s) for m in re.finditer(r"\S+", text[s:e])]
        for i in range(0, len(words), budget):
            group = words[i:i + budget]
            pieces.append((group[0][0], group[-1][1]))
    return pieces


def chunk_sentences(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    """Pack whole sentences into chunks of at most `chunk_size` tokens; neighbouring chunks share
    the trailing sentences that fit in `overlap` tokens. Paragraph breaks end a chunk early when
    the chunk is already at least half full, so a chunk rarely straddles two topics."""
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError(f"need chunk_size > 0 and 0 <= overlap < chunk_size, "
                         f"got {chunk_size} and {overlap}")
    pieces = _pieces(text, chunk_size)
    if not pieces:
        return []
    paragraph_starts = {0} | {m.end() for m in PARAGRAPH_BREAK.finditer(text)}
    sizes = [len(text[s:e].split()) for s, e in pieces]
    token_index = [0]
    for s, e in pieces[:-1]:
        token_index.append(token_index[-1] + len(text[s:e].split()))

    chunks: list[Chunk] = []
    first = 0
    while first < len(pieces):
        last, used = first, sizes[first]
        while last + 1 < len(pieces) and used + sizes[last + 1] <= chunk_size:
            starts_paragraph = any(pieces[last][1] <= p <= pieces[last + 1][0] for p in paragraph_starts)
            if starts_paragraph and used >= chunk_size // 2:
                break
            last += 1
            used += sizes[last]
        s, e = pieces[first][0], pieces[last][1]
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(text[s:e].split()), source,
                            token_index[first], char_start=s, char_end=e))
        if last == len(pieces) - 1:
            break
        # Step back over whole trailing pieces that fit in the overlap, but always move forward.
        nxt, shared = last + 1, 0
        while nxt - 1 > first and shared + sizes[nxt - 1] <= overlap:
            nxt -= 1
            shared += sizes[nxt]
        first = nxt
    return chunks


# --------------------------------------------------------------------- pages and char spans

PAGE_JOIN = "\n\n"
STRATEGIES = {"fixed": chunk_text, "sentence": chunk_sentences}


def chunk_pages(pages: list[str], chunk_size: int, overlap: int, source: str = "doc",
                strategy: str = "fixed", labels: list[str] | None = None) -> list[Chunk]:
    """Chunk a document page by page, so that every chunk lies on exactly one page and a
    citation can name it. Ids run on across pages (c0, c1, ...); `start` counts tokens and
    `char_start`/`char_end` count characters in the whole document (pages joined by PAGE_JOIN).
    `labels`: each page's printed number (pdf_loader.read_pdf), kept where it is not the page's."""
    chunks: list[Chunk] = []
    token_offset = char_offset = 0
    for number, page in enumerate(pages, start=1):
        tokens = [(m.start(), m.end()) for m in re.finditer(r"\S+", page)]
        for chunk in STRATEGIES[strategy](page, chunk_size, overlap, source):
            if chunk.char_start is None:  # fixed windows know tokens; find their characters
                last = chunk.start + len(chunk.text.split()) - 1
                chunk.char_start, chunk.char_end = tokens[chunk.start][0], tokens[last][1]
            chunk.id = f"c{len(chunks)}"
            chunk.page = number
            chunk.page_label = labels[number - 1] if labels and labels[number - 1] != str(number) else None
            chunk.start += token_offset
            chunk.char_start += char_offset
            chunk.char_end += char_offset
            chunks.append(chunk)
        token_offset += len(tokens)
        char_offset += len(page) + len(PAGE_JOIN)
    return chunks


def main(argv: list[str] | None = None) -> None:
    from cli import ArgumentParser
    from pdf_loader import SAMPLE_PAGES

    parser = ArgumentParser(prog="chunker.py", description="Show how the sample report is chunked.")
    # Smaller than the pipeline's windows (config: 120/30), so the short sample shows many.
    parser.add_argument("--chunk-size", type=int, default=40, help="tokens per window (default 40; rag.py: RAG_CHUNK_SIZE)")
    parser.add_argument("--overlap", type=int, default=10, help="tokens shared (default 10; rag.py: RAG_CHUNK_OVERLAP)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="fixed")
    args = parser.parse_args(argv)
    if not 0 <= args.overlap < args.chunk_size:
        raise RAGError(f"--chunk-size {args.chunk_size} --overlap {args.overlap}: pick a positive chunk size "
                       f"and an overlap from 0 to less than it, e.g. --chunk-size 40 --overlap 10")

    print('chunk_text("A B C D E F G H I J", chunk_size=4, overlap=2):')
    for c in chunk_text("A B C D E F G H I J", chunk_size=4, overlap=2):
        print(f"  {c.id}  start={c.start}  {c.text!r}")
    chunks = chunk_pages(SAMPLE_PAGES, args.chunk_size, args.overlap, "sample", args.strategy)
    cfg = get_config()
    print(f"\nsample report, {args.strategy} chunks of {args.chunk_size} tokens, overlap {args.overlap}: "
          f"{len(chunks)} chunks (rag.py and retriever.py use {cfg.chunk_size}/{cfg.chunk_overlap}: "
          f"RAG_CHUNK_SIZE, RAG_CHUNK_OVERLAP)")
    for c in chunks[:6]:
        words = c.text.split()
        print(f"  [{c.id}] p.{c.page} tokens {c.start}-{c.start + len(words) - 1}: "
              f"{' '.join(words[:8])} ... {' '.join(words[-4:])}")
    if len(chunks) > 6:
        print(f"  ... {len(chunks) - 6} more")


if __name__ == "__main__":
    run_cli(main)
