// Reading a library that cannot be written: a read-only file, a read-only folder, a full disk,
// a writer holding the lock. Reads work (OpenOptions::readOnly), a write fails with one plain
// line, and the file is left as it was.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <filesystem>

#include "ChildProcess.h"
#include "LibraryTestSupport.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/sqlite/SqliteSchema.h"

#ifndef PS_LIBRARY_FIXTURES
#error "PS_LIBRARY_FIXTURES must name tests/library/fixtures"
#endif

namespace ps::library {
namespace {

using test::TempDir;
using ErrorKind = LibraryError::Kind;

constexpr ArtifactLibrary::OpenOptions kReadOnly{.create = false, .readOnly = true};

/// Two runs; returns the id of the first.
std::int64_t makeFilledLibrary(const std::string& path)
{
    ArtifactLibrary library(path);
    const std::int64_t first
        = library.insert(test::makeRun("first", test::pythonCodeText(20'000, 1), test::semiRandomBytes(20'000, 1)));
    library.insert(test::makeRun("second", test::pythonCodeText(20'000, 2), test::semiRandomBytes(20'000, 2)));
    return first;
}

/// Everything a read-only command does, on a library made by makeFilledLibrary.
void expectReadable(ArtifactLibrary& library, std::int64_t first, const std::string& exportDir)
{
    EXPECT_EQ(library.list().size(), 2u);
    EXPECT_TRUE(library.show(first).damaged.empty());
    EXPECT_TRUE(library.artifact(first, 0).cache == test::semiRandomBytes(20'000, 1));
    EXPECT_EQ(library.exportRun(first, exportDir).size(), 3u);
    const VerifyReport verify = library.verify();
    EXPECT_TRUE(verify.ok()) << (verify.integrityErrors.empty() ? "damaged blobs" : verify.integrityErrors[0]);
    EXPECT_EQ(verify.blobsChecked, 4);
}

/// A write through `library` fails as `kind`, saying `words`.
void expectWriteRefused(ArtifactLibrary& library, ErrorKind kind, const std::string& words)
{
    try {
        library.insert(test::makeRun("third", "code", "cache"));
        ADD_FAILURE() << "wrote to a library that cannot be written";
    } catch (const LibraryError& e) {
        EXPECT_EQ(LibraryError::kindName(e.kind()), std::string(LibraryError::kindName(kind))) << e.what();
        EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
}

TEST(LibraryReadOnly, AReadOnlyFileIsReadAndLeftUntouched)
{
    TempDir dir;
    const std::string path = dir.file("lib.sqlite3");
    const std::int64_t first = makeFilledLibrary(path);
    ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
    const std::string before = test::readBytes(path);
    {
        ArtifactLibrary library(path, kReadOnly);
        expectReadable(library, first, dir.file("out"));
        expectWriteRefused(library, ErrorKind::ReadOnly, "read-only");
    }
    EXPECT_TRUE(test::readBytes(path) == before) << "a read-only open changed the file";
    try {
        ArtifactLibrary library(path);  // for writing: refused up front, as always
        ADD_FAILURE() << "opened a read-only file for writing";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::ReadOnly) << e.what();
    }
}

TEST(LibraryReadOnly, AReadOnlyFolderIsReadWithoutItsShm)
{
    TempDir dir;
    const std::string folder = dir.file("library");
    std::filesystem::create_directory(folder);
    const std::string path = folder + "/lib.sqlite3";
    const std::int64_t first = makeFilledLibrary(path);
    ASSERT_FALSE(std::filesystem::exists(path + "-shm")) << "the last connection should have removed it";
    const std::string out = dir.file("out");
    std::filesystem::create_directory(out);
    // Only the folder is read-only: the file itself may be written by anyone.
    ASSERT_EQ(::chmod(dir.path().c_str(), 0755) | ::chmod(out.c_str(), 0777) | ::chmod(path.c_str(), 0666), 0);
    ASSERT_EQ(::chmod(folder.c_str(), 0555), 0);
    PS_IN_CHILD([&]() -> std::string {
        if (std::string why = test::dropRoot(); !why.empty())
            return why;
        {
            ArtifactLibrary library(path, kReadOnly);
            expectReadable(library, first, out + "/export");
            expectWriteRefused(library, ErrorKind::ReadOnly, "read-only");
        }
        try {
            ArtifactLibrary library(path);
            ADD_FAILURE() << "opened a library in a read-only folder for writing";
        } catch (const LibraryError& e) {
            EXPECT_EQ(e.kind(), ErrorKind::ReadOnly) << e.what();
            EXPECT_NE(std::string(e.what()).find("its folder " + folder + " cannot be written"), std::string::npos)
                << e.what();
        }
        return {};
    });
    ::chmod(folder.c_str(), 0755);
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

/// Writes to `file` until the file system has no byte left.
void fillDisk(const std::string& file)
{
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    const std::string chunk(1 << 20, 'f');
    for (std::size_t size : {std::size_t{1} << 20, std::size_t{4096}, std::size_t{1}})
        while (::write(fd, chunk.data(), size) == static_cast<ssize_t>(size)) {
        }
    EXPECT_EQ(errno, ENOSPC);
    ::close(fd);
}

TEST(LibraryReadOnly, AFullDiskSaysSoAndReadsStillWork)
{
    TempDir dir;
    const std::string disk = dir.file("disk");
    std::filesystem::create_directory(disk);
    PS_IN_CHILD([&]() -> std::string {
        if (std::string why = test::privateMounts(); !why.empty())
            return why;
        if (::mount("tmpfs", disk.c_str(), "tmpfs", 0, "size=4m") != 0)
            return "cannot mount a tmpfs";
        const std::string path = disk + "/lib.sqlite3";
        const std::int64_t first = makeFilledLibrary(path);
        {
            ArtifactLibrary library(path);  // opened before the disk fills: its -shm exists
            fillDisk(disk + "/filler-1");
            expectWriteRefused(library, ErrorKind::DiskFull, "the disk holding the library is full");
            EXPECT_EQ(library.list().size(), 2u);
        }
        fillDisk(disk + "/filler-2");  // what closing gave back
        try {
            ArtifactLibrary library(path);  // its -shm cannot be made: was "disk I/O error"
            ADD_FAILURE() << "opened for writing on a full disk";
        } catch (const LibraryError& e) {
            EXPECT_EQ(e.kind(), ErrorKind::DiskFull) << e.what();
            EXPECT_EQ(
                std::string(e.what()), path + ": the disk holding the library is full; free some space and try again");
        }
        ArtifactLibrary library(path, kReadOnly);
        EXPECT_EQ(library.list().size(), 2u);
        EXPECT_TRUE(library.artifact(first, 0).cache == test::semiRandomBytes(20'000, 1));
        EXPECT_TRUE(library.verify().ok());
        return {};
    });
}

TEST(LibraryReadOnly, VerifyRunsBesideAWriterHoldingTheLock)
{
    TempDir dir;
    const std::string path = dir.file("lib.sqlite3");
    makeFilledLibrary(path);
    sqlite3* writer = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &writer), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(writer,
                  "BEGIN IMMEDIATE; INSERT INTO runs (created_at, name, status, script_path) "
                  "VALUES ('2026-12-03T00:00:00Z', 'held', 'ok', '/s/held.py')",
                  nullptr, nullptr, nullptr),
        SQLITE_OK);
    const auto start = std::chrono::steady_clock::now();
    {
        ArtifactLibrary library(path, kReadOnly);
        const VerifyReport verify = library.verify();
        EXPECT_TRUE(verify.ok()) << (verify.integrityErrors.empty() ? "damaged blobs" : verify.integrityErrors[0]);
        EXPECT_EQ(library.list().size(), 2u) << "saw the writer's uncommitted run";
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << "waited for the writer";
    sqlite3_exec(writer, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(writer);
}

TEST(LibraryReadOnly, AnOlderLibraryIsUpgradedOnceThenRead)
{
    TempDir dir;
    const std::string path = dir.file("v1.sqlite3");
    test::rawExec(path, test::readBytes(std::string(PS_LIBRARY_FIXTURES) + "/library_v1.sql"));
    ArtifactLibrary library(path, kReadOnly);
    EXPECT_EQ(library.schemaVersion(), SqliteSchema::kVersion);
    EXPECT_EQ(library.list().size(), 2u);
    expectWriteRefused(library, ErrorKind::ReadOnly, "read-only");
}

TEST(LibraryReadOnly, AnOlderLibraryThatCannotBeWrittenIsRefusedInOneLine)
{
    TempDir dir;
    const std::string path = dir.file("v1.sqlite3");
    test::rawExec(path, test::readBytes(std::string(PS_LIBRARY_FIXTURES) + "/library_v1.sql"));
    ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
    const std::string before = test::readBytes(path);
    try {
        ArtifactLibrary library(path, kReadOnly);
        ADD_FAILURE() << "read a schema-1 library without upgrading it";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::ReadOnly) << e.what();
        const std::string what = e.what();
        EXPECT_NE(what.find("its schema 1 is older"), std::string::npos) << what;
        EXPECT_NE(what.find("needs write access"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    EXPECT_TRUE(test::readBytes(path) == before);
}

}  // namespace
}  // namespace ps::library
