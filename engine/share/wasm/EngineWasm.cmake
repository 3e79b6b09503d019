# engine.wasm: the HTML report's graph engine (EngineEntry.cpp over the unchanged engine/graph
# sources below), compiled with clang-14 for wasm32-wasi and embedded into ps_share as
# ps::embedded::kEngineWasm. Included from engine/share/CMakeLists.txt (this folder is not in
# ps_share's GLOB: EngineEntry.cpp is compiled only here and into tests/share's engine_probe).
#
# The list must stay Qt-free and exception-free: the page has neither Qt nor a C++ runtime that
# unwinds (-fno-exceptions; nlohmann with JSON_NOEXCEPTION). Configure checks both below, and the
# compile itself fails on a `throw`/`try` or a Qt header (no Qt include path here).
set(PS_ENGINE_WASM_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/wasm/EngineEntry.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/PageLayout.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/CollapseState.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/CoordinateAssignment.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/CrossingReduction.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/FrameOwner.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/GraphModel.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/GraphSearch.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/LayerAssignment.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/LayeredLayout.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/LayoutPlan.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/ModuleRegions.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/ModuleTree.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/NodeKind.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/Phase.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/SideLanes.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/TensorLayout.cpp
    ${PROJECT_SOURCE_DIR}/engine/graph/VisibleGraph.cpp)

foreach(_src IN LISTS PS_ENGINE_WASM_SOURCES)
    file(STRINGS ${_src} _bad REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]Q|(^|[^_A-Za-z])(throw[ \t]*;|throw[ \t]+[A-Za-z_:]+[({]|try[ \t]*{|catch[ \t]*\\()")
    if(_bad)
        message(FATAL_ERROR "${_src}: compiled into the page's engine.wasm, which has no Qt and no exceptions, "
                            "but it has: ${_bad}")
    endif()
endforeach()

find_program(PS_CLANG14 clang++-14)
find_file(PS_WASI_LIBC libc.a PATHS /usr/lib/wasm32-wasi NO_DEFAULT_PATH)
find_file(PS_WASI_LIBCXX libc++.a PATHS /usr/lib/wasm32-wasi /usr/lib/wasm32-wasi/c++ NO_DEFAULT_PATH)
find_file(PS_WASI_LIBCXXABI libc++abi.a PATHS /usr/lib/wasm32-wasi /usr/lib/wasm32-wasi/c++ NO_DEFAULT_PATH)
file(GLOB _wasi_rt_dirs /usr/lib/llvm-14/lib/clang/*/lib/wasi)
find_file(PS_WASI_RT libclang_rt.builtins-wasm32.a PATHS ${_wasi_rt_dirs} NO_DEFAULT_PATH)
find_program(PS_WASM_LD wasm-ld-14)
if(NOT PS_CLANG14 OR NOT PS_WASI_LIBC OR NOT PS_WASI_LIBCXX OR NOT PS_WASI_LIBCXXABI OR NOT PS_WASI_RT
   OR NOT PS_WASM_LD)
    message(FATAL_ERROR "The HTML report's graph engine is compiled to WebAssembly with clang-14; missing "
                        "(clang++-14: ${PS_CLANG14}, wasi libc: ${PS_WASI_LIBC}, libc++: ${PS_WASI_LIBCXX}, "
                        "libc++abi: ${PS_WASI_LIBCXXABI}, "
                        "clang_rt: ${PS_WASI_RT}, wasm-ld-14: ${PS_WASM_LD}). Install the Debian packages "
                        "clang-14 wasi-libc libc++-14-dev-wasm32 libc++abi-14-dev-wasm32 libclang-rt-14-dev-wasm32 lld-14 "
                        "(all in packaging/debian-packages.txt).")
endif()

# nlohmann's headers without the rest of /usr/include (glibc's headers must not mix with wasi's).
get_target_property(_json_includes nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
set(_wasm_include ${CMAKE_CURRENT_BINARY_DIR}/wasm-include)
file(MAKE_DIRECTORY ${_wasm_include})
foreach(_dir IN LISTS _json_includes)
    if(EXISTS ${_dir}/nlohmann/json.hpp)
        file(CREATE_LINK ${_dir}/nlohmann ${_wasm_include}/nlohmann SYMBOLIC)
    endif()
endforeach()

file(GLOB _ps_graph_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/engine/graph/*.h)
# A cache entry: the tests (tests/share/graph_page.cmake) load the built file.
set(PS_ENGINE_WASM ${CMAKE_CURRENT_BINARY_DIR}/engine.wasm CACHE INTERNAL "the page's graph engine, built")
add_custom_command(
    OUTPUT ${PS_ENGINE_WASM}
    COMMAND ${PS_CLANG14} --target=wasm32-wasi -mexec-model=reactor -std=c++20 -O2 -fno-exceptions
            -DJSON_NOEXCEPTION -DJSON_HAS_FILESYSTEM=0 -DJSON_HAS_EXPERIMENTAL_FILESYSTEM=0 -DNDEBUG
            -I ${PROJECT_SOURCE_DIR}/engine -I ${_wasm_include} -Wl,--strip-all
            -o ${PS_ENGINE_WASM} ${PS_ENGINE_WASM_SOURCES}
    DEPENDS ${PS_ENGINE_WASM_SOURCES} ${_ps_graph_headers} ${CMAKE_CURRENT_SOURCE_DIR}/PageLayout.h
            ${CMAKE_CURRENT_LIST_FILE}
    COMMENT "Compiling the HTML report's graph engine to WebAssembly (engine.wasm)"
    VERBATIM)
add_custom_target(ps_engine_wasm DEPENDS ${PS_ENGINE_WASM})
ps_embed_file(ps_share kEngineWasm ${PS_ENGINE_WASM})

# The graph panel's own script and style (engine/share/page/graph-engine.js, graph-draw.js,
# graph.js, joined in that order by PageAssets::builtIn; graph.css), which run it.
ps_embed_file(ps_share kGraphEngineJs ${CMAKE_CURRENT_SOURCE_DIR}/page/graph-engine.js)
ps_embed_file(ps_share kGraphDrawJs ${CMAKE_CURRENT_SOURCE_DIR}/page/graph-draw.js)
ps_embed_file(ps_share kGraphJs ${CMAKE_CURRENT_SOURCE_DIR}/page/graph.js)
ps_embed_file(ps_share kGraphCss ${CMAKE_CURRENT_SOURCE_DIR}/page/graph.css)
