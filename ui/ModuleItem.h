#pragma once

#include "ui/GraphBoxItem.h"

#include <QString>

namespace ps::ui {

/// A collapsed module drawn as one box (a small stack of cards): its name, type and how many
/// nodes it holds. A double click on it expands it (GraphView handles that).
class ModuleItem : public GraphBoxItem {
public:
    enum { Type = UserType + 2 };

    ModuleItem(int item, int module, const QString& path, const QString& type, int nodes, const QRectF& rect,
        const Colors& colors);

    int module() const { return m_module; }
    const QString& path() const { return m_path; }

    int type() const override { return Type; }

protected:
    void paintLabels(QPainter* painter, const QRectF& inner) override;
    void paintFrame(QPainter* painter, const QPen& pen) override;

private:
    int m_module;
    QString m_path;
    QString m_type;
    int m_nodes;
};

}  // namespace ps::ui
