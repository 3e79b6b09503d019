#pragma once

#include <QPlainTextEdit>

namespace ps::ui {

/// The log dock: the script's output (stderr tinted), worker events and run markers. Bounded:
/// at most kMaxBlocks lines are kept, and each run shows at most kMaxRunChars characters of
/// output (the rest is counted), whatever a script prints.
class LogView : public QPlainTextEdit {
    Q_OBJECT
public:
    static constexpr int kMaxBlocks = 20000;
    static constexpr qint64 kMaxRunChars = 2 * 1024 * 1024;

    explicit LogView(QWidget* parent = nullptr);

    /// A line that starts a run's section of the log.
    void beginRun(const QString& title);
    void appendOutput(int stream, const QString& text);
    /// A line of the studio's own (worker events, run outcomes), set apart from output.
    void appendNote(const QString& text);
    qint64 runChars() const { return m_runChars; }

private:
    void insert(const QString& text, const QColor& color, bool bold);

    qint64 m_runChars = 0;
    qint64 m_droppedChars = 0;
};

}  // namespace ps::ui
