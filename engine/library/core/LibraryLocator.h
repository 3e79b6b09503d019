#pragma once

#include <string>
#include <string_view>

namespace ps::library {

/// What `--library` and File > Open Library name: a file, or a PostgreSQL database given as a
/// libpq connection string (postgresql://user@host/db?..., host=... dbname=..., service=NAME).
class LibraryLocator {
public:
    /// The back end a location names. A new back end is a new kind here, a folder beside
    /// sqlite/ and postgres/, and a case in ArtifactLibrary's store factory.
    enum class Kind {
        File,      ///< a SQLite file (the default; any location that is not another kind)
        Postgres,  ///< a PostgreSQL database: reached over a connection, shared by a team
    };
    static Kind kindOf(std::string_view location);
    /// The location with any password replaced by "***": what messages, titles and settings show.
    static std::string redacted(const std::string& location);
    /// The location with any password left out: what the settings keep, so that reopening it
    /// takes the password from libpq's own sources (PGPASSWORD, ~/.pgpass, a service file)
    /// instead of a copy kept in clear.
    static std::string withoutPassword(const std::string& location);
    /// A team library in a few words for a title: "studio on db.lab", "studio" (on a local
    /// socket), "service lab"; a file's own name.
    static std::string shortName(const std::string& location);

private:
    static std::string withSecret(const std::string& location, bool strip);
};

}  // namespace ps::library
