#include "ui/window/ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace ps::ui {

namespace {

QString plainText(const QAction* a)
{
    QString t = a->text();
    t.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    return t.replace(QStringLiteral("&&"), QStringLiteral("&"));
}

QString keysOf(const QAction* a)
{
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts())
        if (!k.isEmpty())
            keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

}  // namespace

ShortcutsDialog::ShortcutsDialog(QMainWindow* window, QWidget* parent) : QDialog(parent ? parent : window)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter by action or key…"));
    m_filter->setClearButtonEnabled(true);
    m_tree = new QTreeWidget;
    m_tree->setHeaderLabels({tr("Action"), tr("Keys")});
    m_tree->setRootIsDecorated(false);
    m_tree->setItemsExpandable(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_filter, &QLineEdit::textChanged, this, &ShortcutsDialog::setFilter);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_tree, 1);
    layout->addWidget(buttons);

    // The menus, in their order (submenus as "View › Backend"), then every other action of the
    // window that has a shortcut.
    QSet<const QAction*> seen;
    std::function<void(const QString&, const QMenu*)> walk = [&](const QString& group, const QMenu* menu) {
        for (QAction* a : menu->actions()) {
            if (a->isSeparator())
                continue;
            if (a->menu()) {
                walk(group + QStringLiteral(" › ") + plainText(a), a->menu());
                continue;
            }
            seen.insert(a);
            if (const QString keys = keysOf(a); !keys.isEmpty())
                addRow(group, plainText(a), keys, a->toolTip());
        }
    };
    if (window) {
        for (QAction* top : window->menuBar()->actions())
            if (top->menu())
                walk(plainText(top), top->menu());
        for (QAction* a : window->findChildren<QAction*>()) {
            if (seen.contains(a) || a->menu() || plainText(a).isEmpty())
                continue;
            seen.insert(a);
            if (const QString keys = keysOf(a); !keys.isEmpty())
                addRow(paneOf(a), plainText(a), keys, a->toolTip());
        }
    }
    m_tree->expandAll();
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    resize(760, 640);  // the keys whole beside the longest action
}

QString ShortcutsDialog::paneOf(const QObject* action)
{
    // An action in no menu belongs to the pane that made it (the library's Delete, the graph's
    // keys): its group is that pane's name, "Window" only for the window's own.
    for (const QObject* o = action->parent(); o; o = o->parent()) {
        if (o->inherits("ps::ui::LibraryView") || o->inherits("ps::ui::LibraryActions"))
            return tr("Library");
        if (o->inherits("ps::ui::GraphView"))
            return tr("Graph");
        if (o->inherits("ps::ui::ScriptEditor"))
            return tr("Editor");
    }
    return tr("Window");
}

void ShortcutsDialog::addRow(const QString& group, const QString& action, const QString& keys, const QString& tip)
{
    QTreeWidgetItem* parent = nullptr;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        if (m_tree->topLevelItem(i)->text(0) == group)
            parent = m_tree->topLevelItem(i);
    if (!parent) {
        parent = new QTreeWidgetItem(m_tree, {group});
        QFont bold = parent->font(0);
        bold.setBold(true);
        parent->setFont(0, bold);
        parent->setFirstColumnSpanned(true);
        parent->setFlags(Qt::ItemIsEnabled);
    }
    auto* item = new QTreeWidgetItem(parent, {action, keys});
    if (!tip.isEmpty() && tip != action)
        item->setToolTip(0, tip);
    parent->setExpanded(true);
}

void ShortcutsDialog::addKeys(const QString& group, const QList<QPair<QString, QString>>& keys)
{
    for (const auto& [what, key] : keys)
        addRow(group, what, key, QString());
    m_tree->expandAll();
    // A wide key list ("Ctrl+click, Shift+Up/Down") gets the room it needs, up to the screen.
    const int want
        = m_tree->header()->sectionSize(0) + static_cast<const QAbstractItemView*>(m_tree)->sizeHintForColumn(1) + 60;
    if (want > width())
        resize(std::min(want, 1100), height());
}

void ShortcutsDialog::setFilter(const QString& text)
{
    const QString t = text.trimmed();
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* group = m_tree->topLevelItem(i);
        int shown = 0;
        for (int j = 0; j < group->childCount(); ++j) {
            QTreeWidgetItem* row = group->child(j);
            const bool match = t.isEmpty() || row->text(0).contains(t, Qt::CaseInsensitive)
                || row->text(1).contains(t, Qt::CaseInsensitive) || group->text(0).contains(t, Qt::CaseInsensitive);
            row->setHidden(!match);
            shown += match ? 1 : 0;
        }
        group->setHidden(shown == 0);
    }
}

QString ShortcutsDialog::keysFor(const QString& action) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* group = m_tree->topLevelItem(i);
        for (int j = 0; j < group->childCount(); ++j)
            if (group->child(j)->text(0) == action)
                return group->child(j)->text(1);
    }
    return {};
}

QString ShortcutsDialog::groupOf(const QString& action) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* group = m_tree->topLevelItem(i);
        for (int j = 0; j < group->childCount(); ++j)
            if (group->child(j)->text(0) == action)
                return group->text(0);
    }
    return {};
}

int ShortcutsDialog::visibleRowCount() const
{
    int n = 0;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* group = m_tree->topLevelItem(i);
        if (group->isHidden())
            continue;
        for (int j = 0; j < group->childCount(); ++j)
            n += group->child(j)->isHidden() ? 0 : 1;
    }
    return n;
}

}  // namespace ps::ui
