#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QsciScintilla;

namespace ps::ui {

/// An incremental find bar under a QScintilla editor (the script or the source). Enter finds
/// the next match, Shift+Enter the previous, Escape closes; the search wraps around.
class FindBar : public QWidget {
    Q_OBJECT
public:
    FindBar(QsciScintilla* editor, QWidget* parent = nullptr);

    /// Shows the bar with the editor's selection (if any) as the text, focused.
    void activate();
    bool findNext();
    bool findPrevious();
    void setText(const QString& text);
    QString status() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    bool find(bool forward, bool fromSelectionStart);

    QsciScintilla* m_editor;
    QLineEdit* m_text;
    QCheckBox* m_case;
    QLabel* m_status;
};

}  // namespace ps::ui
