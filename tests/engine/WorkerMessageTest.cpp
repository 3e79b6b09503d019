#include "protocol/WorkerMessage.h"
#include "protocol/ProtocolError.h"
#include "protocol/RunRequest.h"

#include <gtest/gtest.h>

using nlohmann::json;
using ps::protocol::ProtocolError;
using ps::protocol::WorkerMessage;

namespace {
json goodReport()
{
    return {{"schema", 1}, {"script", "/s.py"}, {"status", "mismatch"}, {"message", "m"},
        {"captures", {{{"name", "fn"}, {"status", "mismatch"}}}}};
}

std::string refusalMessage(const json& j)
{
    try {
        WorkerMessage::parse(j);
    } catch (const ProtocolError& e) {
        return e.what();
    }
    return "accepted";
}
}  // namespace

TEST(WorkerMessage, ParsesEachKnownType)
{
    const auto hello = WorkerMessage::parse(
        {{"type", "hello"}, {"python", "3.11.7"}, {"torch", "2.14.1"}, {"libtorch", "2.14.1"}, {"pid", 42}});
    ASSERT_NE(hello.get<ps::protocol::HelloMessage>(), nullptr);
    EXPECT_EQ(hello.get<ps::protocol::HelloMessage>()->pid, 42);

    const auto stage = WorkerMessage::parse({{"type", "stage"}, {"stage", "lower"}, {"capture", "mlp"}});
    ASSERT_NE(stage.get<ps::protocol::StageMessage>(), nullptr);
    EXPECT_EQ(stage.get<ps::protocol::StageMessage>()->capture, "mlp");
    EXPECT_EQ(stage.get<ps::protocol::StageMessage>()->detail, "");
    const auto detail = WorkerMessage::parse(
        {{"type", "stage"}, {"stage", "lower"}, {"capture", "mlp"}, {"detail", "inductor lowering: code_gen"}});
    EXPECT_EQ(detail.get<ps::protocol::StageMessage>()->detail, "inductor lowering: code_gen");

    const auto result = WorkerMessage::parse({{"type", "result"}, {"report", goodReport()}});
    ASSERT_NE(result.get<ps::protocol::ResultMessage>(), nullptr);
    EXPECT_EQ(result.get<ps::protocol::ResultMessage>()->report.status, ps::model::RunStatus::Mismatch);

    const auto fatal = WorkerMessage::parse({{"type", "fatal"}, {"message", "no torch"}});
    EXPECT_EQ(fatal.get<ps::protocol::FatalMessage>()->message, "no torch");
    EXPECT_STREQ(fatal.type(), "fatal");
}

TEST(WorkerMessage, RefusesWhatIsNotTheProtocolWithAReason)
{
    EXPECT_NE(refusalMessage(json::array({1, 2})).find("not a JSON object"), std::string::npos);
    EXPECT_NE(refusalMessage({{"type", nullptr}}).find("'type'"), std::string::npos);
    EXPECT_NE(refusalMessage({{"type", 3}}).find("'type'"), std::string::npos);
    EXPECT_NE(refusalMessage({{"type", "gossip"}}).find("unknown type 'gossip'"), std::string::npos);
    EXPECT_NE(refusalMessage({{"type", "stage"}, {"stage", 5}}).find("'stage'"), std::string::npos);
    EXPECT_NE(refusalMessage({{"type", "stage"}, {"stage", "dance"}}).find("unknown stage"), std::string::npos);
    EXPECT_NE(refusalMessage({{"type", "result"}}).find("no report"), std::string::npos);
    EXPECT_NE(refusalMessage({{"type", "result"}, {"report", 17}}).find("no report"), std::string::npos);
    auto badStatus = goodReport();
    badStatus["status"] = "okay";
    EXPECT_NE(refusalMessage({{"type", "result"}, {"report", badStatus}}).find("status"), std::string::npos);
    auto badCapture = goodReport();
    badCapture["captures"][0]["status"] = "fine";
    EXPECT_NE(refusalMessage({{"type", "result"}, {"report", badCapture}}).find("capture"), std::string::npos);
    EXPECT_NE(refusalMessage({{"type", "hello"}, {"python", "3"}, {"torch", "2"}}).find("'pid'"), std::string::npos);
    EXPECT_NE(refusalMessage({{"type", "fatal"}}).find("'message'"), std::string::npos);
}

