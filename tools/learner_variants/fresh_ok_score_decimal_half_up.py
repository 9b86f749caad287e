# replaces: faithfulness_score
# kind: correct
# description: decimal arithmetic rounded ROUND_HALF_UP to four places, then float; differs from round() only on exact ties (e.g. 1/32 = 0.03125 -> 0.0313 instead of 0.0312), which the contract does not settle
# note: "rounded to 4 decimal places" names no tie-breaking rule; both half-up and half-even are roundings to four places
from decimal import ROUND_HALF_UP, Decimal


def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    share = Decimal(sum(bool(v) for v in verdicts)) / Decimal(len(verdicts))
    return float(share.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))
