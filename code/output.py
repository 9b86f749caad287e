"""Step 7, shown: one result as text for people or as JSON for programs.  [provided]

`to_json(result, cfg)` is the one description of a result: `--json` prints it, and the text
view reads from it, so both always say the same. Only the answer (or the JSON) goes to
stdout; notes about the index go to stderr.

Run alone:  python code/rag.py [--json] ["question"] [PDF ...]
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

from citations import best_quote, citation_line, page_name
from cli import printable
from config import Config
from textutils import terms


def evidence(claim: str, context) -> dict:
    """Where a claim stands in the context, for display: the chunk and sentence that share the
    most content words with it (the verdict itself is the verifier's), or None."""
    claim_terms = set(terms(claim))
    best = max(((c, best_quote(claim, c.text)) for c in context),
               key=lambda pair: len(claim_terms & set(terms(pair[1]))), default=None)
    if best is None or not claim_terms & set(terms(best[1])):
        return {"id": None, "sentence": None}
    return {"id": best[0].id, "sentence": best[1]}


def to_json(result, cfg: Config) -> dict:
    report = result.faithfulness
    return {
        "question": result.question,
        "answer": result.answer.text,
        "refused": result.answer.refused,
        "citations": result.citations,
        "dropped_citations": result.answer.dropped,
        "uncited_claims": result.uncited,
        "retrieved": [{"id": c.id, "source": c.source, "page": c.page, "page_label": c.page_label,
                       "score": round(c.score or 0, 4),
                       "ranks": c.ranks, "in_context": any(x.id == c.id for x in result.context),
                       "char_start": c.char_start, "char_end": c.char_end, "text": c.text}
                      for c in result.retrieved],
        "gate": result.gate,
        "faithfulness": {**asdict(report), "checks": [
            {"claim": claim, "supported": ok, "evidence": evidence(claim, result.context)}
            for claim, ok in zip(report.claims, report.verdicts)]},
        "model": cfg.model,
        "embedding_model": cfg.embedding_model,
        "search": result.search,
        "spelling": result.spelling,
        "retrieval": cfg.retrieval,
        # The chunk text the model was given (whole_sentences completes a cut sentence at its
        # edges; fit_to_budget may keep only part of a chunk).
        "context": [{"id": c.id, "text": c.text} for c in result.context],
        "documents": result.documents,
        "skipped": result.skipped,
        "timings": result.timings,
    }


def print_json(result, cfg: Config) -> None:
    print(json.dumps(to_json(result, cfg), indent=2, allow_nan=False))


def say(*parts, **kwargs) -> None:
    """print, with nothing a file or its name holds able to act on the terminal."""
    print(*(printable(str(p)) for p in parts), **kwargs)


def _print_indexes(documents: list[dict]) -> None:
    """To stderr, a line per index built, and one for those reused (not one per file of a folder,
    on every question), or the one reused."""
    reused = [d for d in documents if d["index"] == "reused"]
    for document in [d for d in documents if d["index"] != "reused" or len(reused) == 1]:
        say(f"index {document['index']}: {document['source']} ({document['chunks']} chunks, "
            f"{document['seconds']:.2f} s)", file=sys.stderr)
    if len(reused) > 1:
        say(f"index reused for {len(reused)} PDFs ({sum(d['chunks'] for d in reused)} chunks, "
            f"{sum(d['seconds'] for d in reused):.2f} s)", file=sys.stderr)


def print_text(result, cfg: Config, show_context: bool = False, refusal_hint: str = "") -> None:
    """The answer as a reader wants it; `refusal_hint`, said under a refusal the model made (not
    the gate), is what the user can do next."""
    data = to_json(result, cfg)
    _print_indexes(data["documents"])
    say(f"Q: {data['question']}")
    if data["spelling"]:
        say("   (read " + ", ".join(f'"{typed}" as "{read}"' for typed, read in data["spelling"].items()) + ")")
    say(f"A: {data['answer']}")
    gate = data["gate"]
    if not gate["passed"]:
        say("   (the relevance gate stopped it, so the model was not called; a question in the document's "
            "own words may pass)")
    elif data["refused"] and refusal_hint and not show_context:
        say(f"   ({refusal_hint})")
    if data["citations"]:
        say("\nCitations:")
        for c in data["citations"]:
            say(f"  {citation_line(c)}")
    if data["dropped_citations"]:
        say(f"\nDropped citations (not in the context): {', '.join(data['dropped_citations'])}")
    if data["uncited_claims"]:
        say("\nWarning: these sentences cite no retrieved chunk:")
        for s in data["uncited_claims"]:
            say(f"  - {s}")
    report = data["faithfulness"]
    say(f"\nFaithfulness: {report['score']:.2f} ({sum(report['verdicts'])}/{len(report['claims'])} claims supported)"
        if report["claims"] else "\nFaithfulness: no claims to check (a refusal states nothing)")
    for claim, ok in zip(report["claims"], report["verdicts"]):
        say(f"  {'supported  ' if ok else 'UNSUPPORTED'}  {claim}")
    if show_context:
        say("\nRetrieved context, best first (hybrid search fuses two rankings: the cosine need not fall):")
        for rank, c in enumerate(data["retrieved"], start=1):
            bm25 = (c.get("ranks") or {}).get("bm25") or "-"
            say(f"  [{c['id']}] {page_name(c)} rank {rank}, cosine {c['score']:.3f}, BM25 {bm25}: {c['text']}")
    total = data["timings"].get("total", sum(data["timings"].values()))
    say(f"\nModels: chat {data['model']} | embeddings {data['embedding_model']} | {total:.2f} s")
