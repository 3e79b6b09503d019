#include "ui/editor/EditorTabs.h"

#include "ui/editor/ScriptLocations.h"
#include "ui/editor/SourceViewerTab.h"

#include <QFileInfo>
#include <QTabBar>

namespace ps::ui {

EditorTabs::EditorTabs(QWidget* scriptPane, QWidget* parent) : QTabWidget(parent), m_scriptPane(scriptPane)
{
    setObjectName(QStringLiteral("editorTabs"));
    setDocumentMode(true);
    setTabBarAutoHide(true);
    setTabsClosable(true);
    setMovable(false);
    addTab(m_scriptPane, tr("Script"));
    // The script's tab has no close button.
    if (QWidget* button = tabBar()->tabButton(0, QTabBar::RightSide))
        button->hide();
    tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
    connect(this, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (index <= 0)
            return;
        QWidget* page = widget(index);
        removeTab(index);
        page->deleteLater();
    });
}

SourceViewerTab* EditorTabs::viewerOf(const QString& path) const
{
    for (int i = 1; i < count(); ++i)
        if (auto* viewer = qobject_cast<SourceViewerTab*>(widget(i));
            viewer && ScriptLocations::sameFile(viewer->filePath(), path))
            return viewer;
    return nullptr;
}

SourceViewerTab* EditorTabs::openSource(const QString& path, int line, QString* error)
{
    SourceViewerTab* viewer = viewerOf(path);
    if (!viewer) {
        viewer = new SourceViewerTab;
        if (!viewer->open(path, error)) {
            delete viewer;
            return nullptr;
        }
        const QFileInfo info(viewer->filePath());
        const int index = addTab(viewer, info.fileName());
        setTabToolTip(index, tr("%1 (read-only)").arg(viewer->filePath()));
    }
    setCurrentWidget(viewer);
    viewer->showLine(line);
    viewer->setFocus();
    return viewer;
}

void EditorTabs::showScript()
{
    setCurrentIndex(0);
}

void EditorTabs::setScriptTitle(const QString& title)
{
    setTabText(0, title);
}

}  // namespace ps::ui
