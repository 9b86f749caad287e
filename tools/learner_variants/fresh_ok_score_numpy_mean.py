# replaces: faithfulness_score
# kind: correct
# description: numpy: float(round(np.mean(np.asarray(verdicts, dtype=float)), 4)), 1.0 for an empty list
import numpy as np


def faithfulness_score(verdicts: list[bool]) -> float:
    if len(verdicts) == 0:
        return 1.0
    return float(round(np.mean(np.asarray(verdicts, dtype=float)), 4))
