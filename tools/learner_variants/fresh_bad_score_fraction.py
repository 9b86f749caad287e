# replaces: faithfulness_score
# kind: mistake
# description: computes the share exactly with fractions.Fraction and returns round(Fraction, 4), which is still a Fraction (6667/10000), not a float
# violates: "faithfulness_score(verdicts: list[bool]) -> float" (project.md); "a float in [0, 1]" (faithfulness_score docstring)
from fractions import Fraction


def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    return round(Fraction(sum(1 for v in verdicts if v), len(verdicts)), 4)
