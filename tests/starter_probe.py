"""pytest plugin used by test_starter.py inside a generated starter: which stubs did each test call?  [reference only]

A stub raises NotImplementedError("M<n>: implement <function> in ..."); the name is looked up in
builtins when the stub runs, so a recording subclass sees every call, even one a test swallows.
Each test gets a `stubs_called` property (shown in --junitxml). Shrinking and explaining are
switched off: the check needs which tests fail and why, not minimal examples.

Use:  PYTHONPATH=<repo>/tests python -m pytest -p starter_probe --junitxml=out.xml
"""

import builtins
import re

from hypothesis import Phase, settings

_STUB = re.compile(r"(M\d+): implement (\w+) in ")
_called: set[str] = set()


class _RecordingNotImplementedError(NotImplementedError):
    def __init__(self, *args):
        if args and isinstance(args[0], str) and (match := _STUB.match(args[0])):
            _called.add(f"{match.group(1)} {match.group(2)}")
        super().__init__(*args)


builtins.NotImplementedError = _RecordingNotImplementedError
settings.register_profile("starter-probe", phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.load_profile("starter-probe")


def pytest_runtest_setup(item):
    _called.clear()


def pytest_runtest_teardown(item):
    # Before the teardown report is made, which is when --junitxml reads the properties.
    item.user_properties.append(("stubs_called", ",".join(sorted(_called))))
