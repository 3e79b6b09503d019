// LibraryLocator: which back end a location names, and the location with its password masked in
// every form libpq accepts (what every message, title and setting shows).
#include "library/core/LibraryLocator.h"
#include "library/core/TerminalText.h"

#include <gtest/gtest.h>

namespace ps::library {
namespace {

using Kind = LibraryLocator::Kind;

TEST(LibraryLocator, KnowsATeamLibraryInEveryFormLibpqTakes)
{
    EXPECT_EQ(LibraryLocator::kindOf("postgresql://alice@db/lab"), Kind::Postgres);
    EXPECT_EQ(LibraryLocator::kindOf("postgres://db/lab"), Kind::Postgres);
    EXPECT_EQ(LibraryLocator::kindOf("host=db dbname=lab"), Kind::Postgres);
    EXPECT_EQ(LibraryLocator::kindOf("host = db dbname = lab"), Kind::Postgres);
    EXPECT_EQ(LibraryLocator::kindOf("service=lab"), Kind::Postgres);
    EXPECT_EQ(LibraryLocator::kindOf("password=x host=db"), Kind::Postgres);
    EXPECT_EQ(LibraryLocator::kindOf("library.sqlite3"), Kind::File);
    EXPECT_EQ(LibraryLocator::kindOf("/home/alice/host=1.sqlite3"), Kind::File);
    EXPECT_EQ(LibraryLocator::kindOf("hosts.sqlite3"), Kind::File);
    EXPECT_EQ(LibraryLocator::kindOf("host"), Kind::File);
}

TEST(LibraryLocator, MasksThePasswordInEveryForm)
{
    const std::string secret = "S3cret";
    for (const char* location : {
             "postgresql://alice:S3cret@db/lab",
             "postgresql://alice@db/lab?password=S3cret&sslmode=require",
             "postgresql://alice@db/lab?sslmode=require&password=S3cret",
             "host=db user=alice password=S3cret dbname=lab",
             "host=db password = S3cret dbname=lab",
             "host=db password='S3cret and more' dbname=lab",
             "host=db password='S3cret \\' still' dbname=lab",
             "password=S3cret host=db",
             "host=db\tpassword=S3cret",
         }) {
        const std::string shown = LibraryLocator::redacted(location);
        EXPECT_EQ(shown.find(secret), std::string::npos) << location << " -> " << shown;
        EXPECT_EQ(shown.find("more"), std::string::npos) << shown;
        EXPECT_EQ(shown.find("still"), std::string::npos) << shown;
        EXPECT_NE(shown.find("***"), std::string::npos) << shown;
        EXPECT_NE(shown.find("db"), std::string::npos) << "the rest stays readable: " << shown;
        EXPECT_EQ(TerminalText::location(location).find(secret), std::string::npos);
    }
    // nothing to mask: the same text
    EXPECT_EQ(LibraryLocator::redacted("host=db dbname=password_store"), "host=db dbname=password_store");
    EXPECT_EQ(LibraryLocator::redacted("/tmp/password=x.sqlite3"), "/tmp/password=x.sqlite3");
}

}  // namespace
TEST(LibraryLocator, LeavesThePasswordOutOfWhatTheSettingsKeep)
{
    const std::pair<const char*, const char*> cases[] = {
        {"postgresql://alice:S3cret@db/lab", "postgresql://alice@db/lab"},
        {"postgresql://alice@db/lab?password=S3cret&sslmode=require", "postgresql://alice@db/lab?sslmode=require"},
        {"postgresql://alice@db/lab?sslmode=require&password=S3cret", "postgresql://alice@db/lab?sslmode=require"},
        {"postgresql://alice@db/lab?password=S3cret", "postgresql://alice@db/lab"},
        {"host=db user=alice password=S3cret dbname=lab", "host=db user=alice dbname=lab"},
        {"host=db password = 'S3cret \\' still' dbname=lab", "host=db dbname=lab"},
        {"password=S3cret host=db", "host=db"},
        {"host=db dbname=lab", "host=db dbname=lab"},
        {"/home/alice/password=S3cret.sqlite3", "/home/alice/password=S3cret.sqlite3"},
    };
    for (const auto& [location, kept] : cases)
        EXPECT_EQ(LibraryLocator::withoutPassword(location), kept) << location;
}

}  // namespace ps::library
