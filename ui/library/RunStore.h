#pragma once

#include <QString>
#include <QStringList>

#include "model/RunStatus.h"

#include <memory>
#include <optional>
#include <vector>

namespace ps::graph {
class LayoutCache;
}
namespace ps::compare {
struct RunSide;
}

namespace ps::ui {

struct RunDocument;

/// The latest load check of a run's pair at one target, as the library keeps it (`library
/// check`, Check On…).
struct StoredCheck {
    QString target;     ///< an environment's path, a host's name
    QString outcome;    ///< loads, fallback, refused, error (model::CheckOutcome's word)
    bool runs = false;  ///< it ran there and gave eager's numbers
    std::optional<qint64> firstCallMs;
    QString torch;  ///< torch there; empty unknown
    QString reason;
    QString checkedAt;  ///< ISO 8601, UTC
    QString checkedBy;  ///< the OS user (and role) who checked
};

/// One run as the library lists it.
struct StoredRun {
    qint64 id = 0;
    QString createdAt;  ///< ISO 8601, UTC
    QString name;
    QString scriptPath;
    std::optional<model::RunStatus> status;  ///< nullopt: stored without one ("unknown")
    QString message;
    bool imported = false;     ///< imported from exported files rather than stored by a run
    bool trusted = true;       ///< may execute here, for this user (library::RunTrust)
    QString untrustedBecause;  ///< why not, one line; empty when trusted
    QStringList backends;
    QString ranOn;                    ///< "gpu-box · 1x NVIDIA H200"; empty when not recorded
    QString storedBy;                 ///< the OS user who stored it; empty when not recorded
    QString storedRole;               ///< the database role it was stored under; empty in a file library
    bool byOthers = false;            ///< stored by someone other than this user (and role)
    std::vector<StoredCheck> checks;  ///< the latest check at each target, by target
};

/// What a push of the runs kept for a team library did (RunStore::pushKeptRuns).
struct PushOutcome {
    bool complete = false;  ///< every waiting run is in its team library now
    int waiting = 0;        ///< runs that were waiting
    int pushed = 0;
    QString summary;  ///< one line: what was pushed, or why not
};

/// What the library's list does not carry: read for one run on demand (the details line).
struct StoredRunDetails {
    qint64 bytes = 0;  ///< python_code and cache of every capture, as stored (uncompressed)
    int captures = 0;
    QString scriptText;  ///< the script as it was run
};

/// The window's side of the artifact library (engine/library): its results in Qt terms, its
/// errors as messages that name the file, never an exception. The only ui file that sees the
/// library's headers is RunStore.cpp; a build without ps_library gets a store that says so.
///
/// Thread contract: one RunStore per thread (it owns one SQLite connection); any number of
/// stores, in any processes, may use one file at once.
class RunStore {
public:
    /// $XDG_DATA_HOME/precompile-studio/library.sqlite3 (see engine/library).
    static QString defaultPath();
    /// Whether `location` names a team library (a PostgreSQL connection string), not a file.
    static bool isTeamLibrary(const QString& location);
    /// Sends the runs the local library at `localPath` keeps for unreachable team libraries
    /// (`library push`). Network work: call it off the GUI thread. Never throws.
    static PushOutcome pushKeptRuns(const QString& localPath);
    /// How many runs the local library at `localPath` keeps waiting for a push (0 when it
    /// cannot be read).
    static int keptRunCount(const QString& localPath);

    /// Opens (creating, migrating) the library; never throws: see isOpen() and error().
    explicit RunStore(const QString& path);
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    bool isOpen() const;
    /// Why the file cannot be used (it names the file), or "".
    QString error() const { return m_error; }
    QString path() const { return m_path; }
    /// The path, or the team library's connection string without its password: what is shown.
    QString displayPath() const;
    /// The location with its password left out: what the settings keep and a dialog offers
    /// again (libpq then takes the password from PGPASSWORD, ~/.pgpass or a service file).
    QString rememberedPath() const;
    /// For a title: the file's name, or the team library's database (and host).
    QString shortName() const;
    /// Why an open library can only be read (a read-only file or folder, a full disk), or "".
    QString readOnlyReason() const { return m_readOnlyReason; }

    /// Newest first. `search`: full text over names, script path and text, messages; `status`:
    /// exactly, or "" for all. Empty with `error` set when the query failed.
    std::vector<StoredRun> list(const QString& search, std::optional<model::RunStatus> status, QString* error) const;
    /// The newest stored run of the script at `scriptPath` (the same file, however the path is
    /// spelled), or 0 when there is none or the library cannot be read.
    qint64 lastRunOf(const QString& scriptPath) const;
    /// A whole run with its artifacts (a damaged blob is said per capture); null with `error`.
    std::shared_ptr<RunDocument> load(qint64 id, QString* error) const;
    /// Stores a finished run; returns its id, or -1 with `error`.
    qint64 insert(const RunDocument& run, QString* error);

    /// Sizes and the script's text of one run; false with `error`.
    bool details(qint64 id, StoredRunDetails* out, QString* error) const;
    /// A stored run as engine/compare sees it (`library diff` loads it the same way: report,
    /// script text, every capture's python_code checked against its hash); false with `error`.
    bool compareSide(qint64 id, compare::RunSide* out, QString* error) const;

    /// The library's own operations, as `precompile-studio library` runs them; each returns
    /// false (or empty, or -1) with a one-line `error` naming the cause, and changes nothing
    /// then. Writes NAME.py, NAME.cache and NAME.json per capture into `dir`; the files written.
    QStringList exportRun(qint64 id, const QString& dir, QString* error) const;
    /// NAME.py with NAME.cache and NAME.json beside it, as a new untrusted run; its id.
    qint64 importArtifact(const QString& pythonCodePath, QString* error);
    bool trust(qint64 id, QString* error);
    /// The run and its captures; their blobs stay until the library's gc.
    bool remove(qint64 id, QString* error);

    /// Reads an exported NAME.py with its NAME.cache and NAME.json beside it (not stored).
    static std::shared_ptr<RunDocument> readExport(const QString& pythonCodePath, QString* error);
    /// NAME.cache and NAME.json exist beside this NAME.py.
    static bool looksLikeExport(const QString& path);

    /// The graph view's layout cache kept in this store's library (null when it is not open).
    /// It opens the file on a connection of its own per call: layout threads may share it.
    std::shared_ptr<graph::LayoutCache> layoutCache() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    QString m_path;
    QString m_error;
    QString m_readOnlyReason;
};

}  // namespace ps::ui
