#pragma once

#include "model/Severity.h"

#include <QList>
#include <QObject>
#include <QString>

#include <optional>
#include <vector>

class QsciScintilla;

namespace ps::ui {

/// Marks problems on the lines of a script where the user reads it, as IDEs do: an icon in the
/// symbol margin (a red circle for a violation or error, an amber triangle for a warning), a
/// squiggle under the line's code, and a tooltip over either that names the rule, says what
/// went wrong in one line and how to fix it. Scintilla moves the marks with the text as it is
/// edited. Lines here are 1-based. Lives on the GUI thread, a child of its editor.
class EditorMarkers : public QObject {
    Q_OBJECT
public:
    struct Diagnostic {
        int line = 0;
        model::Severity severity = model::Severity::Error;
        std::optional<int> invariant;
        QString rule;
        QString summary;  ///< one line
        QString fix;
        QString capture;
        QString guard;  ///< a shape rejection's guard ("x.shape[0] <= 2"), shown in the tooltip
        bool warning() const { return severity == model::Severity::Warning; }
    };

    /// The symbol margin's number (between the line numbers and the fold margin).
    static constexpr int kMargin = 1;

    explicit EditorMarkers(QsciScintilla* editor);

    /// Replaces every mark with these (lines outside the text are left out).
    void setDiagnostics(std::vector<Diagnostic> diagnostics);
    void clear();
    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }

    /// Lines with the margin icon of a violation/error (warning = false) or of a warning only.
    QList<int> markedLines(bool warning) const;
    /// Whether the squiggle of that kind lies under the code of `line`.
    bool hasSquiggle(int line, bool warning) const;
    /// The tooltip shown over `line` (rich text), "" when nothing is marked there.
    QString hoverText(int line) const;
    /// The 1-based line at a point of the editor's viewport (margins included), or 0.
    int lineAt(const QPoint& viewportPos) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void defineStyles();

    QsciScintilla* m_editor;
    std::vector<Diagnostic> m_diagnostics;
};

}  // namespace ps::ui
