# Writes a C++ source that holds one file's bytes, at build time (cmake -P):
#   cmake -DINPUT=<file> -DOUTPUT=<file.cpp> -DSYMBOL=<name> -P cmake/EmbedFile.cmake
# The source defines `const std::string_view ps::embedded::<SYMBOL>` over a static array (a
# trailing NUL added, not counted, so an empty file still compiles). Used through
# ps_embed_file() in cmake/EmbedFiles.cmake: the page's script, style and engine.wasm travel
# inside the binary, so an exported report never depends on a file beside the studio.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# One line per 32 bytes keeps the compiler's diagnostics and the file readable.
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){32})" "\\1\n" bytes "${bytes}")
get_filename_component(name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp"
"// Generated from ${name} by cmake/EmbedFile.cmake: do not edit.\n"
"#include <cstddef>\n#include <string_view>\n\n"
"namespace ps::embedded {\n"
"namespace {\nconst unsigned char ${SYMBOL}Bytes[] = {\n${bytes}0x00};\n}  // namespace\n"
"extern const std::string_view ${SYMBOL};\n"
"const std::string_view ${SYMBOL}(reinterpret_cast<const char*>(${SYMBOL}Bytes), ${size});\n"
"}  // namespace ps::embedded\n")
# Only a changed file is rewritten, so a rebuild does not recompile what did not change.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
