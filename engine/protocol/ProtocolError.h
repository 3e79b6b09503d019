#pragma once

#include <stdexcept>
#include <string>

namespace ps::protocol {

/// A broken channel, a bad frame, or a worker that cannot be started.
class ProtocolError : public std::runtime_error {
public:
    explicit ProtocolError(const std::string& what);
};

}  // namespace ps::protocol
