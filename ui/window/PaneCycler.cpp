#include "ui/window/PaneCycler.h"

#include "ui/common/FocusFrame.h"

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QTabWidget>
#include <QWidget>

namespace ps::ui {

namespace {

bool takesFocus(const QWidget* w)
{
    return w->isVisibleTo(w->window()) && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus);
}

/// Where typing should go in `root`: the largest focusable widget shown in it, counting a
/// scroll area's viewport as the area itself (focus goes to the area).
QWidget* mainWidgetOf(QWidget* root)
{
    if (!root || !root->isVisibleTo(root->window()))
        return nullptr;
    if (root->focusProxy())
        return root->focusProxy();
    QWidget* best = takesFocus(root) ? root : nullptr;
    qint64 bestArea = best ? qint64(root->width()) * root->height() : -1;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!takesFocus(w) || !w->isVisibleTo(root))
            continue;
        // A tab widget's pages other than the current one are hidden: isVisibleTo skips them.
        const qint64 area = qint64(w->width()) * w->height();
        if (area > bestArea) {
            best = w;
            bestArea = area;
        }
    }
    return best;
}

}  // namespace

PaneCycler::PaneCycler(QWidget* window) : QObject(window), m_window(window)
{
    m_next = new QAction(tr("&Next Pane"), window);
    m_next->setShortcuts({QKeySequence(Qt::Key_F6), QKeySequence(Qt::CTRL | Qt::Key_Tab)});
    m_next->setToolTip(tr("Move the focus to the next pane: editor, report, library, log"));
    m_previous = new QAction(tr("&Previous Pane"), window);
    m_previous->setShortcuts({QKeySequence(Qt::SHIFT | Qt::Key_F6), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab)});
    m_previous->setToolTip(tr("Move the focus to the previous pane"));
    for (QAction* a : {m_next, m_previous}) {
        a->setShortcutContext(Qt::WindowShortcut);
        window->addAction(a);
    }
    connect(m_next, &QAction::triggered, this, [this]() { cycle(1); });
    connect(m_previous, &QAction::triggered, this, [this]() { cycle(-1); });
    connect(qApp, &QApplication::focusChanged, this, &PaneCycler::markFocus);
}

void PaneCycler::markFocus()
{
    const int pane = currentPane();
    QWidget* container = pane >= 0 ? m_panes[pane].container.data() : nullptr;
    if (!m_frame) {
        if (!container)
            return;
        m_frame = new FocusFrame;
    }
    if (m_frame->target() != container || m_frame->isHidden())
        m_frame->setTarget(container);
}

int PaneCycler::markedPane() const
{
    if (!m_frame || !m_frame->target() || !m_frame->isVisible())
        return -1;
    for (int i = 0; i < m_panes.size(); ++i)
        if (m_panes[i].container == m_frame->target())
            return i;
    return -1;
}

int PaneCycler::addPane(const QString& name, QWidget* container, QDockWidget* dock, std::function<QWidget*()> focusRoot)
{
    m_panes.append({name, container, dock, std::move(focusRoot)});
    return static_cast<int>(m_panes.size()) - 1;
}

QString PaneCycler::paneName(int pane) const
{
    return pane >= 0 && pane < m_panes.size() ? m_panes[pane].name : QString();
}

bool PaneCycler::available(const Pane& pane) const
{
    if (!pane.container)
        return false;
    if (pane.dock)
        return pane.dock->isVisible();
    return pane.container->isVisibleTo(m_window);
}

int PaneCycler::currentPane() const
{
    const QWidget* focus = QApplication::focusWidget();
    if (!focus)
        return -1;
    for (int i = 0; i < m_panes.size(); ++i) {
        const Pane& p = m_panes[i];
        if (p.container && (p.container == focus || p.container->isAncestorOf(focus)))
            return i;
    }
    return -1;
}

QWidget* PaneCycler::focusTarget(int pane) const
{
    if (pane < 0 || pane >= m_panes.size() || !m_panes[pane].container)
        return nullptr;
    const Pane& p = m_panes[pane];
    if (p.focusRoot)
        if (QWidget* root = p.focusRoot(); root && p.container->isAncestorOf(root))
            if (QWidget* w = mainWidgetOf(root))
                return w;
    return mainWidgetOf(p.container);
}

bool PaneCycler::focusPane(int pane)
{
    if (pane < 0 || pane >= m_panes.size() || !m_panes[pane].container)
        return false;
    const Pane& p = m_panes[pane];
    if (p.dock) {
        p.dock->show();
        p.dock->raise();  // the front tab where docks are tabbed together
    }
    QWidget* target = focusTarget(pane);
    if (!target)
        return false;
    target->setFocus(Qt::ShortcutFocusReason);
    return true;
}

void PaneCycler::cycle(int step)
{
    const int n = static_cast<int>(m_panes.size());
    if (n == 0)
        return;
    int from = currentPane();
    if (from < 0)
        from = step > 0 ? n - 1 : 0;  // from nowhere: the first pane forwards, the last backwards
    for (int k = 1; k <= n; ++k) {
        const int i = ((from + step * k) % n + n) % n;
        if (available(m_panes[i]) && focusTarget(i)) {
            focusPane(i);
            return;
        }
    }
}

}  // namespace ps::ui
