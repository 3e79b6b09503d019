#pragma once

#include <string>

namespace ps::protocol {

/// "SIGSEGV (Segmentation fault)" for a signal number.
std::string signalDescription(int signal);

}  // namespace ps::protocol
