#pragma once

#include "ui/graph/GraphBoxItem.h"

#include <QString>

namespace ps::ui {

/// A collapsed module drawn as one box (a small stack of cards): its name, type and how many
/// nodes it holds. A double click on it expands it (GraphView handles that). The path says
/// what kind of module it is (graph::ModuleTree::describe): a training step's backward copy of
/// a module reads "0 (backward) · Linear", its phase groups "forward" and "backward", its
/// gradient bundle "gradients (62)".
class ModuleItem : public GraphBoxItem {
public:
    enum { Type = UserType + 2 };

    ModuleItem(int item, int module, const QString& path, const QString& type, int nodes, const QRectF& rect,
        const Colors& colors);

    int module() const { return m_module; }
    const QString& path() const { return m_path; }
    /// The first line of the label: "0 · Linear", "0 (backward) · Linear", "gradients (62)".
    const QString& title() const { return m_title; }

    int type() const override { return Type; }

protected:
    void paintLabels(QPainter* painter, const QRectF& inner) override;
    QString shortTitle() const override;
    void paintFrame(QPainter* painter, const QPen& pen) override;

private:
    int m_module;
    QString m_path;
    QString m_title;
    QString m_where;  ///< the second line's text after the count: the model path, or ""
    int m_nodes;
};

}  // namespace ps::ui
