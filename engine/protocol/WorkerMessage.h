#pragma once

#include "model/Report.h"
#include "model/Stage.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <variant>

namespace ps::protocol {

/// One message from the worker to the front end (Protocol.h), checked at the edge: parse()
/// turns a JSON object into exactly one of these or throws ProtocolError saying what is wrong.
struct HelloMessage {
    std::string python;
    std::string torch;
    std::string libtorch;
    int pid = 0;
    nlohmann::json json;  ///< the whole message, for the window's About box
};

struct StageMessage {
    model::Stage stage = model::Stage::Script;  ///< Script, Capture, Lower or Verify
    std::string capture;                        ///< the capture's name, "" for the script stage
    /// Within the stage, what is being done now ("inductor lowering: code_gen"): the same stage
    /// goes on; "" for the stage's start.
    std::string detail;
};

struct ResultMessage {
    model::Report report;
};

/// The host itself failed (not the script).
struct FatalMessage {
    std::string message;
    std::string traceback;
    bool environment = false;  ///< "cause": "environment": the user's environment cannot be used
};

class WorkerMessage {
public:
    using Body = std::variant<HelloMessage, StageMessage, ResultMessage, FatalMessage>;

    /// Throws ProtocolError for anything but a well-formed message of a known type.
    static WorkerMessage parse(const nlohmann::json& j);

    const Body& body() const { return m_body; }
    template <class T> const T* get() const { return std::get_if<T>(&m_body); }
    /// "hello", "stage", "result" or "fatal".
    const char* type() const;

private:
    explicit WorkerMessage(Body body) : m_body(std::move(body)) { }
    Body m_body;
};

}  // namespace ps::protocol
