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
    /// The folder Open and Save As start in.
    static QString startDir();
    /// Remembers the folder of this file as the last one used.
    static void remember(const QString& filePath);
    /// Whether two paths name the same file (equal, or the same file once links are resolved);
    /// an empty path names none.
    static bool sameFile(const QString& a, const QString& b);
};

}  // namespace ps::ui
