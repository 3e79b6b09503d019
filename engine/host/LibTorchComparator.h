#pragma once

namespace ps::host {

/// Makes verification compare tensors in C++ with LibTorch (TensorComparison) instead of in
/// Python: installs a comparator through precompile_studio.common.calls.set_comparator. Values that
/// are not two tensors go to the Python comparator as before. Needs the GIL.
class LibTorchComparator {
public:
    static void install();
};

}  // namespace ps::host
