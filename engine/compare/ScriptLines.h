#pragma once

#include <string>

namespace ps::compare {

class TextDiff;

/// Where each side's script is, so that a node's source line is read against the file it belongs
/// to: a line of a node whose `source.file` is its side's script goes through the scripts' text
/// diff (a line that moved because the script grew above it is not a change); a line of any other
/// file (a model in a module the script imports) is compared as it is, with its file.
struct ScriptLines {
    const TextDiff* map = nullptr;  ///< a's script lines to b's; nullptr: compared as they are
    std::string fileA;              ///< side a's script path, as its nodes' source.file names it
    std::string fileB;
};

}  // namespace ps::compare
