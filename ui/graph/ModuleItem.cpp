#include "ui/graph/ModuleItem.h"

#include "graph/ModuleTree.h"
#include "ui/common/Plural.h"
#include "ui/common/QtText.h"
#include "ui/graph/ModuleLabel.h"

#include <QPainter>

namespace ps::ui {

ModuleItem::ModuleItem(
    int item, int module, const QString& path, const QString& type, int nodes, const QRectF& rect, const Colors& colors)
    : GraphBoxItem(item, rect, colors), m_module(module), m_path(path), m_nodes(nodes)
{
    using Role = graph::Module::Role;
    const auto info = graph::ModuleTree::describe(path.toStdString());
    const QString modelPath = QString::fromStdString(info.modelPath);
    const bool backward = info.phase == graph::Phase::Backward;
    m_title = ModuleLabel::title(path, type, nodes);
    QString tip;
    switch (info.role) {
    case Role::PhaseGroup:
        tip = backward ? QObject::tr("The backward pass") : QObject::tr("The forward pass");
        break;
    case Role::Gradients:
        tip = QObject::tr("The gradient outputs and the views that only feed them");
        break;
    case Role::Outside:
        tip = backward ? QObject::tr("The backward nodes outside every module (the loss's backward)")
                       : QObject::tr("The forward nodes outside every module (the loss)");
        break;
    case Role::Model:
        m_where = modelPath;
        tip = (backward ? QObject::tr("backward of %1 (%2)") : QStringLiteral("%1 (%2)"))
                  .arg(modelPath, type.isEmpty() ? QObject::tr("module") : type);
        break;
    }
    setToolTip(plainTip(tip + QStringLiteral("\n") + counted(nodes, QObject::tr("node"), QObject::tr("nodes"))
        + QObject::tr(" — double-click, Enter or + to expand")));
}

void ModuleItem::paintFrame(QPainter* painter, const QPen& pen)
{
    // Two cards peeking out behind: "there is more in here".
    painter->setPen(QPen(pen.color(), 1.0));
    painter->setBrush(colors().fill.darker(112));
    painter->drawRoundedRect(rect().translated(6, 6), 6, 6);
    painter->drawRoundedRect(rect().translated(3, 3), 6, 6);
    GraphBoxItem::paintFrame(painter, pen);
}

QString ModuleItem::shortTitle() const
{
    return QStringLiteral("▸ ") + m_title;
}

void ModuleItem::paintLabels(QPainter* painter, const QRectF& inner)
{
    const qreal half = inner.height() / 2;
    QFont font = painter->font();
    font.setBold(true);
    painter->setFont(font);
    const QFontMetricsF fm(font);
    // Middle elision keeps both the name and the end ("(backward) · Linear" or the type).
    painter->drawText(QRectF(inner.left(), inner.top(), inner.width(), half), Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(QStringLiteral("▸ ") + m_title, Qt::ElideMiddle, inner.width()));
    font.setBold(false);
    painter->setFont(font);
    const QFontMetricsF fm2(font);
    // The count always shows; the path (its end is what tells boxes apart) fills what is left.
    const QString count = counted(m_nodes, QObject::tr("node"), QObject::tr("nodes"));
    const QString sep = QStringLiteral(" · ");
    const qreal room = inner.width() - fm2.horizontalAdvance(count + sep);
    QString text = count;
    if (!m_where.isEmpty() && room > fm2.horizontalAdvance(QStringLiteral("…") + m_where.section('.', -1)))
        text += sep + fm2.elidedText(m_where, Qt::ElideLeft, room);
    painter->drawText(QRectF(inner.left(), inner.top() + half, inner.width(), half), Qt::AlignLeft | Qt::AlignVCenter,
        fm2.elidedText(text, Qt::ElideRight, inner.width()));
}

}  // namespace ps::ui
