#include "commands/RunCommand.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

using ps::commands::RunCommand;
using ps::commands::RunCommandOptions;

TEST(RunCommand, TheWorstExitCodeRanksCouldNotRunThenProblemThenNotStored)
{
    // best to worst: 0 ok, 3 not stored, 1 a problem found, 2 could not run
    const int order[] = {0, 3, 1, 2};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            EXPECT_EQ(RunCommand::worstExitCode(order[i], order[j]), order[std::max(i, j)])
                << order[i] << " and " << order[j];
        }
    // a code of no meaning ranks as could not run, and is said as 2
    EXPECT_EQ(RunCommand::worstExitCode(0, 7), 2);
    EXPECT_EQ(RunCommand::worstExitCode(-1, 1), 2);
}

TEST(RunCommand, SeveralScriptsFoldToTheWorst)
{
    int code = 0;
    for (int c : {0, 3, 0, 1, 3, 0})
        code = RunCommand::worstExitCode(code, c);
    EXPECT_EQ(code, 1);
}

TEST(RunCommand, TraceWithSeveralScriptsIsAUsageErrorAndRunsNothing)
{
    RunCommandOptions options;
    options.scripts = {"/no/such/a.py", "/no/such/b.py"};
    options.traceFile = "/tmp/never-written-trace.json";
    options.store = false;
    EXPECT_EQ(RunCommand::usageProblem(options),
        "--trace writes one file for one run: give it with one script (2 were given)");
    std::ostringstream out, err;
    EXPECT_EQ(RunCommand::execute(options, out, err), 2);
    EXPECT_EQ(out.str(), "");
    EXPECT_EQ(err.str(),
        "precompile-studio run: --trace writes one file for one run: give it with one script (2 were "
        "given)\n");

    options.scripts = {"/no/such/a.py"};
    EXPECT_EQ(RunCommand::usageProblem(options), "");
    options.scripts.clear();
    EXPECT_EQ(RunCommand::usageProblem(options), "no script was given");
}
