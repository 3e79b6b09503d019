#pragma once

#include <string>

namespace ps::host {

/// The LibTorch the worker links, and a check that it is the very library the interpreter's
/// `import torch` loaded (a second copy would mean two allocators and two dispatchers).
class LibTorchLink {
public:
    /// TORCH_VERSION of the headers the worker was built with, e.g. "2.14.1".
    static std::string version();
    /// Empty when torch's Python module runs on the linked libtorch_python and libtorch_cpu;
    /// else what differs. Call after `import torch`, with the GIL held.
    static std::string mismatch(const std::string& torchPackageDir);
};

}  // namespace ps::host
