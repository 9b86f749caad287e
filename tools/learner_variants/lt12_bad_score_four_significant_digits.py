# replaces: faithfulness_score
# kind: mistake
# description: a learner probe (2026-12-01, lt12): rounds with float(f"{share:.4}") believing ".4" means four decimals; for floats it means four SIGNIFICANT digits, so 1/12 gives 0.08333 (not 0.0833) and 1/19 gives 0.05263
# violates: "rounded to 4 decimal places (0.6667 for two of three)" (faithfulness_score docstring)


def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    share = sum(verdicts) / len(verdicts)
    return float(f"{share:.4}")
