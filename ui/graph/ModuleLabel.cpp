#include "ui/graph/ModuleLabel.h"

#include <QObject>
#include <QStringList>

#include <algorithm>

namespace ps::ui {

namespace {

bool isNumber(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

QString ModuleLabel::title(
    graph::Module::Role role, graph::Phase phase, const QString& name, const QString& type, int nodes)
{
    using Role = graph::Module::Role;
    switch (role) {
    case Role::PhaseGroup:
        return name;
    case Role::Gradients:
        return QStringLiteral("%1 (%2)").arg(name).arg(nodes);
    case Role::Outside:
        return phase == graph::Phase::Backward ? QObject::tr("%1 (backward, %2)").arg(name).arg(nodes)
                                               : QStringLiteral("%1 (%2)").arg(name).arg(nodes);
    case Role::Model:
        break;
    }
    QString out = phase == graph::Phase::Backward ? QObject::tr("%1 (backward)").arg(name) : name;
    if (!type.isEmpty())
        out += QStringLiteral(" · ") + type;
    return out;
}

QString ModuleLabel::title(const graph::ModuleTree& tree, int m)
{
    const auto& mod = tree.module(m);
    std::string name = mod.name;
    auto model = [&](int id) { return id > 0 && tree.module(id).role == graph::Module::Role::Model; };
    if (mod.role == graph::Module::Role::Model && model(mod.parent)) {
        const auto& parent = tree.module(mod.parent);
        if (isNumber(name))
            name = parent.name + "." + name;
        else if (isNumber(parent.name) && model(parent.parent))
            name = tree.module(parent.parent).name + "." + parent.name + "." + name;
    }
    return title(mod.role, mod.phase, QString::fromStdString(name), QString::fromStdString(mod.type), mod.total);
}

QString ModuleLabel::title(const QString& path, const QString& type, int nodes)
{
    const auto info = graph::ModuleTree::describe(path.toStdString());
    std::string name = info.name;
    if (info.role == graph::Module::Role::Model) {
        // The same rule as the tree's: a numbered module with its parent, a module of a numbered
        // one with its parent's parent too (the model path's components stand for the modules).
        const QStringList parts = QString::fromStdString(info.modelPath).split('.');
        const int n = static_cast<int>(parts.size());
        if (n >= 2 && isNumber(name))
            name = parts[n - 2].toStdString() + "." + name;
        else if (n >= 3 && isNumber(parts[n - 2].toStdString()))
            name = parts[n - 3].toStdString() + "." + parts[n - 2].toStdString() + "." + name;
    }
    return title(info.role, info.phase, QString::fromStdString(name), type, nodes);
}

}  // namespace ps::ui
