# replaces: faithfulness_score
# kind: correct
# description: explicit loop counting supported claims, float division, round(..., 4)

def faithfulness_score(verdicts: list[bool]) -> float:
    total = len(verdicts)
    if total == 0:
        return 1.0
    supported = 0
    for verdict in verdicts:
        if verdict:
            supported += 1
    return round(float(supported) / total, 4)
