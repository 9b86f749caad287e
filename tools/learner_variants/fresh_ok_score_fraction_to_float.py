# replaces: faithfulness_score
# kind: correct
# description: exact arithmetic with fractions.Fraction, rounded to four places as a Fraction, then converted to float
from fractions import Fraction


def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    share = Fraction(sum(1 for v in verdicts if v), len(verdicts))
    return float(round(share, 4))
