#include "protocol/ProtocolError.h"

namespace ps::protocol {

ProtocolError::ProtocolError(const std::string& what) : std::runtime_error(what)
{ }

}  // namespace ps::protocol
