#include <Python.h>

#include "host/GilRelease.h"

namespace ps::host {

GilRelease::GilRelease() : m_state(PyEval_SaveThread())
{ }

GilRelease::~GilRelease()
{
    PyEval_RestoreThread(static_cast<PyThreadState*>(m_state));
}

}  // namespace ps::host
