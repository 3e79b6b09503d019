#pragma once

// What the Compare view's tests share: two runs made of stacked layers (engine/compare's test
// support), the view shown with them, and readings of its graph panes.
#include "../compare/CompareTestSupport.h"
#include "UiTestSupport.h"
#include "compare/GraphDiff.h"
#include "graph/GraphModel.h"
#include "ui/common/SideBySideDiffView.h"
#include "ui/compare/CompareCodePane.h"
#include "ui/compare/CompareGraphPane.h"
#include "ui/compare/CompareTablePane.h"
#include "ui/compare/CompareView.h"
#include "ui/compare/CompareViewportSync.h"
#include "ui/compare/DiffColours.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphToolBar.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/ModuleLabel.h"
#include "ui/library/LibraryActions.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/run/RunDocument.h"

#include <QAction>
#include <QCheckBox>
#include <QFile>
#include <QGraphicsScene>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QSplitter>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <gtest/gtest.h>

namespace ps::uitest::compareui {

using nlohmann::json;
using ps::compare::RunSide;
using ps::comparetest::Layer;
using ps::comparetest::stack;
using ps::ui::CompareView;

inline const std::string kScript = "import torch\n\ndef fn(model, x):\n    return model(x)\n";

/// python_code of a stack: a header section, then one line per layer (its width).
inline std::string codeOf(const std::vector<Layer>& layers, const std::string& backend)
{
    std::string code = "# generated\n# backend " + backend + "\n";
    for (const Layer& l : layers)
        code += "layer(" + std::to_string(l.width) + ")\n";
    return code;
}

inline RunSide side(const std::string& label, const std::vector<Layer>& layers, const std::string& backend = "eager")
{
    const int lines = 2 + static_cast<int>(layers.size());
    json capture
        = {{"name", "fn"}, {"backend", backend}, {"tracer", "make_fx"}, {"status", "ok"}, {"graph", stack(layers)},
            {"lowering",
                {{"sections",
                    {{{"kind", "header"}, {"title", "Header"}, {"start", 1}, {"end", 2}},
                        {{"kind", "graph_function"}, {"title", "Captured graph"}, {"start", 3}, {"end", lines}}}}}},
            {"inputs", {{"entries", {{{"path", "x"}, {"kind", "tensor"}, {"shape", {3, 4}}, {"dtype", "float32"}}}}}},
            {"decompositions", nullptr},
            {"cache", {{"format", "torch.compiler.precompile"}, {"backend", backend}, {"bytes", 100}}},
            {"verify", {{"status", "ok"}}}, {"timings_s", {{"load", 0.1}}}};
    json report = {{"schema", 1}, {"script", "/w/s.py"}, {"status", "ok"}, {"captures", {capture}},
        {"provenance", {{"script", "/w/s.py"}, {"torch", {{"version", "2.14.1"}}}, {"python", "3.12.3"}}}};
    return {label, report, kScript, {codeOf(layers, backend)}};
}

/// Both graphs of a Compare window opened (in the same state) and laid out.
inline bool graphsOpen(const CompareView& view)
{
    return waitFor(
        [&view]() {
            for (int k = 0; k < 2; ++k)
                if (!view.graphPane()->view(k)->moduleTree() || view.graphPane()->view(k)->layoutPending())
                    return false;
            return !view.graphPane()->opening();
        },
        20000);
}

/// A Compare window shown at the size it opens with (or `size`), its graphs laid out.
inline std::unique_ptr<CompareView> shown(RunSide a, RunSide b, QSize size = QSize(1400, 900))
{
    auto view = std::make_unique<CompareView>(std::move(a), std::move(b));
    view->setAttribute(Qt::WA_DeleteOnClose, false);  // the test owns it
    view->resize(size);
    view->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(view.get()));
    EXPECT_TRUE(graphsOpen(*view));
    return view;
}

/// Per module of `side`'s tree: expanded, and so are its parents (what the canvas shows open).
inline std::vector<bool> shownExpanded(ps::ui::GraphView* g)
{
    const auto* tree = g->moduleTree();
    std::vector<bool> out(tree->modules().size(), false);
    out[0] = true;
    for (int m = 1; m < static_cast<int>(tree->modules().size()); ++m) {  // a parent before its children
        const int parent = tree->module(m).parent;
        out[static_cast<std::size_t>(m)] = parent >= 0 && out[static_cast<std::size_t>(parent)]
            && g->isExpanded(QString::fromStdString(tree->module(m).path));
    }
    return out;
}

