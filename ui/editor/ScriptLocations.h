#pragma once

#include <QString>

namespace ps::ui {

/// Where file dialogs start and where the studio's examples are. The last folder a script was
/// opened from or saved to is kept in QSettings ("files/lastDir"); before there is one, the
/// examples folder, else the home folder: never the process's working directory.
class ScriptLocations {
public:
    /// $PS_RESOURCES_DIR/examples, else the source tree's resources/examples (beside the
    /// lessons folder that engine/lessons' LessonCatalogue finds).
    static QString examplesDir();
    /// The folder Open starts in.
    static QString startDir();
    /// The folder Save As starts in for a script that has no file of its own yet: the last
    /// folder used when the user can write there and it is not the studio's own (examples,
    /// lessons), else the Documents folder, else the home folder.
    static QString saveDir();
    /// Remembers the folder of this file as the last one used.
    static void remember(const QString& filePath);
    /// Whether two paths name the same file (equal, or the same file once links are resolved);
    /// an empty path names none.
    static bool sameFile(const QString& a, const QString& b);
};

}  // namespace ps::ui
