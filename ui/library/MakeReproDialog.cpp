#include "ui/library/MakeReproDialog.h"

#include "model/VisibleText.h"
#include "run/StoredRunRepro.h"
#include "ui/common/QtText.h"
#include "ui/common/StatusStyle.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace ps::ui {

namespace {

/// The run's script runs again before the cut: as long as a run may take.
constexpr double kRunTimeout = 900;

QString reproText(const std::string& text)
{
    return q(model::VisibleText::of(text));
}

/// What the pool thread gives the GUI thread: the repro section, or why there is none.
struct Made {
    std::optional<model::Repro> repro;
    QString failure;
};

}  // namespace

MakeReproDialog::MakeReproDialog(const QString& libraryLocation, qint64 runId, const QString& runName,
    const QString& untrusted, const QString& capture, const QString& node, QWidget* parent)
    : QDialog(parent),
      m_location(libraryLocation),
      m_runId(runId),
      m_untrusted(untrusted),
      m_capture(capture),
      m_node(node)
{
    setWindowTitle(tr("Make Repro of Run %1").arg(runId));
    auto* intro = new QLabel(tr("The smallest script that shows run %1's (%2) drift in plain torch: its script runs "
                                "again, the captured graph is cut around %3, and the cut is shrunk while the "
                                "compiled error stays outside eager's band. It is kept only when a fresh "
                                "`python repro.py` reproduces it.")
                                 .arg(runId)
                                 .arg(runName)
                                 .arg(node.isEmpty() ? tr("the first drift start") : node));
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::PlainText);
    m_folder = new QLineEdit(QDir::home().filePath(QStringLiteral("precompile-studio-repros/run-%1").arg(runId)));
    m_folder->setObjectName(QStringLiteral("reproFolder"));
    m_browse = new QPushButton(tr("Browse…"));
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(m_browse);
    m_budget = new QDoubleSpinBox;
    m_budget->setRange(5, 3600);
    m_budget->setDecimals(0);
    m_budget->setSuffix(tr(" s"));
    m_budget->setValue(120);
    m_budget->setToolTip(tr("How long the shrink may take"));
    auto* form = new QFormLayout;
    form->addRow(tr("Write into:"), folderRow);
    form->addRow(tr("Shrink for at most:"), m_budget);
    m_headline = new QLabel;
    m_headline->setObjectName(QStringLiteral("reproHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_files = new QLabel;
    m_files->setWordWrap(true);
    m_files->setTextFormat(Qt::PlainText);
    m_files->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_files->hide();
    m_steps = new QListWidget;
    m_steps->setObjectName(QStringLiteral("reproSteps"));
    m_progress = new QProgressBar;
    m_progress->setRange(0, 0);  // busy: how many steps a shrink takes is not known ahead
    m_progress->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_make = buttons->addButton(tr("&Make Repro"), QDialogButtonBox::ActionRole);
    m_make->setDefault(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_headline);
    layout->addWidget(m_files);
    layout->addWidget(m_steps, 1);
    layout->addWidget(m_progress);
    layout->addWidget(buttons);
    resize(760, 480);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_make, &QPushButton::clicked, this, &MakeReproDialog::start);
    connect(m_browse, &QPushButton::clicked, this, [this]() {
        const QString dir = m_folderPrompt
            ? m_folderPrompt(this, m_folder->text())
            : QFileDialog::getExistingDirectory(this, tr("Write the repro into"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    if (!m_untrusted.isEmpty()) {
        m_make->setEnabled(false);
        m_headline->setText(tr("Not made: %1").arg(m_untrusted));
    }
}

MakeReproDialog::~MakeReproDialog()
{
    cancel();
}

void MakeReproDialog::setFolder(const QString& folder)
{
    m_folder->setText(folder);
}

QString MakeReproDialog::folder() const
{
    return m_folder->text();
}

void MakeReproDialog::setBudget(double seconds)
{
    m_budget->setValue(seconds);
}

QString MakeReproDialog::headline() const
{
    return m_headline->text();
}

QStringList MakeReproDialog::steps() const
{
    QStringList out;
    for (int i = 0; i < m_steps->count(); ++i)
        out << m_steps->item(i)->text();
    return out;
}

void MakeReproDialog::done(int result)
{
    cancel();
    QDialog::done(result);
}

void MakeReproDialog::step(const QString& words)
{
    m_steps->addItem(words);
    m_steps->scrollToBottom();
}

void MakeReproDialog::start()
{
    if (m_busy || !m_untrusted.isEmpty())
        return;
    if (m_folder->text().trimmed().isEmpty()) {
        m_headline->setText(tr("Choose the folder to write the repro into."));
        return;
    }
    m_busy = true;
    m_repro.reset();
    m_steps->clear();
    m_files->hide();
    m_make->setEnabled(false);
    m_progress->show();
    m_headline->setStyleSheet(QString());
    m_headline->setText(tr("Running run %1's script again to cut its graph…").arg(m_runId));
    const int generation = ++m_generation;

    protocol::ReproRequest request;
    request.dir = QDir(m_folder->text().trimmed()).absolutePath().toStdString();
    if (!m_node.isEmpty())
        request.node = m_node.toStdString();
    if (!m_capture.isEmpty())
        request.capture = m_capture.toStdString();
    request.budgetSeconds = m_budget->value();

    // The job is made here (reading the run is quick) so that cancel() reaches it at once.
    try {
        m_job = std::make_shared<run::StoredRunRepro>(m_location.toStdString(), m_runId);
    } catch (const std::exception& e) {
        finish(std::nullopt, reproText(e.what()));
        return;
    }
    if (!m_job->refusal().empty()) {
        finish(std::nullopt, reproText(m_job->refusal()));
        return;
    }
    // Progress comes on the pool thread: posted to the GUI thread, dropped once this job is over.
    QPointer<MakeReproDialog> self(this);
    const auto post = [self, generation](const QString& words) {
        QMetaObject::invokeMethod(
            qApp,
            [self, generation, words]() {
                if (self && self->m_generation == generation)
                    self->step(words);
            },
            Qt::QueuedConnection);
    };
    protocol::RunObserver observer;
    observer.onStage = [post](model::Stage stage, const std::string& capture) {
        post(QStringLiteral("[%1%2]").arg(q(std::string(model::toString(stage))),
            capture.empty() ? QString() : QStringLiteral(" ") + reproText(capture)));
    };
    observer.onStageDetail = [post](const std::string& detail) { post(reproText(detail)); };

    auto* watcher = new QFutureWatcher<Made>(this);
    connect(watcher, &QFutureWatcher<Made>::finished, this, [this, watcher, generation]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        const Made made = watcher->result();
        finish(made.repro, made.failure);
    });
    auto job = m_job;
    watcher->setFuture(QtConcurrent::run([job, request, observer]() {
        Made made;
        const model::Report report = job->make(request, std::nullopt, kRunTimeout, observer);
        made.repro = report.repro;
        if (!made.repro)
            made.failure = tr("the run could not be made again: %1").arg(reproText(report.message));
        return made;
    }));
}

void MakeReproDialog::finish(const std::optional<model::Repro>& repro, const QString& failure)
{
    m_busy = false;
    m_job.reset();
    m_progress->hide();
    m_make->setEnabled(m_untrusted.isEmpty());
    m_repro = repro;
    const bool written = repro && repro->written;
    if (written) {
        // The worker's reason begins "reproduces in plain torch: …": said once, capitalised.
        QString reason = reproText(repro->reason);
        if (!reason.isEmpty())
            reason[0] = reason[0].toUpper();
        m_headline->setText(reason);
        QStringList files;
        for (const auto& f : repro->files)
            files << reproText(f);
        m_files->setText(tr("Wrote %1. A fresh `python repro.py` there exits %2.")
                             .arg(files.join(tr(" and ")))
                             .arg(repro->freshExit ? QString::number(*repro->freshExit) : tr("?")));
        m_files->show();
    } else {
        m_headline->setText(tr("No repro: %1").arg(repro ? reproText(repro->reason) : failure));
    }
    m_headline->setStyleSheet(
        QStringLiteral("color: %1;")
            .arg(StatusStyle::color(written ? model::RunStatus::Ok : model::RunStatus::Error).name()));
    emit finished();
}

void MakeReproDialog::cancel()
{
    ++m_generation;  // what is still running says nothing now
    if (m_job)
        m_job->cancel();  // kills its worker: the thread ends soon, holding what it uses
    m_job.reset();
    m_busy = false;
}

}  // namespace ps::ui
