#pragma once

#include "library/core/LibraryRecords.h"

#include <string>

namespace ps::library {

class TrustStore;

/// Whether a stored run may execute here, for this user: python_code and the cache are code
/// (invariant 7), so a run is trusted only when it is one's own and was not imported untrusted,
/// or when this user trusted it in their own TrustStore. Someone else's run (another OS user, or
/// another database role: the team library's word since its schema v2) is untrusted for you
/// until you trust it, whatever the library's `trusted` column says.
class RunTrust {
public:
    enum class Verdict {
        Trusted,       ///< one's own run, or someone else's that this user trusted
        Imported,      ///< one's own import, not trusted yet (the library's column)
        SomeoneElses,  ///< stored by another user or role, not trusted by this user
    };

    static RunTrust of(const RunSummary& run, const Identity& me, const TrustStore& mine);

    Verdict verdict() const { return m_verdict; }
    bool trusted() const { return m_verdict == Verdict::Trusted; }
    /// Stored by someone other than this user and role.
    bool someoneElses() const { return m_someoneElses; }
    /// Who stored it, in words: "alice (database role alice_w)", "alice"; "" when not recorded.
    const std::string& owner() const { return m_owner; }
    /// Why it is not trusted, one line ("" when trusted).
    std::string why() const;

private:
    Verdict m_verdict = Verdict::Trusted;
    bool m_someoneElses = false;
    std::string m_owner;
};

}  // namespace ps::library
