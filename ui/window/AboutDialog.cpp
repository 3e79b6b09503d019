#include "ui/window/AboutDialog.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

namespace ps::ui {

AboutDialog::AboutDialog(const std::optional<nlohmann::json>& hello, const QString& workerProblem, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("About Precompile Studio"));
    auto field = [&](const char* key) {
        if (!hello || !hello->is_object())
            return QString();
        auto it = hello->find(key);
        if (it == hello->end())
            return QString();
        return it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString::fromStdString(it->dump());
    };
    QString html = tr("<h2>Precompile Studio %1</h2>"
                      "<p>A workbench for <code>torch.compiler.precompile</code>: capture, lowering, "
                      "violations, cache and verification of every run, kept in a local library.</p>")
                       .arg(QCoreApplication::applicationVersion().toHtmlEscaped());
    html += "<table>";
    auto row = [&](const QString& k, const QString& v) {
        html += "<tr><td style='padding-right:12px'><b>" + k + "</b></td><td>" + v.toHtmlEscaped() + "</td></tr>";
    };
    row(tr("Qt"), QString::fromLatin1(qVersion()));
    if (hello) {
        row(tr("Python"), field("python"));
        row(tr("torch"), field("torch"));
        row(tr("LibTorch"), field("libtorch"));
        row(tr("Environment"), field("prefix"));
    } else {
        row(tr("Worker"),
            workerProblem.isEmpty() ? tr("not started yet: the versions show after the first run") : workerProblem);
    }
    html += "</table>";
    m_text = new QLabel(html);
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addWidget(buttons);
}

QString AboutDialog::text() const
{
    return m_text->text();
}

}  // namespace ps::ui
