#include "ui/library/KeptRunsPush.h"

#include "ui/library/RunStore.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace ps::ui {

KeptRunsPush::KeptRunsPush(QObject* parent) : QObject(parent), m_watcher(new QFutureWatcher<Outcome>(this))
{
    connect(m_watcher, &QFutureWatcher<Outcome>::finished, this, [this]() { emit finished(m_watcher->result()); });
}

KeptRunsPush::~KeptRunsPush()
{
    // The push holds no pointer to this object: let it end on its own thread.
    m_watcher->disconnect(this);
}

bool KeptRunsPush::start(const QString& localPath)
{
    if (isRunning())
        return false;
    m_watcher->setFuture(QtConcurrent::run(&RunStore::pushKeptRuns, localPath));
    return true;
}

bool KeptRunsPush::isRunning() const
{
    return m_watcher->isRunning();
}

}  // namespace ps::ui
