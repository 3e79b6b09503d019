#pragma once

#include <QObject>
#include <QString>

#include "ui/library/RunStore.h"

template <typename T> class QFutureWatcher;

namespace ps::ui {

/// The window's Push Kept Runs: sends the runs the local library keeps for a team library that
/// could not be reached (RunStore::pushKeptRuns, the same as `library push`) on a pool thread, so
/// the window never waits on the network, and says what happened in one line.
/// Thread contract: GUI thread; the push itself opens its own libraries on its own thread.
class KeptRunsPush : public QObject {
    Q_OBJECT
public:
    explicit KeptRunsPush(QObject* parent = nullptr);
    ~KeptRunsPush() override;

    /// Starts pushing what `localPath` keeps; false when a push is going already.
    bool start(const QString& localPath);
    bool isRunning() const;

    using Outcome = PushOutcome;

signals:
    void finished(const ps::ui::KeptRunsPush::Outcome& outcome);

private:
    QFutureWatcher<Outcome>* m_watcher;
};

}  // namespace ps::ui
