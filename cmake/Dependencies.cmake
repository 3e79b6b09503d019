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
    COMMAND ${Python3_EXECUTABLE} -c "import pybind11; print(pybind11.get_cmake_dir())"
    OUTPUT_VARIABLE pybind11_DIR OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _ps_py_rc)
if(NOT _ps_py_rc EQUAL 0)
    message(FATAL_ERROR "The Python environment ${PS_PYTHON_ENV} cannot import pybind11")
endif()
find_package(pybind11 CONFIG REQUIRED)

# LibTorch from each environment's wheel, one worker per torch series (docs/design/torch-versions.md):
# PS_PYTHON_ENV (the studio's default, torch 2.15) and PS_EXTRA_PYTHON_ENVS (the others, e.g. the
# torch 2.14 environment `make test` makes). Each gives ps_libtorch_<ID> (ID: the series with an
# underscore, 2_15), PS_TORCH_SERIES_<ID>, PS_TORCH_LIB_DIR_<ID> and PS_TORCH_ENV_<ID>;
# PS_TORCH_IDS lists them, the default first. Torch's TorchConfig.cmake wants a CUDA toolkit; the
# worker needs no CUDA code, so the libraries it links are imported targets declared here.
set(PS_EXTRA_PYTHON_ENVS "" CACHE STRING "Further Python environments with another torch series (a list)")
set(PS_TORCH_IDS)
function(ps_libtorch_of env)
    execute_process(
        COMMAND ${env}/bin/python -c
            "import os, sys, torch; print(os.path.dirname(torch.__file__)); print(int(torch._C._GLIBCXX_USE_CXX11_ABI)); print(torch.__version__.split('+')[0]); print('%d.%d' % sys.version_info[:2])"
        OUTPUT_VARIABLE _out OUTPUT_STRIP_TRAILING_WHITESPACE
        RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
        message(FATAL_ERROR "The Python environment ${env} cannot import torch")
    endif()
    string(REPLACE "\n" ";" _out "${_out}")
    list(GET _out 0 _dir)
    list(GET _out 1 _abi)
    list(GET _out 2 _version)
    list(GET _out 3 _python)
    if(NOT _python STREQUAL "${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
        message(FATAL_ERROR "${env} is a Python ${_python} environment; every worker embeds the studio's Python "
            "${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
    endif()
    string(REGEX MATCH "^[0-9]+\\.[0-9]+" _series "${_version}")
    string(REPLACE "." "_" _id "${_series}")
    if(_id IN_LIST PS_TORCH_IDS)
        message(FATAL_ERROR "${env} has torch ${_version}, a series another environment already gives")
    endif()
    message(STATUS "torch ${_version} at ${_dir} (_GLIBCXX_USE_CXX11_ABI=${_abi}): worker precompile-studio-worker-${_series}")
    foreach(_lib c10 torch_cpu torch torch_python)
        add_library(ps_torch_${_id}_${_lib} SHARED IMPORTED GLOBAL)
        set_target_properties(ps_torch_${_id}_${_lib} PROPERTIES IMPORTED_LOCATION ${_dir}/lib/lib${_lib}.so)
    endforeach()
    add_library(ps_libtorch_${_id} INTERFACE)
    target_include_directories(ps_libtorch_${_id} SYSTEM INTERFACE
        ${_dir}/include ${_dir}/include/torch/csrc/api/include)
    target_compile_definitions(ps_libtorch_${_id} INTERFACE _GLIBCXX_USE_CXX11_ABI=${_abi})
    target_link_libraries(ps_libtorch_${_id} INTERFACE
        ps_torch_${_id}_torch_python ps_torch_${_id}_torch ps_torch_${_id}_torch_cpu ps_torch_${_id}_c10)
    set(PS_TORCH_SERIES_${_id} ${_series} PARENT_SCOPE)
    set(PS_TORCH_VERSION_${_id} ${_version} PARENT_SCOPE)
    set(PS_TORCH_LIB_DIR_${_id} ${_dir}/lib PARENT_SCOPE)
    set(PS_TORCH_ENV_${_id} ${env} PARENT_SCOPE)
    set(PS_TORCH_IDS ${PS_TORCH_IDS} ${_id} PARENT_SCOPE)
endfunction()
ps_libtorch_of(${PS_PYTHON_ENV})
foreach(_env ${PS_EXTRA_PYTHON_ENVS})
    ps_libtorch_of(${_env})
endforeach()
# The default environment's: what the host tests and everything with one torch link.
list(GET PS_TORCH_IDS 0 PS_TORCH_ID)
set(PS_TORCH_SERIES ${PS_TORCH_SERIES_${PS_TORCH_ID}})
set(PS_TORCH_VERSION ${PS_TORCH_VERSION_${PS_TORCH_ID}})
set(PS_TORCH_LIB_DIR ${PS_TORCH_LIB_DIR_${PS_TORCH_ID}})
add_library(ps_libtorch ALIAS ps_libtorch_${PS_TORCH_ID})
# "2.15=/env;2.14=/env": the environments the build was configured with, for InstallLayout.
set(PS_TORCH_ENVS)
foreach(_id ${PS_TORCH_IDS})
    list(APPEND PS_TORCH_ENVS "${PS_TORCH_SERIES_${_id}}=${PS_TORCH_ENV_${_id}}")
endforeach()