TEST(RunRequest, CarriesLibraryReprosAskToTheWorker)
{
    ps::protocol::RunRequest r;
    r.script = "/s.py";
    r.repro = ps::protocol::ReproRequest{"/out", std::string("mm"), std::nullopt, 30};
    const auto back = ps::protocol::RunRequest::parse(r.toJson());
    ASSERT_TRUE(back.repro.has_value());
    EXPECT_EQ(back.repro->dir, "/out");
    EXPECT_EQ(back.repro->node, std::optional<std::string>("mm"));
    EXPECT_FALSE(back.repro->capture.has_value());
    EXPECT_DOUBLE_EQ(back.repro->budgetSeconds, 30);
    EXPECT_FALSE(ps::protocol::RunRequest::parse({{"type", "run"}, {"script", "/s.py"}}).repro.has_value());
    const auto bad = [](json repro) { return json{{"type", "run"}, {"script", "/s.py"}, {"repro", std::move(repro)}}; };
    EXPECT_THROW(ps::protocol::RunRequest::parse(bad(json::array())), ProtocolError);
    EXPECT_THROW(ps::protocol::RunRequest::parse(bad({{"node", "mm"}})), ProtocolError);  // no dir
    EXPECT_THROW(ps::protocol::RunRequest::parse(bad({{"dir", "/o"}, {"node", 3}})), ProtocolError);
    EXPECT_THROW(ps::protocol::RunRequest::parse(bad({{"dir", "/o"}, {"budget", 0}})), ProtocolError);
    EXPECT_THROW(ps::protocol::RunRequest::parse(bad({{"dir", "/o"}, {"budget", 1e300}})), ProtocolError);
}

TEST(RunRequest, RoundTripsAndRefusesMalformedRequests)
{
    ps::protocol::RunRequest r;
    r.script = "/s.py";
    r.backend = "eager";
    r.verify = false;
    r.outDir = "/tmp/x";
    r.timeoutSeconds = 42.5;
    const auto back = ps::protocol::RunRequest::parse(r.toJson());
    EXPECT_EQ(back.script, "/s.py");
    EXPECT_EQ(back.backend, std::optional<std::string>("eager"));
    EXPECT_FALSE(back.tracer.has_value());
    EXPECT_FALSE(back.verify);
    EXPECT_EQ(back.outDir, "/tmp/x");
    EXPECT_DOUBLE_EQ(back.timeoutSeconds, 42.5);

    EXPECT_THROW(ps::protocol::RunRequest::parse(json::array()), ProtocolError);
    EXPECT_THROW(ps::protocol::RunRequest::parse({{"type", "run"}}), ProtocolError);
    EXPECT_THROW(ps::protocol::RunRequest::parse({{"type", "run"}, {"script", 1}}), ProtocolError);
    EXPECT_THROW(
        ps::protocol::RunRequest::parse({{"type", "run"}, {"script", "/s.py"}, {"timeout_s", 1e300}}), ProtocolError);
    EXPECT_THROW(
        ps::protocol::RunRequest::parse({{"type", "run"}, {"script", "/s.py"}, {"timeout_s", -1}}), ProtocolError);
    EXPECT_THROW(
        ps::protocol::RunRequest::parse({{"type", "run"}, {"script", "/s.py"}, {"verify", "yes"}}), ProtocolError);
    EXPECT_THROW(
        ps::protocol::RunRequest::parse({{"type", "run"}, {"script", "/s.py"}, {"backend", 2}}), ProtocolError);
}

TEST(RunRequest, DeepVerifyIsAnOptionalBoolThatDefaultsToFalse)
{
    using ps::protocol::RunRequest;
    EXPECT_FALSE(RunRequest::parse({{"type", "run"}, {"script", "/s.py"}}).deepVerify);
    EXPECT_TRUE(RunRequest::parse({{"type", "run"}, {"script", "/s.py"}, {"deep_verify", true}}).deepVerify);
    RunRequest r;
    r.script = "/s.py";
    r.deepVerify = true;
    EXPECT_EQ(r.toJson()["deep_verify"], true);
    EXPECT_TRUE(RunRequest::parse(r.toJson()).deepVerify);
    EXPECT_THROW(RunRequest::parse({{"type", "run"}, {"script", "/s.py"}, {"deep_verify", "yes"}}), ProtocolError);
    EXPECT_THROW(RunRequest::parse({{"type", "run"}, {"script", "/s.py"}, {"deep_verify", nullptr}}), ProtocolError);
}

TEST(RunRequest, ProfileIsAnOptionalBoolThatDefaultsToFalse)
{
    using ps::protocol::RunRequest;
    EXPECT_FALSE(RunRequest::parse({{"type", "run"}, {"script", "/s.py"}}).profile);
    ps::protocol::RunOptions options;
    options.script = "/s.py";
    options.profile = true;
    const auto r = RunRequest::from(options);
    EXPECT_EQ(r.toJson()["profile"], true);
    EXPECT_TRUE(RunRequest::parse(r.toJson()).profile);
    EXPECT_THROW(RunRequest::parse({{"type", "run"}, {"script", "/s.py"}, {"profile", 1}}), ProtocolError);
}
