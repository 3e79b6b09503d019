#include "ui/run/AddHostDialog.h"

#include "remote/SshDestination.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ps::ui {

AddHostDialog::AddHostDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Add Host"));
    m_host = new QLineEdit;
    m_host->setObjectName(QStringLiteral("hostDestination"));
    m_host->setPlaceholderText(tr("user@server, an alias from ~/.ssh/config, ssh://user@server:2222"));
    m_studio = new QLineEdit;
    m_studio->setPlaceholderText(tr("empty: precompile-studio on the host's PATH"));
    m_dir = new QLineEdit;
    m_dir->setPlaceholderText(tr("empty: a private temporary folder"));
    m_env = new QLineEdit;
    m_env->setPlaceholderText(tr("empty: the studio's packages only"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Host:"), m_host);
    form->addRow(tr("&Studio folder there:"), m_studio);
    form->addRow(tr("&Project folder there:"), m_dir);
    form->addRow(tr("Python &environment there:"), m_env);
    m_verdict = new QLabel;
    m_verdict->setWordWrap(true);
    auto* note = new QLabel(tr("The studio logs in as `ssh HOST` does, with your keys or agent and never a password; "
                               "the host needs a built studio (a checkout and `make`)."));
    note->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_verdict);
    layout->addWidget(note);
    layout->addWidget(m_buttons);
    connect(m_host, &QLineEdit::textChanged, this, &AddHostDialog::check);
    resize(560, sizeHint().height());
    check();
}

QString AddHostDialog::problem() const
{
    return QString::fromStdString(remote::SshDestination::problem(m_host->text().trimmed().toStdString()));
}

void AddHostDialog::check()
{
    const QString why = problem();
    m_verdict->setText(why.isEmpty() ? QString() : why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

remote::RemoteTarget AddHostDialog::target() const
{
    return {m_host->text().trimmed().toStdString(), m_studio->text().trimmed().toStdString(),
        m_dir->text().trimmed().toStdString(), m_env->text().trimmed().toStdString()};
}

void AddHostDialog::setTarget(const remote::RemoteTarget& target)
{
    m_host->setText(QString::fromStdString(target.host));
    m_studio->setText(QString::fromStdString(target.remoteStudio));
    m_dir->setText(QString::fromStdString(target.remoteDir));
    m_env->setText(QString::fromStdString(target.pythonEnv));
}

}  // namespace ps::ui
