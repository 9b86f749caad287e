# replaces: faithfulness_score
# kind: mistake
# description: follows the ragas library and returns NaN for an empty verdict list ("undefined, not perfect")
# violates: "Empty list -> 1.0 (vacuously faithful)" (project.md); "[] gives 1.0, this project's convention ... (the ragas library returns NaN there instead)" (faithfulness_score docstring)
import math


def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return math.nan
    return round(sum(map(bool, verdicts)) / len(verdicts), 4)
