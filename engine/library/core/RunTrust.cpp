#include "library/core/RunTrust.h"

#include "library/core/TrustStore.h"

namespace ps::library {

RunTrust RunTrust::of(const RunSummary& run, const Identity& me, const TrustStore& mine)
{
    RunTrust t;
    const Identity& by = run.storedBy;
    // Another OS user, or, in a team library, another database role (the server's word). A run
    // stored before either was recorded names no one, and stays its library's own; one's own run
    // copied back from a team library into a file keeps its role there, and stays one's own.
    t.m_someoneElses
        = (!by.user.empty() && by.user != me.user) || (!me.role.empty() && !by.role.empty() && by.role != me.role);
    if (!by.user.empty())
        t.m_owner = by.role.empty() ? by.user : by.user + " (database role " + by.role + ")";
    else if (!by.role.empty())
        t.m_owner = "database role " + by.role;
    if (t.m_someoneElses)
        t.m_verdict = mine.trusts(run) ? Verdict::Trusted : Verdict::SomeoneElses;
    else
        t.m_verdict = run.trusted ? Verdict::Trusted : Verdict::Imported;
    return t;
}

std::string RunTrust::why() const
{
    switch (m_verdict) {
    case Verdict::Trusted:
        return {};
    case Verdict::Imported:
        return "imported: its python_code and cache are executable, and nothing of it runs here until you trust "
               "where it came from";
    case Verdict::SomeoneElses:
        return "stored by " + (m_owner.empty() ? std::string("someone else") : m_owner)
            + ": its python_code and cache are executable, and nothing of it runs here until you trust it";
    }
    return {};
}

}  // namespace ps::library
