#include "ui/window/WorkbenchLayout.h"

#include <QDockWidget>
#include <QEvent>
#include <QLayout>
#include <QMainWindow>
#include <QSplitter>
#include <QStyle>

#include <algorithm>

namespace ps::ui {

WorkbenchLayout::WorkbenchLayout(QMainWindow* window, QSplitter* split, QDockWidget* library, QDockWidget* log)
    : QObject(window), m_window(window), m_split(split), m_library(library), m_log(log)
{
    m_split->setChildrenCollapsible(false);
    for (int i = 0; i < m_split->count(); ++i)
        m_split->widget(i)->setMinimumWidth(i == 0 ? kEditorMinimum : kReportMinimum);
    // Resizing the window keeps the shares (a stretch factor is a share of the change).
    m_split->setStretchFactor(0, qRound((1 - kReportShare) * 100));
    m_split->setStretchFactor(1, qRound(kReportShare * 100));
    m_window->installEventFilter(this);
}

bool WorkbenchLayout::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::Show && !m_done)
        apply();
    return QObject::eventFilter(watched, event);
}

void WorkbenchLayout::apply()
{
    m_done = true;
    const int width = m_window->width();
    const int report = qRound(width * kReportShare);
    const int separator = m_window->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, m_window);
    const int editorBesideLibrary = width - kLibraryWidth - separator - report - m_split->handleWidth();
    m_libraryLeft = editorBesideLibrary >= kEditorComfort;
    if (m_libraryLeft) {
        m_window->addDockWidget(Qt::LeftDockWidgetArea, m_library);
        m_window->resizeDocks({m_library}, {kLibraryWidth}, Qt::Horizontal);
    } else {
        // The bottom row: the library (its columns readable at last) beside the log.
        m_window->addDockWidget(Qt::BottomDockWidgetArea, m_library);
        m_window->splitDockWidget(m_library, m_log, Qt::Horizontal);
        m_window->resizeDocks({m_library, m_log}, {width * 2 / 5, width * 3 / 5}, Qt::Horizontal);
    }
    const int bottom = std::clamp(qRound(m_window->height() * kBottomShare), 150, 320);
    m_window->resizeDocks({m_log}, {bottom}, Qt::Vertical);
    if (QLayout* layout = m_window->layout())
        layout->activate();  // the docks in place: the splitter has its real width
    const int total = m_split->width() - m_split->handleWidth();
    const int editor = std::max(kEditorMinimum, total - report);
    m_split->setSizes({editor, std::max(kReportMinimum, total - editor)});
}

}  // namespace ps::ui
