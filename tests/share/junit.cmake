# run a.py b.py --junit FILE with the real binary and worker: the JUnit XML against junit-10.xsd
# (xmllint and the test environment's xmlschema), a violation's failure, a script's error, the
# exit code of several scripts. Runs the worker: label share, not unit.
add_test(NAME share_junit
    COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/test_junit.py)
set_tests_properties(share_junit PROPERTIES TIMEOUT 900 LABELS "share"
    ENVIRONMENT "PYTHONPATH=${CMAKE_SOURCE_DIR}/tests/support;PS_STUDIO=${CMAKE_BINARY_DIR}/bin/precompile-studio;PS_TEST_ENV=${PS_TEST_ENV}")
