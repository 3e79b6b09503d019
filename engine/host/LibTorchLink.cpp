#include <ATen/Parallel.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/version.h>

#include "host/LibTorchLink.h"

#include <dlfcn.h>
#include <filesystem>

namespace ps::host {

namespace {
std::string libraryOf(const void* symbol)
{
    Dl_info info{};
    if (dladdr(symbol, &info) == 0 || !info.dli_fname)
        return {};
    std::error_code ec;
    auto path = std::filesystem::canonical(info.dli_fname, ec);
    return ec ? std::string(info.dli_fname) : path.string();
}
}  // namespace

std::string LibTorchLink::version()
{
    return TORCH_VERSION;
}

std::string LibTorchLink::mismatch(const std::string& torchPackageDir)
{
    // torch._C's initialisation sets THPVariableClass in the libtorch_python it loaded; if
    // that is not ours, ours is still null.
    if (THPVariableClass == nullptr)
        return "torch was imported from a libtorch_python other than the one the worker links";
    std::error_code ec;
    const auto libDir = std::filesystem::canonical(std::filesystem::path(torchPackageDir) / "lib", ec);
    const std::string cpu = libraryOf(reinterpret_cast<const void*>(&at::get_num_threads));
    if (!ec && cpu.rfind(libDir.string(), 0) != 0)
        return "the worker links " + cpu + " but torch is at " + torchPackageDir;
    return {};
}

}  // namespace ps::host
