#include "ui/graph/NodeItem.h"

#include "graph/GraphModel.h"
#include "ui/common/QtText.h"
#include "ui/graph/GraphDetailsFormatter.h"

#include <QPainter>

namespace ps::ui {

namespace {

QString badgeOf(const graph::GraphNode& n)
{
    if (n.violation > 0)
        return QStringLiteral("inv %1").arg(n.violation);
    if (n.kind == graph::NodeKind::Parameter)
        return QStringLiteral("param");
    if (n.kind == graph::NodeKind::Buffer || n.kind == graph::NodeKind::Input || n.kind == graph::NodeKind::Constant)
        return QString::fromUtf8(toString(n.kind));
    if (n.outputRole.empty())
        return {};
    // "gradient of model.0.weight, result" -> the first role's word.
    const bool grad = n.outputRole.rfind("gradient", 0) == 0;
    return grad ? QStringLiteral("→ grad") : QStringLiteral("→ result");
}

}  // namespace

NodeItem::NodeItem(int item, int node, const graph::GraphNode* data, const QRectF& rect, const Colors& colors)
    : GraphBoxItem(item, rect, colors), m_node(node), m_data(data), m_badge(badgeOf(*data))
{
    QString tip = QString::fromStdString(data->name + "\n" + data->target);
    if (!data->modulePath.empty())
        tip += QString::fromStdString("\n" + data->modulePath + " (" + data->moduleType + ")");
    if (!data->outputRole.empty())
        tip += QString::fromStdString("\noutput: " + data->outputRole);
    if (!data->kernel.empty())
        tip += QString::fromStdString("\nkernel: " + data->kernel);
    if (!data->binding.empty())
        tip += QString::fromStdString("\nPython: " + data->binding);
    if (data->violation > 0)
        tip += QStringLiteral("\nbreaks invariant %1 (%2)")
                   .arg(data->violation)
                   .arg(QString::fromStdString(data->violationRule));
    setToolTip(plainTip(tip));
}

bool NodeItem::dashed() const
{
    return m_data->phase == graph::Phase::Backward;
}

QString NodeItem::shortTitle() const
{
    return GraphDetailsFormatter::title(*m_data);
}

void NodeItem::paintLabels(QPainter* painter, const QRectF& inner)
{
    const auto& n = *m_data;
    QFont font = painter->font();
    const qreal half = inner.height() / 2;
    QRectF top(inner.left(), inner.top(), inner.width(), half);
    if (!m_badge.isEmpty()) {
        QFont small = font;
        small.setPointSizeF(std::max<qreal>(6, font.pointSizeF() * 0.8));
        painter->setFont(small);
        const QFontMetricsF sm(small);
        const qreal w = sm.horizontalAdvance(m_badge) + 8;
        const QRectF pill(top.right() - w, top.top() + 1, w, std::min(top.height() - 2, sm.height() + 2));
        // A node that breaks the contract carries its invariant in the violations' red.
        painter->setBrush(n.violation > 0 ? QColor(0xc6, 0x28, 0x28) : colors().border);
        painter->setPen(Qt::NoPen);
        painter->drawRoundedRect(pill, 4, 4);
        painter->setPen(n.violation > 0 ? QColor(Qt::white) : colors().fill);
        painter->drawText(pill, Qt::AlignCenter, m_badge);
        painter->setPen(colors().text);
        top.setRight(pill.left() - 4);
    }
    font.setBold(true);
    painter->setFont(font);
    const QFontMetricsF fm(font);
    const QString title = GraphDetailsFormatter::title(n);
    painter->drawText(top, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(title, Qt::ElideMiddle, top.width()));
    font.setBold(false);
    painter->setFont(font);
    const QFontMetricsF fm2(font);
    QString sub = n.kind == graph::NodeKind::Compute ? QString::fromStdString(n.shortTarget())
                                                     : QString::fromUtf8(toString(n.kind));
    if (!n.shape.empty())
        sub += "  " + QString::fromStdString(n.shape);
    painter->drawText(QRectF(inner.left(), inner.top() + half, inner.width(), half), Qt::AlignLeft | Qt::AlignVCenter,
        fm2.elidedText(sub, Qt::ElideRight, inner.width()));
}

}  // namespace ps::ui
