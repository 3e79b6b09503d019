#pragma once

#include <QDialog>
#include <QList>
#include <QPair>
#include <QString>

class QLineEdit;
class QMainWindow;
class QTreeWidget;

namespace ps::ui {

/// Help > Keyboard Shortcuts: every shortcut of the window, read from its actions when the
/// dialog opens (the menus in their order, then the actions that live outside them, such as
/// Next Pane), so the list says what the keys do now, not what someone once wrote down. Keys a
/// widget handles itself (the editor's Tab) are added by that widget's own description
/// (addKeys). A filter box narrows the list by action or key.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QMainWindow* window, QWidget* parent = nullptr);

    /// Keys a widget handles itself: (what it does, the keys), under `group`.
    void addKeys(const QString& group, const QList<QPair<QString, QString>>& keys);
    void setFilter(const QString& text);

    /// The keys listed for an action, by its text without '&' ("Run"); "" if not listed. Where
    /// several actions share the text, the first listed.
    QString keysFor(const QString& action) const;
    /// The group an action is listed under ("" when it is not listed).
    QString groupOf(const QString& action) const;
    /// Rows shown (not filtered out), every group.
    int visibleRowCount() const;
    QTreeWidget* tree() const { return m_tree; }

private:
    /// The group of an action that is in no menu: the pane that made it ("Library"), else "Window".
    static QString paneOf(const QObject* action);
    void addRow(const QString& group, const QString& action, const QString& keys, const QString& tip);

    QLineEdit* m_filter;
    QTreeWidget* m_tree;
};

}  // namespace ps::ui
