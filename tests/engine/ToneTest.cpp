// model::Tone: the one rule the window's colours and the page's badges follow.
#include "model/Tone.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace ps::model;

TEST(Tone, EachOutcomeReadsAsItMeans)
{
    EXPECT_EQ(toneOf(RunStatus::Ok), Tone::Good);
    EXPECT_EQ(toneOf(RunStatus::Mismatch), Tone::Warn);
    EXPECT_EQ(toneOf(RunStatus::Violation), Tone::Serious);
    EXPECT_EQ(toneOf(RunStatus::WorkerDied), Tone::Bad);
    EXPECT_EQ(toneOf(RunStatus::Cancelled), Tone::Muted);
    // an ok run with finer words: drift and not stored are never shown as fine
    EXPECT_EQ(toneOf(RunVerdict::NumericsDrift), Tone::Warn);
    EXPECT_EQ(toneOf(RunVerdict::NotStored), Tone::Warn);
    EXPECT_EQ(toneOf(Judgement::Wrong), Tone::Bad);
    EXPECT_EQ(toneOf(Verification::Trial::Status::Accepted), Tone::Bad);
    // a verdict has the tone of the status it comes from
    for (auto s : {RunStatus::Ok, RunStatus::Mismatch, RunStatus::Violation, RunStatus::Error, RunStatus::Timeout,
             RunStatus::WorkerDied, RunStatus::Cancelled, RunStatus::ProtocolError, RunStatus::ConnectionLost})
        EXPECT_EQ(toneOf(verdictOf(s)), toneOf(s)) << s;
}

TEST(Tone, TheTableHasEveryWordOnceAndNoWordWithTwoTones)
{
    std::map<std::string, Tone> seen;
    const auto check = [&](std::string_view word, Tone tone) {
        const auto [it, fresh] = seen.emplace(std::string(word), tone);
        EXPECT_EQ(it->second, tone) << "'" << word << "' reads " << toString(it->second) << " in one outcome and "
                                    << toString(tone) << " in another: the page cannot tell them apart";
    };
    for (auto s : {CaptureStatus::Ok, CaptureStatus::Mismatch, CaptureStatus::Violation, CaptureStatus::Error})
        check(toString(s), toneOf(s));
    for (auto j : {Judgement::Matches, Judgement::Drift, Judgement::Wrong, Judgement::None})
        check(toString(j), toneOf(j));
    using V = Verification::Status;
    for (auto s : {V::Ok, V::Mismatch, V::Violation, V::Error, V::Skipped, V::Drift})
        check(toString(s), toneOf(s));
    using T = Verification::Trial::Status;
    for (auto s : {T::Ok, T::Drift, T::Diverged, T::Accepted, T::Skipped})
        check(toString(s), toneOf(s));
    for (auto s : {RunStatus::Ok, RunStatus::Mismatch, RunStatus::Violation, RunStatus::Error, RunStatus::Timeout,
             RunStatus::WorkerDied, RunStatus::Cancelled, RunStatus::ProtocolError, RunStatus::ConnectionLost})
        check(toString(s), toneOf(s));
    std::map<std::string, Tone> table;
    for (const auto& [word, tone] : toneTable())
        EXPECT_TRUE(table.emplace(std::string(word), tone).second) << "'" << word << "' is listed twice";
    for (const auto& [word, tone] : seen) {
        ASSERT_TRUE(table.count(word)) << "'" << word << "' is missing from the page's table";
        EXPECT_EQ(table[word], tone) << word;
    }
    EXPECT_EQ(table.at("numerics drift"), Tone::Warn);
    EXPECT_EQ(table.at("not stored"), Tone::Warn);
}
