#include <Python.h>

#include "host/GilAcquire.h"

namespace ps::host {

GilAcquire::GilAcquire() : m_state(static_cast<int>(PyGILState_Ensure()))
{ }

GilAcquire::~GilAcquire()
{
    PyGILState_Release(static_cast<PyGILState_STATE>(m_state));
}

}  // namespace ps::host
