#pragma once

#include "lessons/LessonSide.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::lessons {

/// One folder of resources/lessons/: lesson.md, broken.py, fixed.py and expect.json.
struct Lesson {
    std::string name;  ///< the folder's name, e.g. "inv1-closed-over-tensor"
    std::string dir;
    std::string title;                            ///< lesson.md's first heading
    std::string lessonMd, broken, fixed, expect;  ///< paths (each may be missing on disk)
    bool complete = false;                        ///< all four files are there

    /// The path of broken.py or fixed.py.
    const std::string& script(LessonSide side) const { return side == LessonSide::Fixed ? fixed : broken; }
};

/// The lessons of a folder (resources/lessons/ by default): one subfolder a lesson.
class LessonCatalogue {
public:
    /// $PS_RESOURCES_DIR/lessons, else the source tree's resources/lessons (compile time).
    static std::string defaultLessonsDir();
    /// Every subfolder of `lessonsDir` (not one whose name starts with '.'): the invariants'
    /// lessons (invN-...) first, in the contract's order, then the others by name; empty when
    /// the folder cannot be read.
    static std::vector<Lesson> list(const std::string& lessonsDir);
    /// The subfolder `name` (a plain folder name: no '/', '\\' or leading '.'); its title is
    /// lesson.md's first heading. nullopt: no such folder.
    static std::optional<Lesson> find(const std::string& lessonsDir, const std::string& name);
};

}  // namespace ps::lessons
