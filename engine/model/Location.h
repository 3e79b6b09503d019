#pragma once

#include <string>

namespace ps::model {

/// A place in a user's file: the script line that caused a violation, produced a node, ...
struct Location {
    std::string file;
    int line = 0;
};

}  // namespace ps::model
