#pragma once

#include <vector>

namespace ps::graph {
class GraphModel;
class VisibleGraph;
struct LayoutResult;
}  // namespace ps::graph

namespace ps::ui {

/// Moving the selection from box to box with the arrow keys, over the visible graph and its
/// layout: Up to an input, Down to a user, Left and Right to the nearest box of the same layer.
/// Up goes to the first input; Down then goes back the way it came, and Up from there goes on
/// to the next input, so that Up, Down, Up, ... visits every input in turn (Down, Up, ...
/// likewise every user). Plain C++; reset it whenever the visible graph or layout changes, and
/// forget() when the selection moves another way. GUI thread.
class GraphNavigator {
public:
    enum class Step { Input, User, Previous, Next };

    /// What to walk (null: nothing); the objects must outlive the next reset().
    void reset(const graph::GraphModel* graph, const graph::VisibleGraph* visible, const graph::LayoutResult* layout);
    void forget() { m_last = {}; }
    /// The item to select after `step` from item `from`, or -1 when there is none.
    int step(int from, Step step);

    /// The boxes item `item` reads, or is read by, in the order of the graph's inputs and users.
    std::vector<int> inputsOf(int item) const;
    std::vector<int> usersOf(int item) const;

private:
    int sibling(int from, bool next) const;

    /// The last step to an input or a user.
    struct Walk {
        int from = -1;
        int to = -1;
        Step step = Step::Input;
        int index = 0;  ///< the position of `to` in `from`'s inputs (users)
    };

    const graph::GraphModel* m_graph = nullptr;
    const graph::VisibleGraph* m_visible = nullptr;
    const graph::LayoutResult* m_layout = nullptr;
    Walk m_last;
};

}  // namespace ps::ui
