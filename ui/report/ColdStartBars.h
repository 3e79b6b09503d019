#pragma once

#include "model/ColdStart.h"

#include <QColor>
#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QSpacerItem;

namespace ps::ui {

/// The cold-start ledger of a capture (`run --cold-start`, Run > Measure Cold Start;
/// model::ColdStart): its line ("first call 4.8 s, against 20 s for torch.compile cold and
/// 6.3 s warm"), then one bar per step measured in a fresh process (eager, torch.compile cold and
/// warm, the pair with and without its cache), their lengths on one scale, each with its time and
/// the kernels it compiled; a step that failed says so in its row. Hidden for a capture whose
/// start-up was not measured.
class ColdStartBars : public QWidget {
    Q_OBJECT
public:
    struct Row {
        model::ColdStart::Step step = model::ColdStart::Step::Eager;
        QString label;
        std::optional<double> seconds;
        QString note;  ///< "2 kernels compiled", "failed: ...", ""
    };

    explicit ColdStartBars(QWidget* parent = nullptr);

    /// nullopt: hidden. A ledger that was not measured shows its reason only.
    void setLedger(const std::optional<model::ColdStart>& ledger);
    bool hasLedger() const { return m_ledger.has_value(); }
    QString titleText() const;
    const std::vector<Row>& rows() const { return m_rows; }
    /// The bar colour of a step: the precompiled pair's steps stand out, the others are grey.
    static QColor colour(model::ColdStart::Step step);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int barsTop() const;
    int labelWidth() const;

    QLabel* m_title;
    QSpacerItem* m_rowsRoom;  ///< under the title (which wraps): the rows' height, where they are painted
    std::optional<model::ColdStart> m_ledger;
    std::vector<Row> m_rows;
};

}  // namespace ps::ui
