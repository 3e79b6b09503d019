# ps_embed_file(<target> <symbol> <input>): compiles <input>'s bytes into <target> as
# `ps::embedded::<symbol>` (a std::string_view; declare it where it is used). The source is
# regenerated whenever <input> changes; <input> may itself be a build output (engine.wasm).
function(ps_embed_file target symbol input)
    set(output "${CMAKE_CURRENT_BINARY_DIR}/embedded/${symbol}.cpp")
    add_custom_command(
        OUTPUT "${output}"
        COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${output} -DSYMBOL=${symbol}
                -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake
        DEPENDS "${input}" ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake
        COMMENT "Embedding ${symbol}"
        VERBATIM)
    target_sources(${target} PRIVATE "${output}")
endfunction()