/// The modules open on one side and not on the other ("model.2 open on A, model.4 closed on B").
inline QStringList collapseMismatches(const ps::ui::CompareGraphPane& pane)
{
    QStringList out;
    std::vector<bool> open[2] = {shownExpanded(pane.view(0)), shownExpanded(pane.view(1))};
    const auto* a = pane.view(0)->moduleTree();
    const auto* b = pane.view(1)->moduleTree();
    for (int m = 1; m < static_cast<int>(a->modules().size()); ++m) {
        const std::string path = a->module(m).path;
        const int twin = b->find(ps::ui::CompareViewportSync::mapPath(pane.sync()->renames(0), path));
        if (twin < 0 || !open[0][static_cast<std::size_t>(a->module(m).parent)]
            || !open[1][static_cast<std::size_t>(b->module(twin).parent)])
            continue;  // only on A, or inside a module closed on either side
        if (open[0][static_cast<std::size_t>(m)] != open[1][static_cast<std::size_t>(twin)])
            out << QString("%1 %2 on A, %3 on B")
                       .arg(QString::fromStdString(path), open[0][static_cast<std::size_t>(m)] ? "open" : "closed",
                           open[1][static_cast<std::size_t>(twin)] ? "open" : "closed");
    }
    return out;
}

/// The collapsed-module boxes a view shows.
inline QList<ps::ui::ModuleItem*> moduleBoxes(ps::ui::GraphView* g)
{
    QList<ps::ui::ModuleItem*> out;
    for (QGraphicsItem* item : g->canvas()->scene()->items())
        if (item->type() == ps::ui::ModuleItem::Type)
            out << static_cast<ps::ui::ModuleItem*>(item);
    return out;
}

/// A stack of stages of numbered blocks, as resnet's layer1.0, layer1.1, layer2.0 ...: block b of
/// stage s is model.layer{s+1}.{b} (a BasicBlock) holding fc (Linear) and act (ReLU).
inline json staged(const std::vector<int>& blocksPerStage)
{
    std::vector<Layer> layers;
    std::vector<std::string> blockOf;
    json modules = json::array({{{"path", "model"}, {"type", "Net"}}});
    for (std::size_t s = 0; s < blocksPerStage.size(); ++s) {
        const std::string stage = "model.layer" + std::to_string(s + 1);
        modules.push_back({{"path", stage}, {"type", "Sequential"}});
        for (int b = 0; b < blocksPerStage[s]; ++b) {
            layers.push_back({8});
            blockOf.push_back(stage + "." + std::to_string(b));
            modules.push_back({{"path", blockOf.back()}, {"type", "BasicBlock"}});
        }
    }
    json graph = stack(layers);
    for (json& node : graph["node_list"]) {
        if (!node["module"].is_object())
            continue;
        const std::string path = node["module"]["path"];  // model.{2k} (Linear), model.{2k+1} (ReLU)
        const int i = std::stoi(path.substr(path.find('.') + 1));
        node["module"]["path"] = blockOf[static_cast<std::size_t>(i / 2)] + (i % 2 ? ".act" : ".fc");
    }
    graph["modules"] = modules;
    return graph;
}

inline RunSide stagedSide(const std::string& label, const std::vector<int>& blocksPerStage)
{
    int blocks = 0;
    for (int b : blocksPerStage)
        blocks += b;
    RunSide s = side(label, std::vector<Layer>(static_cast<std::size_t>(blocks), Layer{8}));
    s.report["captures"][0]["graph"] = staged(blocksPerStage);
    return s;
}

/// `side` with a calling-convention metadata section of `fields` NAME = value lines after its code.
inline RunSide withMetadata(RunSide s, int fields, const std::string& value)
{
    std::string& code = *s.pythonCode[0];
    const int start = static_cast<int>(std::count(code.begin(), code.end(), '\n')) + 1;
    for (int i = 0; i < fields; ++i)
        code += "FIELD_" + std::to_string(i) + " = " + value + "\n";
    s.report["captures"][0]["lowering"]["sections"].push_back({{"kind", "metadata"},
        {"title", "Calling-convention metadata"}, {"start", start}, {"end", start + fields - 1}});
    return s;
}

inline bool isDiffColour(const QColor& c)
{
    return c == ps::ui::DiffColours::added() || c == ps::ui::DiffColours::removed()
        || c == ps::ui::DiffColours::changed();
}

}  // namespace ps::uitest::compareui
