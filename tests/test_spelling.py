"""A misspelt question: its words read as the documents' words, and only where that is safe."""

import json
from collections import Counter
from dataclasses import replace

import rag
from config import get_config
from pdf_writer import write_pdf
from spelling import misspelt, respelled
from textutils import terms

SUBJECTS = ["beacon", "position report", "weather report", "status message", "station list", "telemetry",
            "message queue", "routing table", "heard list", "error counter", "battery voltage", "packet counter"]
# One sentence per subject, each its own chunk: only the subject's word tells them apart.
STATION = [" ".join(f"The {s} is sent to the server every {5 * (i + 1)} minutes." for i, s in enumerate(SUBJECTS))]


def vocabulary(text: str) -> Counter:
    return Counter(terms(text))


def test_a_misspelt_key_word_still_finds_its_passage_by_its_exact_words(tmp_path):
    pdf = str(write_pdf(tmp_path / "station.pdf", STATION))
    cfg = replace(get_config(), chunk_size=12, chunk_overlap=0, retrieval="bm25")
    result = rag.run("How often is the telemetery sent?", [pdf], cfg=cfg)
    assert result.spelling == {"telemetery": "telemetry"}, f"expected the typo read as the document's word, got {result.spelling}"
    assert "telemetry" in result.retrieved[0].text, (
        f"expected BM25 to rank the telemetry sentence first once the typo is mended, got {result.retrieved[0].text!r}")
    assert "30 minutes" in result.answer.text, f"expected the telemetry interval, got {result.answer.text!r}"


def test_the_reading_is_shown_to_the_reader_and_kept_in_the_json(tmp_path, capsys):
    pdf = str(write_pdf(tmp_path / "station.pdf", STATION))
    rag.main(["How often is the telemetery sent?", pdf])
    out = capsys.readouterr().out
    assert '(read "telemetery" as "telemetry")' in out, f"expected the text output to say how the question was read:\n{out}"
    rag.main(["--json", "How often is the telemetery sent?", pdf])
    data = json.loads(capsys.readouterr().out)
    assert data["spelling"] == {"telemetery": "telemetry"} and "telemetry" in data["search"], (
        f"expected the reading in the JSON, got spelling={data['spelling']} search={data['search']!r}")
    assert data["question"] == "How often is the telemetery sent?", "the question itself is kept as the user typed it"


def test_a_word_one_slip_away_from_a_document_word_is_read_as_that_word():
    words = vocabulary("Set the umask before unpacking. Telemetry is reported every 20 minutes.")
    fixed = misspelt("Which umsak should I set, and how often is telemetery reportd?", words)
    assert set(fixed) == {"umsak", "telemetery", "reportd"}, f"expected the three typos found, got {fixed}"
    assert [terms(fixed[w]) for w in ("umsak", "telemetery", "reportd")] == [["umask"], ["telemetry"], terms("reported")], (
        f"expected each read as the document's word (umask is in no dictionary, only in the document), got {fixed}")
    assert respelled("Which umsak should I set?", fixed) == "Which umask should I set?"


def test_words_that_may_be_meant_are_never_changed():
    words = vocabulary("The telemetry and the weather report are sent every 20 minutes by the R300 station.")
    cases = {
        "How often is the humidity sent?": "a dictionary word the documents lack: a near-topic question stays one",
        "How often is Telemetery sent?": "a capitalised word: a name typed on purpose",
        "Is the R800 station faster?": "a code with digits",
        "How often is tele-metery sent?": "a hyphenated word",
        "Whera is the report sent?": "one slip from a stop word",
        "How often is the zqxwvk sent?": "no neighbour in the documents",
        "How oftn is it sent?": "a word whose only neighbours the documents lack",
    }
    # a word of another language, one slip from a non-word whose index form is a document word's
    # ("estimatour" is indexed as "estimator", read as a British spelling): a 26th outside tester's
    cases["Quel est l'estimateur par défaut ?"] = "one slip from a form no document writes"
    words = {**words, **vocabulary("The default estimator is HC3.")}
    for question, why in cases.items():
        assert misspelt(question, words) == {}, f"{why}: expected no change to {question!r}, got {misspelt(question, words)}"
