#pragma once

#include <QLabel>

namespace ps::ui {

/// A one-line label for text of any length in a narrow place (a dock's last message): it shows
/// as much as fits, cut in the middle with "…" (a path keeps its start and its file name),
/// and the whole text in its tooltip. It never asks for more than one line of height, so the
/// list above it keeps its rows.
///
/// Thread contract: GUI thread only.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    QString fullText() const { return m_full; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QString m_full;
};

}  // namespace ps::ui
