# replaces: faithfulness_score
# kind: correct
# description: statistics.fmean over the verdicts as floats, rounded to four decimals
import statistics


def faithfulness_score(verdicts: list[bool]) -> float:
    if len(verdicts) == 0:
        return 1.0  # no claims: nothing unfaithful was said
    return round(statistics.fmean(float(v) for v in verdicts), 4)
