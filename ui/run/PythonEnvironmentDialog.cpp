#include "ui/run/PythonEnvironmentDialog.h"

#include "install/TorchSeries.h"
#include "protocol/StartError.h"
#include "protocol/UserEnvironment.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include <optional>
#include <string>

namespace ps::ui {

PythonEnvironmentDialog::PythonEnvironmentDialog(
    const QString& current, const QString& folder, bool folderScope, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Python Environment"));
    const QString python = QString::fromStdString(protocol::UserEnvironment::workerPythonVersion());
    auto* intro = new QLabel(tr("Scripts run with the studio's own Python %1 and torch. Name your project's "
                                "environment (a venv folder made with python%1) to make its packages "
                                "importable: transformers, timm, your own code. A torch in it decides which of "
                                "the studio's workers runs (%2); it is never imported twice.")
                                 .arg(python, QString::fromStdString(install::TorchSeries::supportedWords())));
    intro->setWordWrap(true);

    m_path = new QLineEdit(current);
    m_path->setPlaceholderText(tr("none: the studio's packages only"));
    m_path->setClearButtonEnabled(true);
    auto* browse = new QPushButton(tr("&Browse…"));
    connect(browse, &QPushButton::clicked, this, [this]() {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose a Python Environment"), m_path->text());
        if (!dir.isEmpty())
            m_path->setText(dir);
    });
    auto* row = new QHBoxLayout;
    row->addWidget(m_path, 1);
    row->addWidget(browse);

    m_verdict = new QLabel;
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_folder = new QRadioButton(folder.isEmpty() ? tr("For scripts in this folder (save the script first)")
                                                 : tr("For scripts in %1").arg(folder));
    m_folder->setEnabled(!folder.isEmpty());
    m_default = new QRadioButton(tr("For every script without a folder choice (the default)"));
    (folderScope && !folder.isEmpty() ? m_folder : m_default)->setChecked(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_path, &QLineEdit::textChanged, this, [this, buttons]() {
        check();
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_refused);
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(row);
    layout->addWidget(m_verdict);
    layout->addWidget(m_folder);
    layout->addWidget(m_default);
    layout->addWidget(buttons);
    check();
    buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_refused);
    resize(620, sizeHint().height());
}

void PythonEnvironmentDialog::check()
{
    const QString text = m_path->text().trimmed();
    m_refused = false;
    if (text.isEmpty()) {
        m_verdict->setText(tr("No environment: scripts see the studio's packages only."));
        m_verdict->setStyleSheet(QString());
        return;
    }
    try {
        const auto env = protocol::UserEnvironment::resolve(text.toStdString());
        QStringList dirs;
        for (const auto& d : env.siteDirs)
            dirs << QString::fromStdString(d);
        // Its torch picks the worker (protocol::WorkerLocator): said here, before any run.
        std::optional<std::string> version;
        for (const auto& d : env.siteDirs)
            if (!version)
                version = install::TorchSeries::installedVersion(d);
        const auto series = version ? install::TorchSeries::of(*version) : std::nullopt;
        if (version && !version->empty() && !series) {
            m_refused = true;
            m_verdict->setText(tr("Its torch %1 is one the studio has no worker for: the studio runs %2. "
                                  "Install one of those in it, or choose another environment.")
                                   .arg(QString::fromStdString(*version),
                                       QString::fromStdString(install::TorchSeries::supportedWords())));
            m_verdict->setStyleSheet(QStringLiteral("color: #b3261e;"));
            return;
        }
        const QString torch = series ? tr("its torch %1 runs on the studio's torch %2 worker")
                                           .arg(QString::fromStdString(*version), QString::fromStdString(*series))
            : version ? tr("its torch's version cannot be read: it is checked when the worker starts")
                      : tr("it has no torch: scripts run on the studio's own");
        m_verdict->setText(tr("Usable: %1 goes on sys.path ahead of the studio's packages; %2.")
                               .arg(dirs.join(QStringLiteral(", ")), torch));
        m_verdict->setStyleSheet(QString());
    } catch (const protocol::StartError& e) {
        m_refused = true;
        m_verdict->setText(QString::fromStdString(e.what()));
        m_verdict->setStyleSheet(QStringLiteral("color: #b3261e;"));
    }
}

QString PythonEnvironmentDialog::environment() const
{
    return m_path->text().trimmed();
}

bool PythonEnvironmentDialog::forFolder() const
{
    return m_folder->isChecked();
}

QString PythonEnvironmentDialog::verdict() const
{
    return m_verdict->text();
}

}  // namespace ps::ui
