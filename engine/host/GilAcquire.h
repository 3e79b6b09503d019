#pragma once

namespace ps::host {

/// Holds the GIL for the scope (PyGILState_Ensure / Release). Works on any thread, nested too.
/// See Interpreter.h for the GIL policy.
class GilAcquire {
public:
    GilAcquire();
    ~GilAcquire();
    GilAcquire(const GilAcquire&) = delete;
    GilAcquire& operator=(const GilAcquire&) = delete;

private:
    int m_state;
};

}  // namespace ps::host
