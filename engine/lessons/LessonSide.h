#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ps::lessons {

/// A lesson's two scripts: broken.py breaks the contract, fixed.py keeps it. expect.json names
/// each by its word ({"broken": ..., "fixed": ...}) and the files are WORD.py.
enum class LessonSide : std::uint8_t { Broken, Fixed };

/// Both sides, in the order they run and are shown (left, right).
inline constexpr std::array<LessonSide, 2> kLessonSides{LessonSide::Broken, LessonSide::Fixed};

/// "broken" or "fixed": expect.json's key and the script's file name without ".py".
std::string_view toString(LessonSide side);
/// 0 for Broken, 1 for Fixed: the side's place in kLessonSides.
constexpr int indexOf(LessonSide side)
{
    return side == LessonSide::Broken ? 0 : 1;
}

}  // namespace ps::lessons
