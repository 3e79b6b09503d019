#include "commands/LibraryText.h"

#include "library/core/TerminalText.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <sstream>
#include <string_view>

namespace ps::commands {

using library::TerminalText;

std::string LibraryText::dumpJson(const nlohmann::json& value, int indent)
{
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string LibraryText::humanBytes(std::int64_t bytes)
{
    std::ostringstream out;
    if (bytes < 1024) {
        out << bytes << " B";
    } else {
        static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
        double v = static_cast<double>(bytes);
        int unit = -1;
        while (v >= 1024 && unit < 3) {
            v /= 1024;
            ++unit;
        }
        out << std::fixed << std::setprecision(1) << v << " " << kUnits[unit];
    }
    return out.str();
}

std::string LibraryText::shortLine(const std::string& text, std::size_t width)
{
    std::string line = TerminalText::safe(std::string_view(text).substr(0, text.find('\n')));
    if (line.size() > width) {
        std::size_t cut = width - 3;
        while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xc0) == 0x80)
            --cut;  // not inside a UTF-8 sequence
        line = line.substr(0, cut) + "...";
    }
    return line;
}

}  // namespace ps::commands
