// Outputs below were captured from real runs of pytest 9.0 (default, -q, and a collection error); the
// directory they ran in is renamed to the sandbox's /workspace.

export const DEFAULT = `============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0
benchmark: 5.2.3 (defaults: timer=time.perf_counter disable_gc=False min_rounds=5 min_time=0.000005 max_time=1.0 calibration_precision=10 warmup=False warmup_iterations=100000)
rootdir: /workspace
plugins: hypothesis-6.155.2, benchmark-5.2.3
collected 6 items

tests/test_math.py .FFF.F                                                [100%]

=================================== FAILURES ===================================
________________________________ test_subtracts ________________________________

    def test_subtracts():
>       assert 5 - 3 == 3
E       assert (5 - 3) == 3

tests/test_math.py:10: AssertionError
__________________________ TestNested.test_multiplies __________________________

self = <test_math.TestNested object at 0x7f1c7372f890>

    def test_multiplies(self):
>       assert {"a": 2 * 3} == {"a": 7}
E       AssertionError: assert {'a': 6} == {'a': 7}
E         
E         Differing items:
E         {'a': 6} != {'a': 7}
E         Use -v to get more diff

tests/test_math.py:14: AssertionError
_________________________________ test_throws __________________________________

    def test_throws():
>       raise ValueError("boom at top")
E       ValueError: boom at top

tests/test_math.py:17: ValueError
________________________________ test_param[2] _________________________________

x = 2

    @pytest.mark.parametrize("x", [1, 2])
    def test_param(x):
>       assert x == 1
E       assert 2 == 1

tests/test_math.py:21: AssertionError
=========================== short test summary info ============================
FAILED tests/test_math.py::test_subtracts - assert (5 - 3) == 3
FAILED tests/test_math.py::TestNested::test_multiplies - AssertionError: asse...
FAILED tests/test_math.py::test_throws - ValueError: boom at top
FAILED tests/test_math.py::test_param[2] - assert 2 == 1
========================= 4 failed, 2 passed in 0.81s ==========================
`;

export const QUIET = `.FFF.F                                                                   [100%]
=================================== FAILURES ===================================
________________________________ test_subtracts ________________________________

    def test_subtracts():
>       assert 5 - 3 == 3
E       assert (5 - 3) == 3

tests/test_math.py:10: AssertionError
__________________________ TestNested.test_multiplies __________________________

self = <test_math.TestNested object at 0x7fefb7218e90>

    def test_multiplies(self):
>       assert {"a": 2 * 3} == {"a": 7}
E       AssertionError: assert {'a': 6} == {'a': 7}
E         
E         Differing items:
E         {'a': 6} != {'a': 7}
E         Use -v to get more diff

tests/test_math.py:14: AssertionError
_________________________________ test_throws __________________________________

    def test_throws():
>       raise ValueError("boom at top")
E       ValueError: boom at top

tests/test_math.py:17: ValueError
________________________________ test_param[2] _________________________________

x = 2

    @pytest.mark.parametrize("x", [1, 2])
    def test_param(x):
>       assert x == 1
E       assert 2 == 1

tests/test_math.py:21: AssertionError
=========================== short test summary info ============================
FAILED tests/test_math.py::test_subtracts - assert (5 - 3) == 3
FAILED tests/test_math.py::TestNested::test_multiplies - AssertionError: asse...
FAILED tests/test_math.py::test_throws - ValueError: boom at top
FAILED tests/test_math.py::test_param[2] - assert 2 == 1
4 failed, 2 passed in 0.69s
`;

export const COLLECTION_ERROR = `============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0
benchmark: 5.2.3 (defaults: timer=time.perf_counter disable_gc=False min_rounds=5 min_time=0.000005 max_time=1.0 calibration_precision=10 warmup=False warmup_iterations=100000)
rootdir: /workspace
plugins: hypothesis-6.155.2, benchmark-5.2.3
collected 6 items / 1 error

==================================== ERRORS ====================================
____________________ ERROR collecting tests/test_broken.py _____________________
ImportError while importing test module '/workspace/tests/test_broken.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
tests/test_broken.py:1: in <module>
    import nonexistent_module_xyz
E   ModuleNotFoundError: No module named 'nonexistent_module_xyz'
=========================== short test summary info ============================
ERROR tests/test_broken.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.82s ===============================
`;
