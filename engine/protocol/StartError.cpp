#include "protocol/StartError.h"

namespace ps::protocol {

StartError::StartError(model::StartFailure cause, const std::string& what) : ProtocolError(what), m_cause(cause)
{ }

}  // namespace ps::protocol
