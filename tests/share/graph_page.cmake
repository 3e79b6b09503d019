# [share] the graph panel of the HTML report (engine/share/PageGraph, page/graph.js, engine.wasm).
# PageGraphTest reads the real captures under tests/fixtures/graphs.
set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/PageGraphTest.cpp APPEND PROPERTY COMPILE_DEFINITIONS
             PS_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
