#include "compare/GraphDiff.h"
#include "CompareTestSupport.h"
#include "compare/TextDiff.h"

#include <gtest/gtest.h>

using ps::compare::GraphDiff;
using ps::compare::TextDiff;
using ps::comparetest::Layer;
using ps::comparetest::stack;

TEST(GraphDiff, TheSameGraphIsIdentical)
{
    const auto g = stack({{8}, {8}, {2}});
    const GraphDiff d = GraphDiff::compare(g, g);
    EXPECT_TRUE(d.identical());
    EXPECT_EQ(d.matched().size(), g["node_list"].size());
}

TEST(GraphDiff, AnInsertedLayerIsOneAddedBlockAndTheLaterModulesAreRenamedNotChanged)
{
    const auto a = stack({{8}, {8}, {2}});
    const auto b = stack({{8}, {8}, {8}, {2}});  // one more 8-wide layer
    const GraphDiff d = GraphDiff::compare(a, b);
    EXPECT_FALSE(d.identical());
    EXPECT_TRUE(d.removed().empty());
    // the new layer: its weight and bias placeholders, and t, addmm, relu
    EXPECT_EQ(d.added().size(), 5u);
    // the inserted layer reads as one block, its parameters with its ops
    ASSERT_EQ(d.blocks().size(), 1u);
    EXPECT_TRUE(d.blocks().front().added);
    EXPECT_EQ(d.blocks().front().count, 5);
    // the shifted modules are renames, not changes; only the layer after the new one changed:
    // it reads the new layer's output
    ASSERT_EQ(d.changed().size(), 1u);
    ASSERT_EQ(d.changed()[0].fields.size(), 1u);
    EXPECT_EQ(d.changed()[0].fields[0].field, "inputs");
    EXPECT_EQ(d.renames().at("model.4"), "model.6");
    EXPECT_EQ(d.renames().at("model.5"), "model.7");
}

TEST(GraphDiff, ALayerInsertedAmongIdenticalOnesIsTheOneAdded)
{
    // Six identical 8-wide layers, and the same with a 16-wide one after the third: the layers
    // after it keep twins of their paths on the other side (model.10 is an 8-wide layer on both),
    // but the one added is the 16-wide one, not the last. (Parameters as the worker writes them.)
    const auto a = stack({{8}, {8}, {8}, {8}, {8}, {8}, {2}}, 3, 4, true);
    const auto b = stack({{8}, {8}, {8}, {16}, {8}, {8}, {8}, {2}}, 3, 4, true);
    const GraphDiff d = GraphDiff::compare(a, b);
    EXPECT_TRUE(d.removed().empty());
    ASSERT_EQ(d.blocks().size(), 1u);
    EXPECT_EQ(d.blocks().front().module, "model.6, model.7");  // the 16-wide Linear and its ReLU
    EXPECT_EQ(d.renames().at("model.6"), "model.8");
    // The next layer reads 16 features: its weight and its input changed, nothing else.
    EXPECT_LE(d.changed().size(), 3u);
}

TEST(GraphDiff, ParametersPairWithTheModulesOwningThem)
{
    // As the worker writes them (no module, a qualified name): a stack with a third 8-wide layer
    // inserted. Every parameter comes before the input (make_fx's order), far from its layer's
    // ops; each must still pair with its own module's counterpart.
    const auto a = stack({{8}, {8}, {2}}, 3, 4, true);
    const auto b = stack({{8}, {8}, {8}, {2}}, 3, 4, true);
    const GraphDiff d = GraphDiff::compare(a, b);
    EXPECT_TRUE(d.removed().empty());
    EXPECT_EQ(d.added().size(), 5u);    // the new layer's weight, bias, t, addmm, relu
    EXPECT_EQ(d.changed().size(), 1u);  // the next layer reads the new one
    ASSERT_EQ(d.renames().count("model.4"), 1u);
    const std::string renamed = d.renames().at("model.4");
    auto qualname = [](const nlohmann::json& g, const std::string& name) {
        for (const auto& n : g["node_list"])
            if (n["name"] == name)
                return n.value("qualname", std::string());
        return std::string();
    };
    int params = 0;
    for (const auto& [na, nb] : d.nameMap()) {
        const std::string qa = qualname(a, na);
        if (qa.empty())
            continue;
        ++params;
        const std::string expected = qa.rfind("model.4.", 0) == 0 ? renamed + qa.substr(7) : qa;
        EXPECT_EQ(qualname(b, nb), expected) << na << " -> " << nb;
    }
    EXPECT_EQ(params, 6);
    // One block: the new weight and bias with the layer's ops, which span its Linear and its ReLU.
    ASSERT_EQ(d.blocks().size(), 1u);
    EXPECT_EQ(d.blocks().front().count, 5);
    EXPECT_EQ(d.blocks().front().module, "model.4, model.5");
    EXPECT_EQ(d.blocks().front().moduleType, "Linear, ReLU");
    EXPECT_EQ(d.blocks().front().ops, "addmm, relu, t; parameter x2");
}

