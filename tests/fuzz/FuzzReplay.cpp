// The main of a fuzz target in the normal build (g++, no libFuzzer): runs each input named on
// the command line (a file, or every file of a folder, in name order) once through the target's
// LLVMFuzzerTestOneInput, as libFuzzer does with a corpus. `make test` replays each target's
// seed corpus this way, so a target that no longer builds or a seed that now crashes fails
// the suite, not only `make fuzz`. Exit status: 0 when every input ran, 1 when none was found.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::filesystem::path> inputsOf(const std::filesystem::path& where)
{
    if (!std::filesystem::is_directory(where))
        return {where};
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(where))
        if (entry.is_regular_file())
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

int main(int argc, char** argv)
{
    std::size_t ran = 0;
    for (int i = 1; i < argc; ++i) {
        for (const auto& path : inputsOf(argv[i])) {
            std::ifstream in(path, std::ios::binary);
            if (!in) {
                std::cerr << path.string() << ": cannot be read\n";
                return 1;
            }
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::cout << "input " << path.filename().string() << " (" << bytes.size() << " bytes)" << std::endl;
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++ran;
        }
    }
    std::cout << "replayed " << ran << " input" << (ran == 1 ? "" : "s") << "\n";
    return ran > 0 ? 0 : 1;
}
