#include "share/PageWriter.h"

#include "share/Base64.h"
#include "share/Gzip.h"
#include "share/MarkupText.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace ps::share {

namespace {

bool containsNoCase(std::string_view text, std::string_view needle)
{
    return std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    }) != text.end();
}

// An asset goes into the page verbatim; one that held its element's end tag would cut the page.
void appendElement(
    std::string& out, std::string_view open, std::string_view close, std::string_view body, std::string_view what)
{
    if (containsNoCase(body, close.substr(0, close.find('>'))))
        throw std::logic_error("the page's " + std::string(what) + " contains " + std::string(close));
    out += open;
    out += body;
    out += close;
}

// Base64 in an element: lines of 76 characters keep the file readable by a text editor.
void appendBase64(std::string& out, std::string_view id, const std::string& base64)
{
    out += "<script type=\"application/octet-stream\" id=\"";
    out += id;
    out += "\">\n";
    for (std::size_t at = 0; at < base64.size(); at += 76) {
        out.append(base64, at, 76);
        out += '\n';
    }
    out += "</script>\n";
}

}  // namespace

std::string PageWriter::encodeData(const nlohmann::json& data)
{
    return Base64::encode(Gzip::compress(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
}

std::string PageWriter::write(std::string_view title, const nlohmann::json& data, const PageAssets& assets)
{
    const std::string encoded = encodeData(data);
    std::string out;
    out.reserve(encoded.size() + assets.engineWasm.size() * 4 / 3 + assets.reportJs.size() + assets.graphJs.size()
        + assets.reportCss.size() + assets.graphCss.size() + 4096);
    out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<meta http-equiv=\"Content-Security-Policy\" content=\"";
    out += kContentSecurityPolicy;
    out += "\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<meta name=\"color-scheme\" content=\"light dark\">\n";
    out += "<meta name=\"generator\" content=\"Precompile Studio\">\n<title>";
    out += MarkupText::escape(title);
    out += "</title>\n";
    appendElement(out, "<style>\n", "</style>\n", assets.reportCss, "report.css");
    if (!assets.graphCss.empty())
        appendElement(out, "<style>\n", "</style>\n", assets.graphCss, "graph.css");
    out += "</head>\n<body data-ready=\"0\">\n";
    out += "<noscript><p>This report draws itself with JavaScript: open it in a browser with scripts "
           "enabled.</p></noscript>\n";
    out += "<main id=\"ps-report\"><p class=\"ps-loading\">Loading the report…</p></main>\n";
    appendBase64(out, "ps-data", encoded);
    if (!assets.engineWasm.empty())
        appendBase64(out, "ps-engine", Base64::encode(assets.engineWasm));
    if (!assets.graphJs.empty())
        appendElement(out, "<script>\n", "</script>\n", assets.graphJs, "graph.js");
    appendElement(out, "<script>\n", "</script>\n", assets.reportJs, "report.js");
    out += "</body>\n</html>\n";
    return out;
}

}  // namespace ps::share
