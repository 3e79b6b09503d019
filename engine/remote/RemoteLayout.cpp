#include "remote/RemoteLayout.h"

namespace ps::remote {

bool RemoteLayout::isArtifactName(const std::string& name)
{
    static constexpr std::string_view kPrefix = "capture-";
    if (name.size() > 64 || name.rfind(kPrefix, 0) != 0)
        return false;
    std::size_t i = kPrefix.size();
    const std::size_t digits = i;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9')
        ++i;
    if (i == digits || i - digits > 6)
        return false;
    const std::string rest = name.substr(i);
    return rest == ".py" || rest == ".cache";
}

std::string RemoteLayout::scriptName(const std::string& localPath)
{
    const auto slash = localPath.rfind('/');
    std::string name = slash == std::string::npos ? localPath : localPath.substr(slash + 1);
    bool plain = !name.empty() && name.size() <= 200 && name != "." && name != "..";
    for (unsigned char c : name)
        if (c < 0x20 || c == 0x7f || c == '/' || c == '\\')
            plain = false;
    return plain ? name : "script.py";
}

}  // namespace ps::remote
