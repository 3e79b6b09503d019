// engine/share's HTML report: the page is one file with its CSP, the data round-trips through
// gzip (zlib) and base64, and hostile text in a report cannot break out of the page.
#include "share/HtmlReport.h"
#include "share/Base64.h"
#include "share/Gzip.h"
#include "share/PageData.h"
#include "share/PageWriter.h"

#include "model/Report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include <unistd.h>

namespace {

using ps::share::Base64;
using ps::share::Gzip;
using ps::share::HtmlReport;
using ps::share::PageWriter;
using json = nlohmann::json;

ps::model::Report hostileReport()
{
    const std::string evil = "</script><script>alert(1)</script><!-- </style> \xff\x1b[31m";
    json j = {{"schema", 1}, {"script", "/tmp/" + evil + ".py"}, {"status", "violation"}, {"message", evil},
        {"captures",
            json::array({{{"name", evil}, {"backend", "eager"}, {"tracer", "make_fx"}, {"status", "violation"},
                {"violation",
                    {{"rule", "buffer-received-gradient"}, {"invariant", 5}, {"kind", "PrecompileError"},
                        {"message", evil}, {"fix", evil}, {"location", {{"file", "x.py"}, {"line", 2}}}}},
                {"graph", {{"node_list", json::array({{{"name", "x"}}, {{"name", "y"}}})}}}}})}};
    return ps::model::Report::fromJson(j);
}

// The text between <script type="application/octet-stream" id="ID"> and its </script>.
std::string elementText(const std::string& html, const std::string& id)
{
    const std::string open = "<script type=\"application/octet-stream\" id=\"" + id + "\">";
    const auto at = html.find(open);
    if (at == std::string::npos)
        return {};
    const auto from = at + open.size();
    const auto to = html.find("</script>", from);
    std::string text = html.substr(from, to - from);
    text.erase(std::remove(text.begin(), text.end(), '\n'), text.end());
    return text;
}

std::size_t count(const std::string& text, const std::string& needle)
{
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

TEST(Gzip, RoundTripsAndIsARealGzipMember)
{
    std::mt19937 random(7);
    std::string data;
    for (int i = 0; i < 200000; ++i)
        data += static_cast<char>(i % 3 == 0 ? random() % 256 : 'a' + i % 26);
    const std::string packed = Gzip::compress(data);
    ASSERT_GE(packed.size(), 18u);
    EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f);  // gzip's magic, as DecompressionStream wants
    EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
    EXPECT_LT(packed.size(), data.size());
    EXPECT_EQ(Gzip::decompress(packed), data);
    EXPECT_EQ(Gzip::decompress(Gzip::compress("")), "");
    EXPECT_THROW(Gzip::decompress(packed.substr(0, packed.size() / 2)), std::runtime_error);
    EXPECT_THROW(Gzip::decompress("not gzip at all"), std::runtime_error);
}

TEST(Base64, MatchesTheStandardAlphabetAndRoundTrips)
{
    EXPECT_EQ(Base64::encode(""), "");
    EXPECT_EQ(Base64::encode("f"), "Zg==");
    EXPECT_EQ(Base64::encode("fo"), "Zm8=");
    EXPECT_EQ(Base64::encode("foo"), "Zm9v");
    EXPECT_EQ(Base64::encode("foob"), "Zm9vYg==");
    EXPECT_EQ(Base64::encode("\xfb\xff"), "+/8=");
    std::string all;
    for (int i = 0; i < 256; ++i)
        all += static_cast<char>(i);
    EXPECT_EQ(Base64::decode(Base64::encode(all)), all);
    EXPECT_THROW(Base64::decode("abc"), std::invalid_argument);
    EXPECT_THROW(Base64::decode("ab<c"), std::invalid_argument);
}

TEST(HtmlReport, IsOneFileWithItsCspAndNoExternalReference)
{
    const std::string html = HtmlReport::forRun(hostileReport(), "import torch\nx = 1\n", {std::string("code")});
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src "
                        "'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data:\">"),
        std::string::npos);
    // Nothing is loaded from anywhere: no src=, no href=, no url( in the whole file.
    EXPECT_EQ(html.find(" src="), std::string::npos);
    EXPECT_EQ(html.find(" href="), std::string::npos);
    EXPECT_FALSE(std::regex_search(html, std::regex(R"(url\((?!#))")));  // url(#marker) stays in the page
    EXPECT_EQ(html.find("@import"), std::string::npos);
    EXPECT_NE(html.find("id=\"ps-data\""), std::string::npos);
    EXPECT_NE(html.find("DecompressionStream('gzip')"), std::string::npos);  // report.js is inline
    EXPECT_NE(html.find("prefers-color-scheme"), std::string::npos);         // report.css is inline
    EXPECT_EQ(html.substr(html.size() - 8), "</html>\n");
}

