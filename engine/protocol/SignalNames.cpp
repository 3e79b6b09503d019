#include "protocol/SignalNames.h"

#include <cstring>

namespace ps::protocol {

std::string signalDescription(int signal)
{
    const char* abbrev = sigabbrev_np(signal);
    const char* text = sigdescr_np(signal);
    std::string out = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
    if (text)
        out += std::string(" (") + text + ")";
    return out;
}

}  // namespace ps::protocol
