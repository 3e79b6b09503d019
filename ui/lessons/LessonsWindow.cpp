#include "ui/lessons/LessonsWindow.h"
#include "ui/common/WindowPlacement.h"

#include "ui/lessons/LessonsView.h"

#include <QCloseEvent>
#include <QKeySequence>
#include <QSettings>
#include <QShortcut>
#include <QVBoxLayout>

namespace ps::ui {

namespace {
const QString kGeometryKey = QStringLiteral("lessons/geometry");
}

LessonsWindow::LessonsWindow(const QString& pythonEnv, bool prewarm, QWidget* parent)
    : QWidget(parent, Qt::Window), m_view(new LessonsView(pythonEnv)), m_prewarm(prewarm)
{
    setObjectName(QStringLiteral("lessonsWindow"));
    setWindowTitle(tr("Lessons — Precompile Studio"));
    setAttribute(Qt::WA_QuitOnClose, false);  // the main window decides when the studio ends
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_view);
    auto* close = new QShortcut(QKeySequence::Close, this);
    connect(close, &QShortcut::activated, this, &QWidget::close);
    // Escape closes it too, as it closes a dialog (a field that uses Escape takes it first).
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(escape, &QShortcut::activated, this, &QWidget::close);
}

void LessonsWindow::showAndRaise()
{
    if (!m_placed) {
        m_placed = true;
        const QByteArray saved = QSettings().value(kGeometryKey).toByteArray();
        if (saved.isEmpty() || !restoreGeometry(saved))
            WindowPlacement::fitAndCentre(this, QSize(1400, 900));
    }
    show();
    raise();
    activateWindow();
}

void LessonsWindow::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_prewarm && !m_view->hasWorker())
        m_view->prewarm();
}

void LessonsWindow::closeEvent(QCloseEvent* event)
{
    QSettings().setValue(kGeometryKey, saveGeometry());
    m_view->releaseWorker();
    event->accept();
}

}  // namespace ps::ui
