#include "lessons/LessonSide.h"

namespace ps::lessons {

std::string_view toString(LessonSide side)
{
    switch (side) {
    case LessonSide::Broken:
        return "broken";
    case LessonSide::Fixed:
        return "fixed";
    }
    return "broken";
}

}  // namespace ps::lessons
