#pragma once

namespace ps::host {

/// Releases the GIL the current thread holds for the scope (PyEval_SaveThread / RestoreThread).
/// Use it around long C++ work that touches no Python object.
class GilRelease {
public:
    GilRelease();
    ~GilRelease();
    GilRelease(const GilRelease&) = delete;
    GilRelease& operator=(const GilRelease&) = delete;

private:
    void* m_state;
};

}  // namespace ps::host
