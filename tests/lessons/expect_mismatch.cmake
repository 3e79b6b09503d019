# Runs `precompile-studio lessons run LESSON --json` and requires exit code 1, with only
# fixed.py differing and the difference named (the lesson's expect.json is deliberately wrong).
execute_process(COMMAND ${STUDIO} lessons run ${LESSON} --json
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
    message(FATAL_ERROR "expected exit code 1, got ${rc}\n${out}\n${err}")
endif()
string(JSON ok GET "${out}" ok)
string(JSON broken_ok GET "${out}" runs broken ok)
string(JSON fixed_ok GET "${out}" runs fixed ok)
if(NOT ok STREQUAL "OFF" OR NOT broken_ok STREQUAL "ON" OR NOT fixed_ok STREQUAL "OFF")
    message(FATAL_ERROR "expected only fixed.py to differ, got ok=${ok} broken=${broken_ok} fixed=${fixed_ok}\n${out}")
endif()
string(JSON first GET "${out}" runs fixed mismatches 0)
if(NOT first STREQUAL "status: expected \"violation\", got \"ok\"")
    message(FATAL_ERROR "unexpected first difference: ${first}")
endif()
message(STATUS "fixed.py differs as expected: ${first}")