TEST(HtmlReport, HostileTextCannotBreakOutOfThePage)
{
    const std::string html = HtmlReport::forRun(hostileReport(), "</script><!--", {});
    // Exactly the page's own script elements end: the data, the engine, graph.js, report.js.
    const auto assets = ps::share::PageAssets::builtIn();
    EXPECT_EQ(count(html, "</script>"), 2u + !assets.engineWasm.empty() + !assets.graphJs.empty());
    EXPECT_EQ(count(html, "alert(1)"), 0u);  // neither as text nor as markup: it is in the gzip
    EXPECT_EQ(count(html, "<!--"), 0u);
    EXPECT_EQ(count(html, "</style>"), count(html, "<style>"));
    // The title is escaped text.
    const auto title = html.substr(html.find("<title>"), html.find("</title>") - html.find("<title>"));
    EXPECT_EQ(title.find('<', 1), std::string::npos);
    EXPECT_NE(title.find("style&gt;"), std::string::npos);  // the script's base name: after its last '/'
    EXPECT_EQ(title.find('>'), std::string("<title>").size() - 1);
    // The data element holds only base64's alphabet.
    const std::string data = elementText(html, "ps-data");
    ASSERT_FALSE(data.empty());
    EXPECT_TRUE(std::regex_match(data, std::regex("[A-Za-z0-9+/]*=*")));
}

TEST(HtmlReport, TheDataRoundTripsToTheReportsWords)
{
    const std::string html = HtmlReport::forRun(hostileReport(), "import torch\nx = 1\n", {std::string("def call")});
    const json data = json::parse(Gzip::decompress(Base64::decode(elementText(html, "ps-data"))));
    EXPECT_EQ(data["kind"], "run");
    EXPECT_EQ(data["verdict"]["word"], "violation");  // model::RunVerdict's words, as `run` says them
    EXPECT_EQ(data["verdict"]["exit_code"], 1);
    EXPECT_EQ(data["script_text"], "import torch\nx = 1\n");
    EXPECT_EQ(data["captures"][0]["python_code"], "def call");
    EXPECT_EQ(data["captures"][0]["graph_nodes"], 2);
    EXPECT_FALSE(data["report"]["captures"][0].contains("graph"));  // travels once, in the graph panel's form
    // The report's bytes that are not UTF-8 became U+FFFD, not a failure.
    EXPECT_NE(data["report"]["message"].get<std::string>().find("\xef\xbf\xbd"), std::string::npos);
}

TEST(HtmlReport, NeverSaysOkForARunThatWasNotStored)
{
    json j = {
        {"schema", 1}, {"script", "a.py"}, {"status", "ok"}, {"store_error", "disk full"}, {"captures", json::array()}};
    const json data = ps::share::PageData::forRun(ps::model::Report::fromJson(j), "", {});
    EXPECT_EQ(data["verdict"]["word"], "not stored");
    EXPECT_EQ(data["verdict"]["exit_code"], 3);
}

TEST(HtmlReport, AnAssetThatWouldCloseItsElementIsRefused)
{
    ps::share::PageAssets assets = ps::share::PageAssets::builtIn();
    EXPECT_NO_THROW(PageWriter::write("t", json::object(), assets));
    assets.reportJs = "var s = '</SCRIPT >';";
    EXPECT_THROW(PageWriter::write("t", json::object(), assets), std::logic_error);
    assets = ps::share::PageAssets::builtIn();
    assets.reportCss = "a{} </style";
    EXPECT_THROW(PageWriter::write("t", json::object(), assets), std::logic_error);
}

TEST(HtmlReport, SaveSaysWhyAFileCannotBeWritten)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ps_html_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string ok = (dir / "r.html").string();
    EXPECT_EQ(HtmlReport::save(ok, "<html>"), "");
    std::ifstream in(ok);
    std::string back((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(back, "<html>");
    const std::string missing = (dir / "no" / "such" / "r.html").string();
    EXPECT_EQ(HtmlReport::save(missing, "<html>"), "cannot write " + missing + ": No such file or directory");
    std::filesystem::remove_all(dir);
}

}  // namespace
