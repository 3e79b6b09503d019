// The torch releases the studio has a worker for, and an environment's torch read without
// importing it: what protocol::WorkerLocator chooses the worker by.
#include "install/TorchSeries.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using ps::install::TorchSeries;

namespace {

struct Folder {
    fs::path path = fs::temp_directory_path() / ("ps-torch-series-" + std::to_string(::getpid()));
    Folder() { fs::create_directories(path); }
    ~Folder() { fs::remove_all(path); }
    void write(const std::string& relative, const std::string& text) const
    {
        fs::create_directories((path / relative).parent_path());
        std::ofstream(path / relative) << text;
    }
};

}  // namespace

TEST(TorchSeries, TheDefaultIsTodaysTorchAndBothAreSupported)
{
    EXPECT_EQ(TorchSeries::defaultSeries(), "2.15");
    EXPECT_EQ(TorchSeries::supported(), (std::vector<std::string>{"2.15", "2.14"}));
    EXPECT_EQ(TorchSeries::pinned("2.15"), "2.15.0");
    EXPECT_EQ(TorchSeries::pinned("2.14"), "2.14.1");
    EXPECT_EQ(TorchSeries::supportedWords(), "torch 2.14 and 2.15 (torch==2.14.1 or torch==2.15.0)");
}

TEST(TorchSeries, AVersionBelongsToItsSeriesWhateverItsBuild)
{
    EXPECT_EQ(TorchSeries::of("2.15.0+cu132"), "2.15");
    EXPECT_EQ(TorchSeries::of("2.14.1+cu130"), "2.14");
    EXPECT_EQ(TorchSeries::of("2.14.1"), "2.14");
    EXPECT_EQ(TorchSeries::of("2.14"), "2.14");
    EXPECT_EQ(TorchSeries::of("2.9.1+cpu"), std::nullopt);
    EXPECT_EQ(TorchSeries::of("2.150.0"), std::nullopt);  // not 2.15
    EXPECT_EQ(TorchSeries::of(""), std::nullopt);
}

TEST(TorchSeries, TheInstalledVersionIsReadFromVersionPy)
{
    Folder site;
    EXPECT_EQ(TorchSeries::installedVersion(site.path.string()), std::nullopt);  // no torch there
    site.write("torch/__init__.py", "");
    EXPECT_EQ(TorchSeries::installedVersion(site.path.string()), "");  // a torch, version unknown
    site.write("torch/version.py",
        "from typing import Optional\n__all__ = ['__version__']\n"
        "__version__ = '2.15.0+cu132'\ngit_version = 'abc'\n");
    EXPECT_EQ(TorchSeries::installedVersion(site.path.string()), "2.15.0+cu132");
    site.write("torch/version.py", "__version__: str = \"2.14.1\"\n");
    EXPECT_EQ(TorchSeries::installedVersion(site.path.string()), "2.14.1");
}
