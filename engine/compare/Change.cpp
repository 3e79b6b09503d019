#include "compare/Change.h"

#include <ostream>

namespace ps::compare {

std::string_view toString(Change change)
{
    switch (change) {
    case Change::Same:
        return "same";
    case Change::Changed:
        return "changed";
    case Change::Refused:
        return "refused";
    case Change::Added:
        return "added";
    case Change::Removed:
        return "removed";
    }
    return "changed";
}

std::string_view describe(Change change)
{
    return change == Change::Refused ? "fused differently" : toString(change);
}

std::optional<Change> changeFromString(std::string_view text)
{
    for (auto c : {Change::Same, Change::Changed, Change::Refused, Change::Added, Change::Removed})
        if (toString(c) == text)
            return c;
    return std::nullopt;
}

std::ostream& operator<<(std::ostream& out, Change change)
{
    return out << toString(change);
}

}  // namespace ps::compare
