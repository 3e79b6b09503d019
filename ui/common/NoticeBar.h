#pragma once

#include <QFrame>

#include <functional>
#include <utility>
#include <vector>

class QHBoxLayout;
class QLabel;

namespace ps::ui {

/// A bar across the top of the window that says what happened (a dead worker, a damaged
/// library, a refused file) and offers what to do, without a modal dialog in the way.
class NoticeBar : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    using Action = std::pair<QString, std::function<void()>>;

    explicit NoticeBar(QWidget* parent = nullptr);

    void showNotice(Level level, const QString& text, const std::vector<Action>& actions = {});
    void dismiss();
    QString text() const;
    Level level() const { return m_level; }
    QStringList actionLabels() const;
    /// Presses the action with this label (as a click would); false when there is none.
    bool trigger(const QString& label);

private:
    QLabel* m_icon;
    QLabel* m_text;
    QHBoxLayout* m_actions;
    Level m_level = Level::Info;
};

}  // namespace ps::ui