TEST(GraphDiff, AChangedInputShapeShowsOnTheNodesItReaches)
{
    const auto a = stack({{8}, {2}}, 3);
    const auto b = stack({{8}, {2}}, 5);
    const GraphDiff d = GraphDiff::compare(a, b);
    EXPECT_TRUE(d.added().empty());
    EXPECT_TRUE(d.removed().empty());
    ASSERT_FALSE(d.changed().empty());
    bool sawShape = false;
    for (const auto& c : d.changed())
        for (const auto& f : c.fields)
            if (f.field == "shape" && f.before == "[3,4]" && f.after == "[5,4]")
                sawShape = true;
    EXPECT_TRUE(sawShape);
}

TEST(GraphDiff, LinesThatMovedBecauseTheScriptGrewAboveThemAreNotChanges)
{
    const std::string scriptA = "import torch\ndef fn(m, x):\n    return m(x)\n";
    const std::string scriptB = "import torch\n# a comment\n# another\ndef fn(m, x):\n    return m(x)\n";
    const TextDiff map = TextDiff::compare(scriptA, scriptB);
    const ps::compare::ScriptLines lines{&map, "/s.py", "/s.py"};
    const GraphDiff moved = GraphDiff::compare(stack({{8, 3}}), stack({{8, 5}}), &lines);
    EXPECT_TRUE(moved.identical());
    const GraphDiff notMapped = GraphDiff::compare(stack({{8, 3}}), stack({{8, 4}}), &lines);
    ASSERT_FALSE(notMapped.changed().empty());
    EXPECT_EQ(notMapped.changed()[0].fields[0].field, "source");
}

TEST(GraphDiff, LinesOfAFileTheScriptImportsAreReadAsTheyAreNotThroughTheScriptsDiff)
{
    // The model lives in an imported file whose line 60 is past the end of the short script: the
    // same graph is identical, not 'line 60 (edited)' on every node.
    const std::string script = "import torch\nfrom gpt import model\ndef fn(x):\n    return model(x)\n";
    const TextDiff map = TextDiff::compare(script, script);
    const ps::compare::ScriptLines lines{&map, "/work/run.py", "/work/run.py"};
    const auto g = stack({{8, 60}, {8, 61}});  // stack's nodes say they come from /s.py
    EXPECT_TRUE(GraphDiff::compare(g, g, &lines).identical());
    // A line of that file that did move is a change, named by the file's name and line.
    const GraphDiff moved = GraphDiff::compare(stack({{8, 60}}), stack({{8, 62}}), &lines);
    ASSERT_FALSE(moved.changed().empty());
    const auto& f = moved.changed()[0].fields[0];
    EXPECT_EQ(f.field, "source");
    EXPECT_EQ(f.before, "s.py:60");
    EXPECT_EQ(f.after, "s.py:62");
}

TEST(GraphDiff, NodeNamesAreMatchedAcrossForTheKernels)
{
    auto a = stack({{8}, {2}});
    auto b = a;
    // b's generated names all shifted
    for (auto& node : b["node_list"]) {
        node["name"] = "x_" + node["name"].get<std::string>();
        for (auto& input : node["inputs"])
            input = "x_" + input.get<std::string>();
    }
    const GraphDiff d = GraphDiff::compare(a, b);
    EXPECT_TRUE(d.identical());
    EXPECT_EQ(d.nameMap().at("n1"), "x_n1");
}
