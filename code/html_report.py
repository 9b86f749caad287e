"""Step 7, as a page: one answer or a conversation as one HTML file.  [provided]

`render(data)` draws `output.to_json(result, cfg)` (what `--json` prints): the answer, its citations
as cards with the quoted sentence highlighted, claims with verdicts and evidence, the gate as a bar,
the retrieved chunks in rank order, what was dropped or uncited, models and timings. Also
`render_conversation(turns)` (a chat); evaluation_page.py builds evaluate.py's page from the same
parts. No script, nothing loaded (the CSP forbids both); document text is only ever escaped text.

Run alone:  python code/rag.py "What was Q3 revenue?" --html report.html   (then open report.html)
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from citations import CITE, NO_QUOTE, QUOTE_GAP, page_name, strip_markers
from cli import score_beside, write_file
from textutils import split_sentences

CSS = """:root{--ink:#1a1a1a;--line:#bdbdbd;--link:#0b5394} *{box-sizing:border-box} a{color:var(--link)}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:var(--ink);background:#fff;overflow-wrap:anywhere}
header,nav,main,footer{max-width:62rem;margin:0 auto;padding:0 1rem} dt{font-weight:600} dd{margin:0}
nav ul{display:flex;flex-wrap:wrap;gap:.2rem 1rem;list-style:none;padding:0} .muted{color:#545454}
.card{border:1px solid var(--line);border-radius:6px;padding:.5rem .8rem;margin:.8rem 0} .card:target{outline:3px solid}
.tag{display:inline-block;padding:0 .4rem;border-radius:4px;font-weight:600;overflow-wrap:normal}
mark{background:#fff09a;color:var(--ink)} .ok{color:#1b5e20;background:#e3f2e4} .bad{color:#8a1c1c;background:#fbe9e9}
.warn{color:#5c4300;background:#fff4d6}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:0 1rem} th{overflow-wrap:normal}
th,td{text-align:left;vertical-align:top;border-bottom:1px solid var(--line);padding:.3rem .4rem}
td[data-label$=rank],td[data-label$=score],td[data-label=faithfulness],td[data-label=expected]{white-space:nowrap}
table{border-collapse:collapse;width:100%} svg{display:block;max-width:100%;height:auto} svg text{font:12px sans-serif}
@media (max-width:40rem){.stack thead{display:none} dl{display:block} .stack td{display:block;border:0}
.stack tr{display:block;border-bottom:2px solid var(--line)} .stack td::before{content:attr(data-label) ": ";font-weight:600}}
@media print{nav{display:none} a{color:var(--ink);text-decoration:none} .card,tr,svg{break-inside:avoid}}"""
CSP = "default-src 'none'; style-src 'unsafe-inline'"
OK, BAD = "\u2713", "\u2717"  # verdicts are words and symbols, never colour only
_CONTROLS = dict.fromkeys([*range(9), 11, 12, *range(14, 32), *range(127, 160)], 0xFFFD)


def esc(value) -> str:
    """Any value as HTML text: escaped, quotes too; control characters (not tab, newlines) as U+FFFD."""
    return html.escape("" if value is None else str(value), quote=True).translate(_CONTROLS)


def tag(ok: bool, yes: str, no: str) -> str:
    return f'<span class="tag ok">{OK} {yes}</span>' if ok else f'<span class="tag bad">{BAD} {no}</span>'


def number(value, digits: int = 3) -> str:
    return "-" if value is None else f"{float(value):.{digits}f}"


def facts(rows: list[tuple[str, str]]) -> str:  # labels are ours, values already escaped HTML
    return "<dl>" + "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in rows) + "</dl>"


def table(head: list[str], rows: list[list[str]], stack: bool = False) -> str:
    """Cells already escaped HTML; `stack` shows one block per row on a phone."""
    cells = "".join(f"<tr>{''.join(f'<td data-label={h!r}>{c}</td>' for h, c in zip(head, row))}</tr>" for row in rows)
    return (f'<table{" class=stack" if stack else ""}><thead><tr>{"".join(f"<th scope=col>{h}</th>" for h in head)}'
            f"</tr></thead><tbody>{cells}</tbody></table>")


def bullets(items: list) -> str:
    return "<ul>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>" if items else "<p>None.</p>"


def sections_html(sections: list[tuple[str, str, str]]) -> str:  # (anchor, label, html): ours but html
    return "".join(f'<section id="{a}" aria-label="{label}">{body}</section>' for a, label, body in sections)


def page(title: str, intro: str, sections: list[tuple[str, str, str]]) -> str:
    """The whole document; sections are (anchor, label, html) and the nav links to each."""
    links = "".join(f'<li><a href="#{anchor}">{label}</a></li>' for anchor, label, _ in sections)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" '
            f'content="{CSP}"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{esc(title)}'
            f'</title><style>{CSS}</style></head><body><header>{intro}</header><nav aria-label="Sections"><ul>{links}'
            f'</ul></nav><main>{sections_html(sections)}</main><footer><p class="muted">Written by code/html_report.py '
            f"from the pipeline's result; no script, nothing loaded.</p></footer></body></html>\n")


def answer_html(data: dict, cites: dict, h: int) -> str:
    """Each answer sentence, followed by links to the cards of the chunks it cites."""
    lines = []
    for sentence in split_sentences(data["answer"]) or [data["answer"]]:
        links = [f'<a href="#{cites[i]}">[{esc(i)}]</a>' if i in cites else
                 f'[{esc(i)}] <span class="tag bad">{BAD} dropped: not in the context</span>'
                 for i in CITE.findall(sentence)]
        if sentence in data["uncited_claims"]:
            links.append(f'<span class="tag bad">{BAD} cites nothing</span>')
        lines.append(f"<li>{esc(strip_markers(sentence))} {' '.join(links)}</li>")
    return f'<h{h}>Answer</h{h}><p>{tag(not data["refused"], "answered", "refused")}</p><ul>{"".join(lines)}</ul>'


def citations_html(data: dict, cites: dict, chunks: dict, h: int) -> str:
    """A card per citation: the chunk as sent to the model, the quoted sentence in <mark>."""
    sent, cards = {c["id"]: c["text"] for c in data.get("context") or data["retrieved"]}, []
    for c in data["citations"]:
        text, marked, end = sent.get(c["id"], ""), "", 0
        for part in c["quote"].split(QUOTE_GAP) if c["quote"] else []:  # each quoted sentence, in order
            found = re.search(r"\s+".join(map(re.escape, part.split())), text[end:]) if part.split() else None
            if not found:
                marked, end = esc(text) + '</p><p class="muted">(The quote is not verbatim in the chunk.)', len(text)
                break
            marked += f"{esc(text[end:end + found.start()])}<mark>{esc(found.group(0))}</mark>"
            end += found.end()
        marked += esc(text[end:])
        where = f' (<a href="#{chunks[c["id"]]}">retrieved chunk</a>)' if c["id"] in chunks else ""
        quoted = f'<q>{esc(c["quote"])}</q>' if c["quote"] else esc(NO_QUOTE)
        cards.append(f'<article class="card" id="{cites[c["id"]]}"><h{h + 1}>[{esc(c["id"])}] {esc(c["source"])}, '
                     f'{esc(page_name(c, "page "))}</h{h + 1}><p>Quoted sentence{where}: {quoted}</p>'
                     f'<p>Chunk text as sent to the model:</p><p>{marked}</p></article>')
    return f"<h{h}>Citations</h{h}>" + ("".join(cards) or "<p>None: the answer cites no chunk.</p>")


def claims_html(data: dict, chunks: dict, h: int) -> str:
    """Each claim, its verdict, and the context sentence that supports it or comes closest."""
    report, items = data["faithfulness"], []  # checks: one per claim, in order (output.to_json)
    for c in report["checks"]:
        cid, sentence = (c.get("evidence") or {}).get("id"), (c.get("evidence") or {}).get("sentence")
        link = f' <a href="#{chunks[cid]}">[{esc(cid)}]</a>' if cid in chunks else ""
        quoted = f"{link}: <q>{esc(sentence)}</q>" if sentence else ": no context sentence shares its words"
        evidence = f"Evidence{quoted}" if c["supported"] else f"<strong>No support found.</strong> Closest{quoted}"
        items.append(f'<li class="claim">{tag(c["supported"], "supported", "unsupported")} {esc(c["claim"])}'
                     f"<p>{evidence}</p></li>")
    summary = (f"Faithfulness {number(report['score'], 2)}: {sum(report['verdicts'])} of {len(items)} claims "
               f"supported." if items else "No claims: a refusal states nothing.")
    return f"<h{h}>Claims and verdicts</h{h}><p>{summary}</p><ol>{''.join(items)}</ol>"


def gate_html(gate: dict, h: int) -> str:
    """The gate's decision, and its best score as a bar with the threshold as a dashed line."""
    best, limit = float(gate["best_score"]), float(gate["threshold"])
    lo, hi = min(0.0, best, limit), max(1.0, best, limit)
    x = lambda v: 10 + 300 * (v - lo) / (hi - lo)  # noqa: E731
    label = f"best score {score_beside(best, limit)} {'at or above' if best >= limit else 'below'} the threshold {limit:g}"
    bar = (f'<svg viewBox="0 0 320 58" width="320" role="img" aria-label="{label}"><title>{label}</title><rect '
           f'x="10" y="16" width="300" height="16" fill="#eee" stroke="#6b6b6b"/><rect x="10" y="16" height="16" '
           f'width="{x(best) - 10:.1f}" fill="#0b5394"/><line x1="{x(limit):.1f}" x2="{x(limit):.1f}" y1="8" y2="40" '
           f'stroke="#1a1a1a" stroke-width="2" stroke-dasharray="4 2"/><text x="{x(best):.1f}" y="11" text-anchor='
           f'"middle">best {score_beside(best, limit)}</text><text x="{x(limit):.1f}" y="54" text-anchor="middle">threshold {limit:g}'
           f'</text><text x="10" y="54">{lo:g}</text><text x="310" y="54" text-anchor="end">{hi:g}</text></svg>')
    rows = [("best score", score_beside(best, limit)), ("threshold", f"{limit:g}"), ("set by", esc(gate.get("threshold_source")))]
    state = tag(gate["passed"], "passed: the model was asked", "refused: the model was not called")
    return f"<h{h}>Relevance gate</h{h}><p>{state}</p>{facts(rows)}{bar}"


def retrieved_html(data: dict, cites: dict, chunks: dict, h: int) -> str:
    sent, cards = {c["id"]: c["text"] for c in data.get("context") or []}, []
    for n, c in enumerate(data["retrieved"], 1):
        ranks = c.get("ranks") or {}
        given = sent.get(c["id"], c["text"])
        trimmed = "" if given == c["text"] else " (trimmed to the context budget)" if len(given) < len(c["text"]) \
            else " (sent with the sentences cut at its edges completed)"
        cited = f' <a href="#{cites[c["id"]]}">cited as [{esc(c["id"])}]</a>' if c["id"] in cites else ""
        rows = [("dense score (cosine)", number(c["score"]))] + [(f"{key.replace('bm', 'BM')} rank", esc(
            ranks.get(key) or "not ranked")) for key in ("dense", "bm25", "fused")]
        state = tag(c["in_context"], "reached the prompt", "not in the prompt")
        cards.append(f'<article class="card" id="{chunks[c["id"]]}"><h{h + 1}>#{n} [{esc(c["id"])}] {esc(c["source"])}'
                     f', {esc(page_name(c, "page "))}</h{h + 1}><p>{state}{trimmed}{cited}</p>'
                     f'{facts(rows)}<p>{esc(c["text"])}'
                     f"</p></article>")
    return f"<h{h}>Retrieved chunks, in rank order</h{h}>" + ("".join(cards) or "<p>Nothing was retrieved.</p>")


def run_html(data: dict, h: int) -> str:
    """Dropped citations, uncited sentences, then the models, documents and timings."""
    rows = [("chat model", esc(data["model"])), ("embedding model", esc(data["embedding_model"])),
            ("retrieval", esc(data.get("retrieval", "-"))), ("searched for", esc(data["search"]))]
    documents = table(["file", "index", "chunks", "seconds"], [
        [esc(d["source"]), esc(d["index"]), esc(d["chunks"]), number(d["seconds"], 2)] for d in data["documents"]])
    return (f"<h{h}>Dropped and uncited</h{h}><p>Citations of chunks not in the context (dropped):</p>"
            f"{bullets(data['dropped_citations'])}<p>Sentences that cite no chunk:</p>{bullets(data['uncited_claims'])}"
            f"<h{h}>Models and timings</h{h}>{facts(rows)}{documents if data['documents'] else ''}"
            + table(["stage", "seconds"], [[esc(k), number(v)] for k, v in data["timings"].items()]))


def answer_sections(data: dict, prefix: str = "", h: int = 2) -> list[tuple[str, str, str]]:
    """The sections of one answer; anchors are `prefix` and a counter, never document text."""
    cites = {c["id"]: f"{prefix}cite-{n}" for n, c in enumerate(data["citations"], 1)}
    chunks = {c["id"]: f"{prefix}chunk-{n}" for n, c in enumerate(data["retrieved"], 1)}
    return [(f"{prefix}answer", "Answer", answer_html(data, cites, h)),
            (f"{prefix}citations", "Citations", citations_html(data, cites, chunks, h)),
            (f"{prefix}claims", "Claims", claims_html(data, chunks, h)),
            (f"{prefix}gate", "Gate", gate_html(data["gate"], h)),
            (f"{prefix}retrieved", "Retrieved", retrieved_html(data, cites, chunks, h)),
            (f"{prefix}run", "Dropped, models, timings", run_html(data, h))]


def render(data: dict) -> str:
    """One answer (a dict of output.to_json) as a self-contained HTML page."""
    intro = f"<h1>Answer report</h1><p><strong>Question:</strong> {esc(data['question'])}</p>"
    return page(f"Answer: {data['question']}", intro, answer_sections(data))


def lean_html(data: dict) -> str:
    """What a follow-up borrowed, in the last question's words (the search itself holds stems),
    or that /reset came before it."""
    words, reset = data.get("borrowed"), "<p>Asked after /reset: the earlier turns were forgotten.</p>"
    return (reset if data.get("after_reset") else "") + (
        f'<p>Searched with &ldquo;{esc(" ".join(words))}&rdquo; from the last question.</p>' if words else "")


def render_conversation(turns: list[dict]) -> str:
    """A chat (a list of output.to_json dicts, oldest first) as one page, a section per turn."""
    sections = [(f"t{n}", f"Turn {n}", f"<h2>Turn {n}: {esc(data['question'])}</h2>{lean_html(data)}"
                 + sections_html(answer_sections(data, f"t{n}-", 3))) for n, data in enumerate(turns, 1)]
    return page("Conversation report", f"<h1>Conversation report</h1><p>{len(turns)} question(s).</p>", sections)


def write_html(path: str | Path, text: str, keep: tuple = ()) -> Path:
    """Write the page whole or not at all (cli.write_file); never over one of `keep`."""
    write_file(str(path), text, "--html", keep)
    return Path(path)
