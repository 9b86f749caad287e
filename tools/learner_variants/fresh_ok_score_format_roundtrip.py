# replaces: faithfulness_score
# kind: correct
# description: rounds through string formatting, float(f"{share:.4f}"), which gives the same correctly rounded value as round(share, 4)

def faithfulness_score(verdicts: list[bool]) -> float:
    total = len(verdicts)
    if total == 0:
        return 1.0
    supported = len([v for v in verdicts if v])
    return float(f"{supported / total:.4f}")
