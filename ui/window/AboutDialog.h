#pragma once

#include <QDialog>

#include <nlohmann/json.hpp>

#include <optional>

class QLabel;

namespace ps::ui {

/// Help > About: the studio's version, Qt's, and Python's, torch's and LibTorch's as the
/// worker reported them in its hello (the window itself never loads Python or torch).
class AboutDialog : public QDialog {
    Q_OBJECT
public:
    AboutDialog(const std::optional<nlohmann::json>& hello, const QString& workerProblem, QWidget* parent = nullptr);

    QString text() const;

private:
    QLabel* m_text;
};

}  // namespace ps::ui
