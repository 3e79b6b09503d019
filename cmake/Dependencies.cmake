# Third-party dependencies: Debian packages for the native part, the Python environment for
# CPython, pybind11 and LibTorch.
find_package(PkgConfig REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(GTest REQUIRED)
find_package(Threads REQUIRED)
# zlib (zlib1g-dev): gzip for the HTML report's data, which a browser's DecompressionStream reads.
find_package(ZLIB REQUIRED)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
# libpq (libpq-dev): PostgreSQL::PostgreSQL.
find_package(PostgreSQL REQUIRED)

# CPython: the environment's interpreter, embedded from its shared libpython.
set(Python3_EXECUTABLE ${PS_PYTHON_ENV}/bin/python)
find_package(Python3 REQUIRED COMPONENTS Interpreter Development.Embed)

execute_process(
    COMMAND ${Python3_EXECUTABLE} -c
        "import os, pybind11, torch; d = os.path.dirname(torch.__file__); print(pybind11.get_cmake_dir()); print(d); print(int(torch._C._GLIBCXX_USE_CXX11_ABI)); print(torch.__version__.split('+')[0])"
    OUTPUT_VARIABLE _ps_py_out OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _ps_py_rc)
if(NOT _ps_py_rc EQUAL 0)
    message(FATAL_ERROR "The Python environment ${PS_PYTHON_ENV} cannot import torch and pybind11")
endif()
string(REPLACE "\n" ";" _ps_py_out "${_ps_py_out}")
list(GET _ps_py_out 0 pybind11_DIR)
list(GET _ps_py_out 1 PS_TORCH_DIR)
list(GET _ps_py_out 2 PS_TORCH_CXX11_ABI)
list(GET _ps_py_out 3 PS_TORCH_VERSION)
find_package(pybind11 CONFIG REQUIRED)
message(STATUS "torch ${PS_TORCH_VERSION} at ${PS_TORCH_DIR} (_GLIBCXX_USE_CXX11_ABI=${PS_TORCH_CXX11_ABI})")

# LibTorch from the wheel. Its TorchConfig.cmake wants a CUDA toolkit; the worker needs no CUDA
# code, so declare the three libraries it links as imported targets here.
set(PS_TORCH_LIB_DIR ${PS_TORCH_DIR}/lib)
foreach(_lib c10 torch_cpu torch torch_python)
    add_library(ps_torch_${_lib} SHARED IMPORTED)
    set_target_properties(ps_torch_${_lib} PROPERTIES IMPORTED_LOCATION ${PS_TORCH_LIB_DIR}/lib${_lib}.so)
endforeach()
add_library(ps_libtorch INTERFACE)
target_include_directories(ps_libtorch SYSTEM INTERFACE
    ${PS_TORCH_DIR}/include ${PS_TORCH_DIR}/include/torch/csrc/api/include)
target_compile_definitions(ps_libtorch INTERFACE _GLIBCXX_USE_CXX11_ABI=${PS_TORCH_CXX11_ABI})
target_link_libraries(ps_libtorch INTERFACE ps_torch_torch_python ps_torch_torch ps_torch_torch_cpu ps_torch_c10)
